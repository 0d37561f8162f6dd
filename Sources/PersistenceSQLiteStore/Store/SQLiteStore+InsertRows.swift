import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    /// How many rows of `mapping`'s table one INSERT statement writes (see
    /// `insertRows(_:_:)`): 4,000, or fewer for a table so wide that 4,000 rows would pass
    /// SQLite's limit of 32,766 bound parameters.
    ///
    /// Each statement ends with an FTS5 flush (one index segment to merge later), so fewer,
    /// larger statements flush less. The statement's text stays under 100 KB.
    package static func rowsPerInsert(_ mapping: EntityMapping) -> Int {
        max(1, min(4_000, 32_000 / parametersPerRow(mapping.table)))
    }

    /// Inserts several rows of one entity with one multi-row INSERT statement. Each row has
    /// a primary key and a value per column of the table, in table order, as for
    /// `insertRow(_:primaryKey:columns:)`; pass at most `rowsPerInsert(mapping)` rows.
    ///
    /// Why not a statement per row: inside a transaction, an INSERT that fires a trigger
    /// and may abort (a table with a search index and a UNIQUE index) runs under a
    /// statement savepoint, and FTS5 writes its pending terms to disk at every savepoint,
    /// so a statement per row wrote one index segment per row and then merged them: most
    /// of the cost of a large insert. One statement per `rowsPerInsert` rows writes one segment per statement.
    ///
    /// With `onConflict: .update`, a row whose unique values are already stored updates
    /// that row's columns instead (an upsert, as a batch insert under object-trump merging
    /// writes): the stored row keeps its primary key, so links to it stay, and the search
    /// index follows through its update trigger. With `.skip`, such a row is left unwritten
    /// and the stored one untouched (`ON CONFLICT DO NOTHING`, as a batch insert under
    /// store-trump merging writes).
    ///
    /// With `returningKeys` (for the persistent history, under `.update` or `.skip`), the
    /// keys of the rows the statement wrote are returned: a new row's own key, or the key of
    /// a stored row an upsert updated; a skipped row returns none.
    ///
    /// - Throws: `SQLiteError` (a UNIQUE constraint failure has extended code
    ///   SQLITE_CONSTRAINT_UNIQUE); the statement's rows are then all left unwritten.
    @discardableResult
    package func insertRows(
        _ mapping: EntityMapping, _ rows: [(primaryKey: Int64, columns: [SQLiteValue])],
        onConflict: InsertConflictAction = .fail, returningKeys: Bool = false
    ) throws -> [Int64] {
        guard rows.count > 1 || onConflict != .fail else {
            if let row = rows.first { try insertRow(mapping, primaryKey: row.primaryKey, columns: row.columns) }
            return returningKeys ? rows.map(\.primaryKey) : []
        }
        let table = mapping.table
        var names = ["\"_id\""]
        if table.hasEntityColumn { names.append("\"_entity\"") }
        names += table.columns.map { sqlIdentifier($0.name) }
        let group = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        var sql = "INSERT INTO \(sqlIdentifier(table.name)) (\(names.joined(separator: ", "))) VALUES "
            + Array(repeating: group, count: rows.count).joined(separator: ", ")
        // Without a conflict target the clause covers every UNIQUE index of the table
        // (SQLite 3.35+); the primary key cannot conflict, since keys are allocated fresh.
        switch onConflict {
        case .fail:
            break
        case .update:
            // The row taken over is written: its version is bumped.
            let assignments = names.dropFirst().map { "\($0) = excluded.\($0)" } + [Self.versionBump]
            sql += " ON CONFLICT DO UPDATE SET " + assignments.joined(separator: ", ")
        case .skip:
            sql += " ON CONFLICT DO NOTHING"
        }
        if returningKeys { sql += " RETURNING \"_id\"" }
        // Only a full statement is kept in the cache: one cached per row count (a save's last
        // statement has any count) would keep thousands of large programs alive.
        let statement = try rows.count == Self.rowsPerInsert(mapping) ? database.cachedStatement(sql) : database.prepare(sql)
        var index: Int32 = 1
        for row in rows {
            try bindInsertedRow(mapping, primaryKey: row.primaryKey, columns: row.columns, to: statement, at: &index)
        }
        guard returningKeys else {
            _ = try statement.step()
            return []
        }
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(at: 0)) }
        return keys
    }

    private static func parametersPerRow(_ table: TableMapping) -> Int {
        1 + (table.hasEntityColumn ? 1 : 0) + table.columns.count
    }
}
