import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    /// How many rows one multi-row UPDATE of `columnCount` columns writes (see
    /// `updateRows(_:columns:rows:)`): 500, or fewer when 500 would pass SQLite's limit of
    /// 32,766 bound parameters.
    package static func rowsPerUpdate(columnCount: Int) -> Int {
        max(1, min(500, 32_000 / (columnCount + 1)))
    }

    /// Updates the same columns (by index into the table's columns) of several rows, and bumps
    /// their versions, with one statement, `UPDATE … FROM (VALUES …)`; each row gives its primary key and a value per
    /// column. Pass at most `rowsPerUpdate(columnCount:)` rows.
    ///
    /// One statement for many rows matters for the same reason as in `insertRows(_:_:)`:
    /// FTS5 writes its pending index terms at every statement savepoint, and an UPDATE that
    /// fires the search index's trigger runs under one.
    ///
    /// - Throws: `SQLiteError` (a UNIQUE constraint failure has extended code
    ///   SQLITE_CONSTRAINT_UNIQUE); the statement's rows are then all left as they were.
    package func updateRows(_ mapping: EntityMapping, columns: [Int], rows: [(primaryKey: Int64, values: [SQLiteValue])]) throws {
        guard !rows.isEmpty else { return }
        guard rows.count > 1 else {
            try updateRow(mapping, primaryKey: rows[0].primaryKey, columns: columns, values: rows[0].values)
            return
        }
        let table = mapping.table
        let t = sqlIdentifier(table.name)
        // A VALUES list's columns are named column1, column2, …: the key, then the values.
        // Each row's version is bumped too; with no columns, only the version is.
        let assignments = columns.enumerated().map { offset, column in
            "\(sqlIdentifier(table.columns[column].name)) = \"_new\".\"column\(offset + 2)\""
        } + [Self.versionBump]
        let group = "(" + Array(repeating: "?", count: columns.count + 1).joined(separator: ", ") + ")"
        let sql = "UPDATE \(t) SET \(assignments.joined(separator: ", ")) FROM (VALUES "
            + Array(repeating: group, count: rows.count).joined(separator: ", ")
            + ") AS \"_new\" WHERE \(t).\"_id\" = \"_new\".\"column1\""
        let statement = try database.cachedStatement(sql)
        var index: Int32 = 1
        for row in rows {
            // As `updateRow`: external values are written, and replaced ones removed on commit.
            let values = try externalizing(row.values, columns: columns, mapping: mapping, replacingRow: row.primaryKey)
            try statement.bind(row.primaryKey, at: index)
            index += 1
            for value in values {
                try statement.bind(value, at: index)
                index += 1
            }
        }
        _ = try statement.step()
    }
}
