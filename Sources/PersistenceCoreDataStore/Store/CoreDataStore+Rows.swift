import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Reading rows of Core Data's tables as `StoreRow`s.
extension CoreDataStore {
    /// The SELECT list of a table: `Z_PK`, `Z_ENT`, `Z_OPT`, then each column (a to-one's
    /// key, then its entity column when it has one), in `Table.columns` order.
    func selectList(_ table: CoreDataLayout.Table) -> String {
        selectedColumns(table).map(quoted).joined(separator: ", ")
    }

    /// The names `selectList` lists, in its order, unquoted.
    func selectedColumns(_ table: CoreDataLayout.Table) -> [String] {
        var names = ["Z_PK", "Z_ENT", "Z_OPT"]
        for column in table.columns {
            names.append(column.name)
            if case .toOne(_, let entityColumn?) = column.kind { names.append(entityColumn) }
        }
        return names
    }

    /// The rows of `table` matching `condition`, in `ordering` (key order by default).
    func rows(
        _ table: CoreDataLayout.Table, where condition: String? = nil, _ arguments: [SQLiteValue] = [],
        entityNumbers: [Int64]? = nil, ordering: String = "Z_PK"
    ) throws -> [StoreRow] {
        var conditions: [String] = condition.map { [$0] } ?? []
        if let entityNumbers { conditions.append("Z_ENT IN (\(entityNumbers.map(String.init).joined(separator: ", ")))") }
        let sql =
            "SELECT \(selectList(table)) FROM \(quoted(table.name))"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " ORDER BY \(ordering)"
        return try database.query(sql, arguments).map { try decode($0, table) }
    }

    /// The row of `table` under `key`, or nil.
    func row(_ table: CoreDataLayout.Table, key: Int64) throws -> StoreRow? {
        try rows(table, where: "Z_PK = ?", [.integer(key)]).first
    }

    /// A row's values as the slots of its entity.
    ///
    /// - Throws: `CoreDataStoreError` for a `Z_ENT` that names no entity of the table's
    ///   hierarchy; `StoreError.corruptValue` for a value of the wrong type.
    func decode(_ values: [SQLiteValue], _ table: CoreDataLayout.Table) throws -> StoreRow {
        let key = values[0].int64Value ?? 0
        let number = values[1].int64Value ?? 0
        guard let name = layout.entityNames[number], let entity = layout.entities[name], entity.schema.rootName == table.rootName
        else {
            throw CoreDataStoreError(
                path: path, "row \(key) of \(table.name) has Z_ENT \(number), which names no entity of \(table.rootName)'s hierarchy")
        }
        let schema = entity.schema
        // Offsets of each column's values in `values`.
        var offsets: [Int] = []
        var offset = 3
        for column in table.columns {
            offsets.append(offset)
            if case .toOne(_, let entityColumn) = column.kind, entityColumn != nil { offset += 2 } else { offset += 1 }
        }
        var slots: [StoredSlot] = []
        slots.reserveCapacity(schema.properties.count)
        for property in schema.properties {
            switch property {
            case .attribute(let attribute):
                guard attribute.isStored, let index = table.index(of: attribute.name, in: schema.name) else {
                    slots.append(.value(attribute.isTransient ? (attribute.defaultValue ?? .null) : .null))
                    continue
                }
                slots.append(
                    .value(
                        try CoreDataValueCodec.decode(
                            values[offsets[index]], for: attribute, entity: schema.name, object: "\(schema.name)/p\(key)",
                            externalFolder: externalFolder, decodesArchives: !passesArchivesThrough, path: path)))
            case .relationship(let relationship):
                if relationship.isToMany {
                    slots.append(.toManyFault)
                    continue
                }
                guard let index = table.index(of: relationship.name, in: schema.name), case .toOne(_, let entityColumn) = table.columns[index].kind,
                    let destinationKey = values[offsets[index]].int64Value,
                    let destination = layout.entities[relationship.destinationEntityName]
                else {
                    slots.append(.toOneFault(nil))
                    continue
                }
                var destinationName = destination.schema.name
                if entityColumn != nil, let number = values[offsets[index] + 1].int64Value, let named = layout.entityNames[number],
                    layout.entities[named]?.schema.rootName == destination.schema.rootName
                {
                    destinationName = named
                }
                let scope = idScope(entityName: destinationName, rootName: destination.schema.rootName)
                slots.append(.toOneFault(ObjectID(scope: scope, key: .permanent(destinationKey))))
            }
        }
        return StoreRow(
            schema: schema, primaryKey: key, idScope: idScope(entityName: schema.name, rootName: schema.rootName),
            slots: StoredSlots(slots, storingNullsAt: schema.transientAttributePositions), version: values[2].int64Value ?? 1)
    }

    /// The rows of the destinations of `relationship` (a to-many) from the row `key` of
    /// `entity`: through its join table, else through the inverse to-one's column, in the
    /// relationship's order (key order for an unordered one).
    func destinationRows(of relationship: RelationshipDescription, entity: String, key: Int64) throws -> [StoreRow] {
        guard let destination = layout.entities[relationship.destinationEntityName],
            let table = layout.tables[destination.schema.rootName]
        else { return [] }
        let numbers = destination.schema.ancestors.isEmpty ? nil : destination.hierarchyNumbers
        if let side = layout.joinSide(entity: entity, relationship: relationship.name) {
            let order = side.orderColumn.map { "j.\(quoted($0)), j.rowid" } ?? "j.rowid"
            var conditions = ["j.\(quoted(side.ownColumn)) = ?"]
            if let numbers { conditions.append("t.Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))") }
            let columns = selectList(table).split(separator: ", ").map { "t.\($0)" }.joined(separator: ", ")
            let sql =
                "SELECT \(columns) FROM \(quoted(side.table)) AS j JOIN \(quoted(table.name)) AS t "
                + "ON t.Z_PK = j.\(quoted(side.otherColumn)) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)"
            return try database.query(sql, [.integer(key)]).map { try decode($0, table) }
        }
        if let kept = layout.inverseColumn(entity: entity, relationship: relationship.name) {
            return try rows(table, where: "\(quoted(kept.column)) = ?", [.integer(key)], entityNumbers: numbers)
        }
        guard let inverseName = relationship.inverseName, let index = table.index(of: inverseName, in: destination.schema.name) else {
            return []
        }
        let column = table.columns[index].name
        let ordering = table.orderColumns[inverseName].map { "\(quoted($0)), Z_PK" } ?? "Z_PK"
        return try rows(table, where: "\(quoted(column)) = ?", [.integer(key)], entityNumbers: numbers, ordering: ordering)
    }
}

/// An SQL identifier in double quotes.
func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
