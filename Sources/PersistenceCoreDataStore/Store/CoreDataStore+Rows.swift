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
        var rows: [StoreRow] = []
        try forEachRow(sql, arguments, table: table, cached: true) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// The row of `table` under `key`, or nil.
    func row(_ table: CoreDataLayout.Table, key: Int64) throws -> StoreRow? {
        try rows(table, where: "Z_PK = ?", [.integer(key)]).first
    }

    /// Runs `sql` (whose columns are a table's select list, `selectList`) and calls `body`
    /// with each row decoded, as it is stepped to, until `body` returns false: memory holds
    /// one row at a time. The statement is the read's own (not a cached one), so that `body`
    /// may read the store meanwhile, even with the same SQL; `cached` reuses the
    /// connection's statement for `sql` instead, for a caller whose `body` reads nothing
    /// (one that collects the rows), which saves preparing it on every call.
    ///
    /// - Throws: as `decodedRow(_:_:)`; `SQLiteError` when the statement fails.
    func forEachRow(
        _ sql: String, _ arguments: [SQLiteValue], table: CoreDataLayout.Table, cached: Bool = false,
        _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        let statement = cached ? try database.cachedStatement(sql) : try database.prepare(sql)
        defer { if cached { statement.reset() } }
        try statement.bind(arguments)
        while try statement.step() {
            if try !body(decodedRow(statement, table)) { return }
        }
    }

    /// The statement's current row (a table's select list) as the slots of its entity, read
    /// by the entity's `CoreDataRowDecodePlan`.
    ///
    /// - Throws: `CoreDataStoreError` for a `Z_ENT` that names no entity of the table's
    ///   hierarchy; `StoreError.corruptValue` for a value of the wrong type.
    func decodedRow(_ statement: Statement, _ table: CoreDataLayout.Table) throws -> StoreRow {
        let keyCell = statement.column(at: 0)
        let key = keyCell.storageClass == .integer ? keyCell.int64 : 0
        let numberCell = statement.column(at: 1)
        let number = numberCell.storageClass == .integer ? numberCell.int64 : 0
        if let plan = decodePlans[number], plan.schema.rootName == table.rootName {
            return try plan.row(of: statement, key: key, store: self)
        }
        guard let name = layout.entityNames[number], let entity = layout.entities[name], entity.schema.rootName == table.rootName
        else {
            throw CoreDataStoreError(
                path: path, "row \(key) of \(table.name) has Z_ENT \(number), which names no entity of \(table.rootName)'s hierarchy")
        }
        let plan = CoreDataRowDecodePlan(entity: entity.schema, table: table, store: self)
        decodePlans[number] = plan
        return try plan.row(of: statement, key: key, store: self)
    }

    /// The rows of the destinations of `relationship` (a to-many) from the row `key` of
    /// `entity`: through its join table, else through the inverse to-one's column, in the
    /// relationship's order (key order for an unordered one).
    func destinationRows(of relationship: RelationshipDescription, entity: String, key: Int64) throws -> [StoreRow] {
        guard let (sql, table) = destinationQuery(of: relationship, entity: entity, columns: { selectedColumns($0) }) else {
            return []
        }
        var rows: [StoreRow] = []
        try forEachRow(sql, [.integer(key)], table: table, cached: true) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// The IDs of the destinations of `relationship` (a to-many) from the row `key` of
    /// `entity`, in the order of `destinationRows`, read from their keys and entity numbers
    /// alone.
    func destinationKeys(of relationship: RelationshipDescription, entity: String, key: Int64) throws -> [ObjectID] {
        try destinationKeys(of: relationship, entity: entity, keys: [key])[key] ?? []
    }

    /// The IDs of the destinations of `relationship` (a to-many) from each row among `keys`
    /// of `entity`, by source key, each in the order of `destinationRows`: one statement per
    /// 512 sources (padded to a power of two, so that few statement texts are cached).
    /// Sources without destinations are left out.
    func destinationKeys(of relationship: RelationshipDescription, entity: String, keys: [Int64]) throws
        -> [Int64: [ObjectID]]
    {
        var result: [Int64: [ObjectID]] = [:]
        var start = 0
        while start < keys.count {
            let chunk = Array(keys[start..<min(keys.count, start + 512)])
            start += chunk.count
            var width = 1
            while width < chunk.count { width *= 2 }
            guard
                let (sql, table) = destinationQuery(
                    of: relationship, entity: entity, columns: { _ in ["Z_PK", "Z_ENT"] }, sourceCount: width)
            else { return [:] }
            let statement = try database.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind((chunk + Array(repeating: chunk[0], count: width - chunk.count)).map { .integer($0) })
            while try statement.step() {
                let number = statement.int64(at: 2)
                guard let name = layout.entityNames[number], layout.entities[name]?.schema.rootName == table.rootName else {
                    throw CoreDataStoreError(
                        path: path,
                        "row \(statement.int64(at: 1)) of \(table.name) has Z_ENT \(number), which names no entity of \(table.rootName)'s hierarchy")
                }
                result[statement.int64(at: 0), default: []].append(
                    ObjectID(scope: idScope(entityName: name, rootName: table.rootName), key: .permanent(statement.int64(at: 1))))
            }
        }
        return result
    }

    /// The statement reading `columns` (of the destination's table, named unqualified) of
    /// the destinations of `relationship` from one row of `entity`, whose key is its one
    /// argument, in the relationship's order; and the destination's table. Nil when the
    /// relationship has no destinations to read. With a `sourceCount`, from that many rows
    /// (its arguments), the source's key selected first and the rows ordered by it first.
    private func destinationQuery(
        of relationship: RelationshipDescription, entity: String, columns: (CoreDataLayout.Table) -> [String],
        sourceCount: Int? = nil
    ) -> (sql: String, table: CoreDataLayout.Table)? {
        guard let destination = layout.entities[relationship.destinationEntityName],
            let table = layout.tables[destination.schema.rootName]
        else { return nil }
        let numbers = destination.schema.ancestors.isEmpty ? nil : destination.hierarchyNumbers
        var selected = columns(table).map { "t.\(quoted($0))" }.joined(separator: ", ")
        var conditions: [String] = []
        let from: String
        var order: String
        let owner: String
        if let side = layout.joinSide(entity: entity, relationship: relationship.name) {
            from = "\(quoted(side.table)) AS j JOIN \(quoted(table.name)) AS t ON t.Z_PK = j.\(quoted(side.otherColumn))"
            owner = "j.\(quoted(side.ownColumn))"
            order = side.orderColumn.map { "j.\(quoted($0)), j.rowid" } ?? "j.rowid"
        } else if let kept = layout.inverseColumn(entity: entity, relationship: relationship.name) {
            from = "\(quoted(table.name)) AS t"
            owner = "t.\(quoted(kept.column))"
            order = "t.Z_PK"
        } else if let inverseName = relationship.inverseName, let index = table.index(of: inverseName, in: destination.schema.name) {
            from = "\(quoted(table.name)) AS t"
            owner = "t.\(quoted(table.columns[index].name))"
            order = table.orderColumns[inverseName].map { "t.\(quoted($0)), t.Z_PK" } ?? "t.Z_PK"
        } else {
            return nil
        }
        if let sourceCount {
            conditions.append("\(owner) IN (\(Array(repeating: "?", count: sourceCount).joined(separator: ", ")))")
            selected = "\(owner), " + selected
            order = "\(owner), " + order
        } else {
            conditions.append("\(owner) = ?")
        }
        if let numbers { conditions.append("t.Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))") }
        return ("SELECT \(selected) FROM \(from) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)", table)
    }
}

/// An SQL identifier in double quotes.
func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
