import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Recomputes derived attributes after a migration's tables are rebuilt, with the same
/// rules as a save (`DerivedValues`): the canonical, lowercase and uppercase forms of a
/// string, a value through to-one key paths, and `@count` / `@sum` over a to-many stored
/// through its to-one inverse. `now()` is set, to the time of the migration, only for a
/// newly added attribute and only where it has no value. As in a save, an integer sum past
/// `Int64` goes on exactly as a decimal, and a value its attribute cannot hold refuses the
/// migration (`MigrationError.invalidData`, naming the object) instead of being stored.
struct MigrationDerivations {
    let plan: MigrationPlan
    let database: Database
    let schema: StoreSchema

    func recompute() throws {
        let now = Date()
        for step in plan.steps where step.kind == .recomputeDerived {
            guard let property = step.property, let mapping = schema.entities[step.entity],
                let attribute = mapping.schema.attribute(named: property),
                let expression = attribute.derivationExpression,
                let derivation = try? Derivation(parsing: expression),
                mapping.table.column(named: property) != nil
            else { continue }
            let table = sqlIdentifier(mapping.table.name)
            var filter = ""
            if mapping.table.hasEntityColumn {
                filter = " WHERE src.\"_entity\" IN (\(mapping.schema.hierarchyNames.map(sqlLiteral).joined(separator: ", ")))"
            }
            var values: [(Int64, AttributeValue)] = []
            switch derivation {
            case .now:
                let encoded = try RowCodec.encode(.date(now), for: attribute, entity: mapping.schema.name)
                try database.execute(
                    "UPDATE \(table) AS src SET \(sqlIdentifier(property)) = ?"
                        + (filter.isEmpty ? " WHERE " : filter + " AND ") + "\(sqlIdentifier(property)) IS NULL", [encoded])
                continue
            case .canonical(let key), .lowercase(let key), .uppercase(let key):
                guard mapping.table.column(named: key) != nil else { continue }
                for row in try database.query("SELECT src.\"_id\", src.\(sqlIdentifier(key)) FROM \(table) AS src\(filter)") {
                    guard let id = row[0].int64Value else { continue }
                    guard case .text(let text) = row[1] else { values.append((id, .null)); continue }
                    switch derivation {
                    case .canonical: values.append((id, .string(CanonicalText.fold(text))))
                    case .lowercase: values.append((id, .string(text.lowercased())))
                    default: values.append((id, .string(text.uppercased())))
                    }
                }
            case .keyPath(let path):
                guard let (sql, target) = keyPathSQL(path, from: mapping.schema) else { continue }
                for row in try database.query("SELECT src.\"_id\", \(sql) FROM \(table) AS src\(filter)") {
                    guard let id = row[0].int64Value else { continue }
                    values.append((id, (try? RowCodec.decode(row[1], for: target, entity: step.entity)) ?? .null))
                }
            case .count(let relationship):
                guard let (from, owner, _) = linkRows(of: relationship, in: mapping.schema) else { continue }
                for row in try database.query(
                    "SELECT src.\"_id\", (SELECT count(*) FROM \(from) WHERE \(owner) = src.\"_id\") FROM \(table) AS src\(filter)")
                {
                    guard let id = row[0].int64Value else { continue }
                    values.append((id, .integer(row[1].int64Value ?? 0)))
                }
            case .sum(let relationship, let key):
                guard let (from, owner, destination) = linkRows(of: relationship, in: mapping.schema),
                    let summed = destination.schema.attribute(named: key), destination.table.column(named: key) != nil
                else { continue }
                var integers: [Int64: Int64] = [:]
                var decimals: [Int64: DecimalSum] = [:]
                var summing: Int64 = 0  // the object whose sum is being added to, for errors
                do {
                    for row in try database.query("SELECT \(owner), j.\(sqlIdentifier(key)) FROM \(from) WHERE \(owner) IS NOT NULL") {
                        guard let owner = row[0].int64Value else { continue }
                        summing = owner
                        switch (try? RowCodec.decode(row[1], for: summed, entity: destination.schema.name)) ?? .null {
                        case .integer(let v):
                            // As a save sums: past Int64 the sum goes on exactly as a decimal,
                            // and the attribute's type then decides whether it fits.
                            let (sum, overflow) = integers[owner, default: 0].addingReportingOverflow(v)
                            if overflow {
                                try decimals[owner, default: DecimalSum()].add(Decimal(v))
                            } else {
                                integers[owner] = sum
                            }
                        case .double(let v): try decimals[owner, default: DecimalSum()].add(Decimal(v))
                        case .decimal(let v): try decimals[owner, default: DecimalSum()].add(v)
                        default: break
                        }
                    }
                    for (owner, integer) in integers where decimals[owner] != nil {
                        summing = owner
                        try decimals[owner]?.add(Decimal(integer))
                    }
                } catch let error as DecimalSumError {
                    // Exact, as a save computes it; an overflow rolls the migration back.
                    throw MigrationError(
                        .invalidData, entity: step.entity, property: property,
                        reason: "it derives '\(expression)', but for \(step.entity) \(summing) \(error)")
                }
                for row in try database.query("SELECT src.\"_id\" FROM \(table) AS src\(filter)") {
                    guard let id = row[0].int64Value else { continue }
                    let integer = integers[id] ?? 0
                    if let decimal = decimals[id] {
                        values.append((id, .decimal(decimal.total)))
                    } else {
                        values.append((id, .integer(integer)))
                    }
                }
            }
            let update = try database.prepare("UPDATE \(table) SET \(sqlIdentifier(property)) = ? WHERE \"_id\" = ?")
            for (id, raw) in values {
                let value: AttributeValue
                do {
                    value = try AttributeValue.coerce(raw.anyValue, to: attribute)
                } catch {
                    // Never silent garbage, as in a save: a value the attribute can't hold
                    // (an integer sum past its type) refuses the migration, naming the object.
                    throw MigrationError(
                        .invalidData, entity: step.entity, property: property,
                        reason: "it derives '\(expression)', whose value \(raw) for \(step.entity) \(id) "
                            + "does not fit: \(error)")
                }
                try update.run([try RowCodec.encode(value, for: attribute, entity: step.entity), .integer(id)])
            }
        }
    }

    /// SQL reading a key path (to-one steps, then an attribute) from `src`, and the attribute.
    private func keyPathSQL(_ path: [String], from start: EntitySchema) -> (String, AttributeDescription)? {
        var current = start
        var key = "src"
        var sql: String?
        for (index, name) in path.enumerated() {
            guard let table = schema.entities[current.name]?.table, table.column(named: name) != nil else { return nil }
            let read = sql.map { "(SELECT \(sqlIdentifier(name)) FROM \(sqlIdentifier(table.name)) WHERE \"_id\" = \($0))" }
                ?? "\(key).\(sqlIdentifier(name))"
            if index == path.count - 1 {
                guard let attribute = current.attribute(named: name) else { return nil }
                return (read, attribute)
            }
            guard let relationship = current.relationship(named: name), !relationship.isToMany,
                let next = schema.entities[relationship.destinationEntityName]?.schema
            else { return nil }
            sql = read
            key = ""
            current = next
        }
        return nil
    }

    /// Where a to-many's destinations are: a FROM clause whose destination rows are
    /// aliased `j`, the SQL of the owner's key in it, and the destination's mapping. The
    /// links are the to-one inverse's column, or the join table (`l`) joined to the rows.
    private func linkRows(of relationship: String, in entity: EntitySchema) -> (String, String, EntityMapping)? {
        guard let r = entity.relationship(named: relationship), r.isToMany,
            let destination = schema.entities[r.destinationEntityName]
        else { return nil }
        let rows = "\(sqlIdentifier(destination.table.name)) AS j"
        if let side = schema.joinSide(entity: entity.name, relationship: relationship) {
            return (
                "\(sqlIdentifier(side.table.name)) AS l JOIN \(rows) ON j.\"_id\" = l.\(sqlIdentifier(side.otherColumn))",
                "l.\(sqlIdentifier(side.ownColumn))", destination
            )
        }
        guard let inverse = r.inverseName, let back = destination.schema.relationship(named: inverse), !back.isToMany,
            destination.table.column(named: inverse) != nil
        else { return nil }
        return (rows, "j.\(sqlIdentifier(inverse))", destination)
    }
}
