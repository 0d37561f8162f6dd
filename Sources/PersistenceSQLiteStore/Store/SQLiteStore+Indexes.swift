import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
extension SQLiteStore {
    /// Creates the model's plain (non-unique) indexes that the store lacks: a store made
    /// before an attribute was marked `indexed` or a fetch index was added gets them on its
    /// next writable open, as new stores have them from the start. Called when the store
    /// opens, with ``prepareSearchIndexes(readOnly:)``.
    ///
    /// An index is derived data, like the search index: the model's version hashes do not
    /// cover it, so none of this is a migration. UNIQUE indexes are left alone: making one
    /// over existing rows could fail, and a store always has those from its creation or
    /// migration.
    ///
    /// - Throws: `SQLiteError` when an index cannot be made (a locked or full database).
    package func createMissingIndexes() throws {
        let prefix = "CREATE INDEX "
        // Join tables' statements ("CREATE INDEX IF NOT EXISTS …") are
        // `createMissingJoinTables`' business, with their tables.
        let wanted = schema.createStatements.filter { $0.hasPrefix(prefix) && !$0.hasPrefix(prefix + "IF NOT EXISTS ") }
        guard !wanted.isEmpty else { return }
        var existing: Set<String> = []
        for row in try database.query("SELECT name FROM sqlite_master WHERE type = 'index'") {
            if let name = row.first?.textValue { existing.insert(sqlIdentifier(name)) }
        }
        // "CREATE INDEX <quoted name> ON …": the name is the quoted identifier after the prefix.
        let missing = wanted.filter { statement in
            let rest = statement.dropFirst(prefix.count)
            guard let end = rest.range(of: " ON ") else { return false }
            return !existing.contains(String(rest[..<end.lowerBound]))
        }
        guard !missing.isEmpty else { return }
        try database.inTransaction(.immediate) {
            for statement in missing {
                try database.execute("CREATE INDEX IF NOT EXISTS " + statement.dropFirst(prefix.count))
            }
        }
    }
}
