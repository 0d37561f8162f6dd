import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

// To-many key paths: `ANY`/`ALL`/`NONE` and collection operators as correlated subqueries on
// the destination table, joined through the inverse to-one column or the relationship's join
// table.

extension PredicateSQLCompiler {
    /// A key path cut at its first to-many step.
    struct ToManySplit {
        /// The to-one steps before the to-many relationship (empty when it starts there).
        var prefix: [String]
        /// The destination's mapping.
        var destination: EntityMapping
        /// The inverse to-one relationship's name in the destination, when the link is its
        /// column.
        var inverse: String?
        /// The relationship's join table, when the link is a join table.
        var join: JoinSide?
        /// The key path after the to-many relationship.
        var rest: [String]
    }

    /// Splits `components` at its first to-many relationship, or returns nil when it has none.
    ///
    /// - Throws: `FetchError` for an unknown key or a transient to-many relationship.
    func toManySplit(_ components: [String]) throws -> ToManySplit? {
        var current = fetch.mapping
        for (index, step) in components.enumerated() {
            guard let position = current.schema.propertyIndex[step] else {
                throw FetchError(entity: fetch.mapping.schema.name, reason: "\(current.schema.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            guard case .relationship(let r) = current.schema.properties[position] else { return nil }
            guard let destination = fetch.schema.entities[r.destinationEntityName] else { return nil }
            if r.isToMany {
                guard !r.isTransient else {
                    throw FetchError(
                        entity: fetch.mapping.schema.name,
                        reason: "\(step) is transient: it is not stored, so it cannot be fetched on")
                }
                let rest = Array(components[(index + 1)...])
                if let join = fetch.schema.joinSide(entity: current.schema.name, relationship: step) {
                    return ToManySplit(
                        prefix: Array(components[..<index]), destination: destination, join: join, rest: rest)
                }
                guard let inverse = r.inverseName, destination.schema.relationship(named: inverse)?.isToMany == false else {
                    throw FetchError(entity: fetch.mapping.schema.name, reason: "\(step) has no stored link to fetch on")
                }
                return ToManySplit(
                    prefix: Array(components[..<index]), destination: destination, inverse: inverse, rest: rest)
            }
            current = destination
        }
        return nil
    }

    /// A sub-compiler over the destination of `split`, and the subquery's FROM/WHERE head.
    mutating func subquery(_ split: ToManySplit) throws -> (compiler: PredicateSQLCompiler, head: String) {
        let owner: String
        if split.prefix.isEmpty {
            owner = "\(sqlIdentifier(fetch.rootAlias)).\"_id\""
        } else {
            owner = try fetch.column(forKeyPath: split.prefix.joined(separator: ".")).sql
        }
        nextSubquery += 1
        let alias = "\(fetch.aliasPrefix)s\(nextSubquery)"
        var inner = try FetchCompiler(schema: fetch.schema, entityName: split.destination.schema.name)
        inner.rootAlias = alias
        inner.aliasPrefix = alias + "j"
        var compiler = PredicateSQLCompiler(fetch: inner)
        compiler.nextSubquery = 0
        var restriction = ""
        let table = split.destination.table
        if table.hasEntityColumn, !split.destination.schema.ancestors.isEmpty {
            let names = split.destination.schema.hierarchyNames.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
            restriction = " AND \(sqlIdentifier(alias)).\"_entity\" IN (\(names.joined(separator: ", ")))"
        }
        if let join = split.join {
            let link = alias + "l"
            let head =
                "FROM \(sqlIdentifier(join.table.name)) AS \(sqlIdentifier(link)) "
                + "JOIN \(sqlIdentifier(table.name)) AS \(sqlIdentifier(alias)) ON \(sqlIdentifier(alias)).\"_id\" = "
                + "\(sqlIdentifier(link)).\(sqlIdentifier(join.otherColumn)) %JOINS% WHERE "
                + "\(sqlIdentifier(link)).\(sqlIdentifier(join.ownColumn)) = \(owner)\(restriction)"
            return (compiler, head)
        }
        let head =
            "FROM \(sqlIdentifier(table.name)) AS \(sqlIdentifier(alias)) %JOINS% WHERE "
            + "\(sqlIdentifier(alias)).\(sqlIdentifier(split.inverse ?? "")) = \(owner)\(restriction)"
        return (compiler, head)
    }

    /// `ANY`/`ALL`/`NONE` over a to-many key path.
    mutating func quantified(
        _ quantifier: PredicateNode.Quantifier, _ split: ToManySplit, _ comparison: PredicateNode.Comparison
    ) throws -> String {
        guard !split.rest.isEmpty else {
            throw failure("comparing the elements of \(split.prefix + ["…"]) themselves is not supported in SQL yet; compare a key of them")
        }
        var (inner, head) = try subquery(split)
        var elementComparison = comparison
        elementComparison.quantifier = nil
        elementComparison.left = .keyPath(split.rest)
        // ALL is NOT EXISTS … AND NOT condition: the condition is negated there.
        inner.negated = quantifier == .all
        let condition = try inner.condition(for: .comparison(elementComparison))
        let sql = head.replacingOccurrences(of: "%JOINS%", with: inner.fetch.joins.joined(separator: " "))
        arguments += inner.arguments
        nextSubquery += inner.nextSubquery + 100
        switch quantifier {
        case .any: return "EXISTS (SELECT 1 \(sql) AND \(condition))"
        case .all: return "(NOT EXISTS (SELECT 1 \(sql) AND NOT \(condition)))"
        case .noElement: return "(NOT EXISTS (SELECT 1 \(sql) AND \(condition)))"
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min` or `@max` of a to-many key path, as a scalar subquery.
    mutating func aggregate(
        _ function: PredicateNode.CollectionFunction, _ collection: [String], _ key: [String]
    ) throws -> Target {
        let name = PredicateNode.Operand.collectionFunction(function, collection: collection, key: key).description
        guard let split = try toManySplit(collection), split.rest.isEmpty else {
            throw failure("\(function.rawValue) needs a to-many key path, but \(collection.joined(separator: ".")) is not one")
        }
        var (inner, head) = try subquery(split)
        var expression = "count(*)"
        var kind = ValueKind.integer
        if function != .count {
            let column = try inner.fetch.column(forKeyPath: key.joined(separator: "."))
            kind = try inner.kind(ofKeyPath: key, from: split.destination)
            guard kind.isNumeric || function == .min || function == .max else {
                throw failure("\(function.rawValue) needs numbers, but \(key.joined(separator: ".")) is \(kind.description)")
            }
            let c = column.sql
            let type = try inner.attributeType(ofKeyPath: key, from: split.destination)
            switch function {
            case .sum:
                switch kind {
                // Past Int64 the sum goes on exactly as a decimal, as in memory, where SQL's
                // sum would fail with "integer overflow".
                case .integer where type == .integer64:
                    expression = "decimal_sum(\(c))"
                    kind = .decimal
                case .integer, .bool: expression = "coalesce(sum(\(c)), 0)"
                // Exact, as in memory: canonical Decimal text, compared through DECIMAL.
                case .decimal: expression = "decimal_sum(\(c))"
                default:
                    expression = "total(CAST(\(c) AS REAL))"
                    kind = .double
                }
            case .avg:
                if kind == .decimal {
                    expression = "decimal_avg(\(c))"
                } else {
                    expression = "avg(CAST(\(c) AS REAL))"
                    kind = .double
                }
            // NaN (stored as text) is skipped as in memory: it is no least or greatest value.
            case .min: expression = kind == .decimal ? "min(\(c) COLLATE DECIMAL)" : "min(\(kind == .double ? inner.doubleColumnValue(c) : c))"
            case .max: expression = kind == .decimal ? "max(\(c) COLLATE DECIMAL)" : "max(\(kind == .double ? inner.doubleColumnValue(c) : c))"
            case .count: break
            }
        }
        let sql = head.replacingOccurrences(of: "%JOINS%", with: inner.fetch.joins.joined(separator: " "))
        nextSubquery += inner.nextSubquery + 100
        return Target(sql: "(SELECT \(expression) \(sql))", kind: kind, name: name)
    }
}
