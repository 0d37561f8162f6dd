import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    // MARK: - Opening

    /// Makes every search index (see ``SearchIndexMapping``) exist and match the model.
    /// Called when the store opens.
    ///
    /// An index that is missing (a store created before the index existed, or before an
    /// attribute was marked for search), incomplete (a table rebuilt without its triggers)
    /// or made for other attributes or other folding rules is dropped and rebuilt from the
    /// table's rows, in one transaction; an index no attribute needs any more is dropped.
    /// The index is derived data, so none of this is a migration and the model's version
    /// hashes do not change.
    ///
    /// A read-only store cannot rebuild: when any index is not current, searches on it
    /// scan the stored canonical columns instead (``searchIndexesAreUsable`` is false).
    ///
    /// - Throws: `SQLiteError` when the index cannot be built (a locked or full database).
    package func prepareSearchIndexes(readOnly: Bool) throws {
        // The ranked search walks the sort key's index (see RankedSearchPlanner).
        if !readOnly { try createMissingIndexes() }
        let wanted = schema.searchIndexes
        let changes = try searchIndexChanges(wanted)
        guard !changes.stale.isEmpty || !changes.obsolete.isEmpty else {
            searchIndexesAreUsable = true
            return
        }
        if readOnly {
            searchIndexesAreUsable = false
            return
        }
        try database.inTransaction(.immediate) {
            // Again under the write lock: another process may have just built them.
            let (stale, obsolete) = try searchIndexChanges(wanted)
            for table in obsolete {
                for statement in SearchIndexMapping.dropStatements(table: table) { try database.execute(statement) }
                try database.execute("DELETE FROM _metadata WHERE key = ?", [.text("searchIndex.\(table)")])
            }
            for index in stale { try createSearchIndex(index, fillingFromTable: true) }
        }
        searchIndexesAreUsable = true
    }

    /// Makes `index` anew, inside the caller's transaction: filled from its table's rows, or
    /// empty for a new store's empty table.
    func createSearchIndex(_ index: SearchIndexMapping, fillingFromTable fills: Bool) throws {
        for statement in SearchIndexMapping.dropStatements(table: index.table) { try database.execute(statement) }
        for statement in index.createStatements { try database.execute(statement) }
        if fills { try database.execute(index.rebuildStatement) }
        try setMetadata("searchIndex.\(index.table)", index.signature)
    }

    /// The indexes to (re)build, because they are missing, incomplete or recorded with
    /// another signature, and the tables whose recorded index is no longer wanted.
    private func searchIndexChanges(_ wanted: [String: SearchIndexMapping]) throws
        -> (stale: [SearchIndexMapping], obsolete: [String])
    {
        var existing: Set<String> = []
        for row in try database.query(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND name LIKE '\\_search\\_%' ESCAPE '\\'")
        {
            if let name = row.first?.textValue { existing.insert(name) }
        }
        var recorded: [String: String] = [:]
        for row in try database.query("SELECT key, value FROM _metadata WHERE key LIKE 'searchIndex.%'") {
            if let key = row[0].textValue, let value = row[1].textValue {
                recorded[String(key.dropFirst("searchIndex.".count))] = value
            }
        }
        let stale = wanted.values.filter { index in
            let parts = [index.name] + index.triggerNames + (index.contentViewName.map { [$0] } ?? [])
            return recorded[index.table] != index.signature || !parts.allSatisfy(existing.contains)
        }.sorted { $0.table < $1.table }
        let obsolete = recorded.keys.filter { wanted[$0] == nil }.sorted()
        return (stale, obsolete)
    }

    // MARK: - Checking

    /// Checks every search index against its table's rows with FTS5's `'integrity-check'`
    /// command: after any sequence of saves, rollbacks and crashes, each index must hold
    /// exactly the canonical form of each row's indexed attributes.
    ///
    /// - Throws: `SQLiteError` (SQLITE_CORRUPT_VTAB) naming the index that disagrees.
    package func checkSearchIndexes() throws {
        for index in schema.searchIndexes.values.sorted(by: { $0.table < $1.table }) {
            let name = sqlIdentifier(index.name)
            try database.execute("INSERT INTO \(name) (\(name), rank) VALUES ('integrity-check', 1)")
        }
    }
}
