import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Row versions for optimistic locking (Core Data's `Z_OPT`): each table of rows has an
/// `_opt` column, 1 for a new row and one more at each write of it (an update, or an insert
/// that takes a stored row over), so that a save can tell which rows another context or
/// process wrote since its objects read them.
extension SQLiteStore {
    // MARK: - Reading versions

    /// The current version of each row among `keys` of `table` (a key without a row is left
    /// out), read a `KeyList` chunk per statement. Call inside the write transaction that
    /// acts on them, so that nothing changes in between.
    package func currentVersions(table: String, keys: [Int64]) throws -> [Int64: Int64] {
        var versions: [Int64: Int64] = [:]
        versions.reserveCapacity(keys.count)
        let version = hasVersionColumns ? "\"_opt\"" : "1"
        for chunk in KeyList.chunks(of: keys) {
            let statement = try database.cachedStatement(
                "SELECT \"_id\", \(version) FROM \(sqlIdentifier(table)) WHERE \"_id\" IN (\(chunk.marks))")
            defer { statement.reset() }
            try statement.bind(chunk.arguments)
            while try statement.step() { versions[statement.int64(at: 0)] = statement.int64(at: 1) }
        }
        return versions
    }

    /// The SQL that reads the version of a row of `table` in a SELECT list: its `_opt`
    /// column, or 1 in a read-only store written before the column existed.
    func versionColumnSQL(_ table: TableMapping) -> String {
        hasVersionColumns ? "\(sqlIdentifier(table.name)).\"_opt\"" : "1"
    }

    // MARK: - Upgrading

    /// Gives every table of rows that lacks it the version column, every row at version 1,
    /// in one transaction (`ALTER TABLE … ADD COLUMN` rewrites nothing: SQLite reads the
    /// default for rows written before). A read-only store is left as it is and read with
    /// every row at version 1.
    func prepareVersionColumns(readOnly: Bool) throws {
        guard try !tablesWithoutVersions().isEmpty else { return }
        if readOnly {
            hasVersionColumns = false
            return
        }
        try database.inTransaction(.immediate) {
            // Asked again under the write lock: another process may have just added them.
            for table in try tablesWithoutVersions() {
                try database.execute(
                    "ALTER TABLE \(sqlIdentifier(table)) ADD COLUMN \(StoreSchema.versionColumnDefinition)")
            }
        }
    }

    /// The tables of rows that have no version column yet.
    private func tablesWithoutVersions() throws -> [String] {
        try schema.tables.keys.sorted().filter { table in
            let columns = try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
            return !columns.contains { $0.first?.textValue == "_opt" }
        }
    }
}
