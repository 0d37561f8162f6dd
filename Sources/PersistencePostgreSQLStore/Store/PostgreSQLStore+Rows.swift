#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

// Reading rows: `SELECT "_id"[, "_entity"], "_opt", <every column>` of a table, decoded
// into `StoreRow`s per each row's own entity.

extension PostgreSQLStore {
    /// The select list of a table's rows, prefixed with `alias`.
    func selectList(_ table: PGSchema.Table, alias: String) -> String {
        let a = pgIdentifier(alias)
        var names = ["\(a).\"_id\""]
        if table.hasEntityColumn { names.append("\(a).\"_entity\"") }
        names.append("\(a).\"_opt\"")
        names += table.columns.map { "\(a).\(pgIdentifier($0.name))" }
        return names.joined(separator: ", ")
    }

    /// `"_entity" = ANY($n)` for an entity sharing its table, or nil for a whole table.
    func entityFilter(_ entity: PGSchema.Entity, includesSubentities: Bool, alias: String, parameters: inout [PGValue])
        -> String?
    {
        guard entity.table.hasEntityColumn else { return nil }
        let names = includesSubentities ? entity.schema.hierarchyNames : [entity.schema.name]
        if includesSubentities && entity.schema.ancestors.isEmpty { return nil }
        parameters.append(.textArray(names))
        return "\(pgIdentifier(alias)).\"_entity\" = ANY($\(parameters.count))"
    }

    /// The rows `sql` selects (its select list `selectList(table, …)`), in its order.
    func rows(_ sql: String, _ parameters: [PGValue], table: PGSchema.Table) throws -> [StoreRow] {
        var result: [StoreRow] = []
        try connection.forEachRow(sql, parameters) { columns in
            result.append(try row(from: columns, table: table))
            rowsRead += 1
            return true
        }
        return result
    }

    /// One row from its columns as `selectList` lists them.
    func row(from columns: [String?], table: PGSchema.Table) throws -> StoreRow {
        guard let keyText = columns[0], let key = Int64(keyText) else {
            throw PostgreSQLStoreError.corruptValue(entity: table.name, attribute: "_id")
        }
        var offset = 1
        var entityName = table.name
        if table.hasEntityColumn {
            entityName = columns[1] ?? table.name
            offset = 2
        }
        let version = columns[offset].flatMap { Int64($0) } ?? 1
        let first = offset + 1
        guard let entity = schema.entities[entityName] else {
            throw PostgreSQLStoreError.corruptValue(entity: table.name, attribute: "_entity")
        }
        let schema = entity.schema
        var slots: [StoredSlot] = []
        slots.reserveCapacity(schema.properties.count)
        for (position, property) in schema.properties.enumerated() {
            switch property {
            case .attribute(let attribute):
                if let column = entity.columnIndex[position] {
                    slots.append(.value(try PGRowCodec.decode(columns[first + column], for: attribute, entity: schema.name)))
                } else {
                    slots.append(.value(attribute.isTransient ? (attribute.defaultValue ?? .null) : .null))
                }
            case .relationship(let relationship):
                if relationship.isToMany {
                    slots.append(.toManyFault)
                } else if let column = entity.columnIndex[position],
                    case .toOne(let destinationEntity, let destinationTable) = entity.table.columns[column].kind,
                    let text = columns[first + column], let destinationKey = Int64(text)
                {
                    let scope = idScope(entityName: destinationEntity, rootName: destinationTable)
                    slots.append(.toOneFault(ObjectID(scope: scope, key: .permanent(destinationKey))))
                } else {
                    slots.append(.toOneFault(nil))
                }
            }
        }
        return StoreRow(
            schema: schema, primaryKey: key, idScope: idScope(entityName: entityName, rootName: table.name),
            slots: StoredSlots(slots, storingNullsAt: schema.transientAttributePositions), version: version)
    }

    /// The row under `key` of a root table, or nil.
    func row(table: PGSchema.Table, primaryKey key: Int64) throws -> StoreRow? {
        let sql = "SELECT \(selectList(table, alias: "t")) FROM \(pgIdentifier(table.name)) AS \"t\" WHERE \"t\".\"_id\" = $1"
        return try rows(sql, [.integer(key)], table: table).first
    }

    /// The rows of the destinations of a to-many of the row `key` of `sourceEntity`, in the
    /// relationship's order.
    func destinationRows(of relationship: RelationshipDescription, sourceEntity: String, key: Int64) throws -> [StoreRow] {
        try destinationRows(of: relationship, sourceEntity: sourceEntity, keys: [key]).first?.rows ?? []
    }

    /// The destinations of a to-many of each row among `keys` of `sourceEntity`, in the
    /// relationship's order: through the join table (positions, unpositioned last, then
    /// insertion order), else through the inverse to-one's column (key order). Sources
    /// without destinations are left out. One statement.
    func destinationRows(of relationship: RelationshipDescription, sourceEntity: String, keys: [Int64]) throws
        -> [(owner: Int64, rows: [StoreRow])]
    {
        guard let destination = schema.entities[relationship.destinationEntityName],
            let (sql, parameters) = destinationStatement(
                of: relationship, sourceEntity: sourceEntity, keys: keys,
                selecting: selectList(destination.table, alias: "t"))
        else { return [] }
        var result: [(owner: Int64, rows: [StoreRow])] = []
        try connection.forEachRow(sql, parameters) { columns in
            guard let owner = columns.last.flatMap({ $0 }).flatMap({ Int64($0) }) else { return true }
            let row = try row(from: columns, table: destination.table)
            if result.last?.owner == owner {
                result[result.count - 1].rows.append(row)
            } else {
                result.append((owner, [row]))
            }
            return true
        }
        return result
    }

    /// The IDs of the destinations of a to-many of each row among `keys` of `sourceEntity`,
    /// in the order of `destinationRows(of:sourceEntity:keys:)`, reading only their keys and
    /// entities. Sources without destinations are left out. One statement.
    func destinationIDs(of relationship: RelationshipDescription, sourceEntity: String, keys: [Int64]) throws
        -> [(owner: Int64, ids: [ObjectID])]
    {
        guard let destination = schema.entities[relationship.destinationEntityName] else { return [] }
        let table = destination.table
        let entityColumn = table.hasEntityColumn ? ", \"t\".\"_entity\"" : ""
        guard
            let (sql, parameters) = destinationStatement(
                of: relationship, sourceEntity: sourceEntity, keys: keys, selecting: "\"t\".\"_id\"\(entityColumn)")
        else { return [] }
        var result: [(owner: Int64, ids: [ObjectID])] = []
        try connection.forEachRow(sql, parameters) { columns in
            guard let owner = columns.last.flatMap({ $0 }).flatMap({ Int64($0) }) else { return true }
            guard let key = columns[0].flatMap({ Int64($0) }) else {
                throw PostgreSQLStoreError.corruptValue(entity: table.name, attribute: "_id")
            }
            let entity = table.hasEntityColumn ? (columns[1] ?? table.name) : table.name
            let id = ObjectID(scope: idScope(entityName: entity, rootName: table.name), key: .permanent(key))
            if result.last?.owner == owner {
                result[result.count - 1].ids.append(id)
            } else {
                result.append((owner, [id]))
            }
            return true
        }
        return result
    }

    /// The statement that reads `selecting` (columns of the destination table, aliased
    /// `t`), then the source's key, of the destinations of a to-many of each row among
    /// `keys` of `sourceEntity`, by source and in the relationship's order; nil when the
    /// relationship keeps no links this store can read.
    private func destinationStatement(
        of relationship: RelationshipDescription, sourceEntity: String, keys: [Int64], selecting: String
    ) -> (sql: String, parameters: [PGValue])? {
        guard let destination = schema.entities[relationship.destinationEntityName], !keys.isEmpty else { return nil }
        let table = destination.table
        var parameters: [PGValue] = [.integerArray(keys)]
        var sql: String
        let ownerColumn: String
        if let side = schema.joinSide(entity: sourceEntity, relationship: relationship.name) {
            ownerColumn = "\"l\".\(pgIdentifier(side.ownColumn))"
            let order = side.positionColumn.map { "\"l\".\(pgIdentifier($0)) IS NULL, \"l\".\(pgIdentifier($0)), " } ?? ""
            sql = "SELECT \(selecting), \(ownerColumn) FROM \(pgIdentifier(table.name)) AS \"t\" "
                + "JOIN \(pgIdentifier(side.table.name)) AS \"l\" ON \"l\".\(pgIdentifier(side.otherColumn)) = \"t\".\"_id\" "
                + "WHERE \(ownerColumn) = ANY($1)"
            if let filter = entityFilter(destination, includesSubentities: true, alias: "t", parameters: &parameters) {
                sql += " AND " + filter
            }
            sql += " ORDER BY \(ownerColumn), \(order)\"l\".\"_seq\""
        } else {
            guard let inverseName = relationship.inverseName,
                destination.schema.relationship(named: inverseName)?.isToMany == false
            else { return nil }
            ownerColumn = "\"t\".\(pgIdentifier(inverseName))"
            sql = "SELECT \(selecting), \(ownerColumn) FROM \(pgIdentifier(table.name)) AS \"t\" "
                + "WHERE \(ownerColumn) = ANY($1)"
            if let filter = entityFilter(destination, includesSubentities: true, alias: "t", parameters: &parameters) {
                sql += " AND " + filter
            }
            sql += " ORDER BY \(ownerColumn), \"t\".\"_id\""
        }
        return (sql, parameters)
    }
}
#endif
