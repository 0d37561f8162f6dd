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
        try forEachRow(sql, arguments, table: table) { row in
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
    /// may read the store meanwhile, even with the same SQL.
    ///
    /// - Throws: as `decodedRow(_:_:)`; `SQLiteError` when the statement fails.
    func forEachRow(
        _ sql: String, _ arguments: [SQLiteValue], table: CoreDataLayout.Table, _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        let statement = try database.prepare(sql)
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
            var rows: [StoreRow] = []
            try forEachRow(sql, [.integer(key)], table: table) { row in
                rows.append(row)
                return true
            }
            return rows
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
