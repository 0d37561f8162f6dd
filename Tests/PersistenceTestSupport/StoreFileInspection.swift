import Foundation
import Persistence
import PersistenceSQLite

// Why some tests look inside the store on purpose
// ------------------------------------------------
// Tests go through the front door: contexts, fetch requests, managed objects, the
// container, StoreArchive and the `persistence-tool` binary. A few test what the SQLite
// store promises about its file, which no public API shows: the storage class of a column
// (Decimals as text, external data references), join-table and tombstone rows, indexes
// and search-index tables a migration builds, primary-key counters, the page cache, and
// what a read finds after another writer (or a corruption) changed rows behind a
// context's back. Those tests read or change the file here, and only here, so that the
// places that know the store's layout are few and named: when the layout or the store's
// internal API changes, this file and its callers are the ones to revisit.
//
// A store file is read with a read-only connection of its own, never the context's. What a
// test asks of the store behind its own context (its checks, its connection where an
// in-memory store has no file to open twice, the store object for tests of its own API) is
// in the last section.

/// Raw SQL on a store file, with a connection of its own.
package struct StoreFileInspection {
    /// The store file.
    package let url: URL

    package init(url: URL) { self.url = url }

    /// Rows of a query, read with a separate read-only connection.
    package func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(sql, arguments)
    }

    /// The single value of a query, read with a separate read-only connection.
    package func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue {
        try rows(sql, arguments).first?.first ?? .null
    }

    /// Changes the file with a separate writable connection: another writer, a foreign
    /// tool, or damage the store must notice. Use only to set up such a case.
    package func write(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        let database = try Database(path: url.path, mode: .mustExist)
        defer { try? database.close() }
        if arguments.isEmpty { try database.execute(sql) } else { try database.execute(sql, arguments) }
    }

    /// Opens a connection of its own, writable unless `mode` says otherwise, for a test that
    /// holds it across steps: a competing reader or writer inside a transaction, plans run
    /// on it, a backup copy read; the caller closes it.
    package func connection(mode: Database.OpenMode = .mustExist) throws -> Database {
        try Database(path: url.path, mode: mode)
    }
}

extension TemporaryStore {
    /// Looks inside this store file.
    package var file: StoreFileInspection { StoreFileInspection(url: url) }

    /// Rows of a raw SQL query, read with a separate connection.
    package func rows(_ sql: String) throws -> [[SQLiteValue]] { try file.rows(sql) }
}

extension ExternalStorageFolder {
    /// Looks inside this folder's store file.
    package var file: StoreFileInspection { StoreFileInspection(url: storeURL) }

    /// Rows of a raw SQL query, read with a separate connection.
    package func rows(_ sql: String) throws -> [[SQLiteValue]] { try file.rows(sql) }

    /// The file a book's cover is stored in, read from its row.
    package func fileName(title: String) throws -> String {
        let rows = try self.rows("SELECT cover FROM Book WHERE title = '\(title)'")
        guard let text = rows.first?.first?.textValue,
            let reference = ExternalDataStore.Reference(text)
        else {
            throw StoreError.externalData(
                path: storeURL.path, reason: "no external cover for \(title)")
        }
        return reference.fileName
    }
}

// MARK: - A context's own store

/// What the tests of the store's internals ask of the store behind a context: its checks,
/// its connection (for in-memory stores, which have no file to open twice), closing it
/// before the file is copied, migrated or reopened, and its internal switches.
extension ManagedObjectContext {
    /// The store's own connection.
    package var storeConnection: Database { sqliteStore.database }

    /// Closes the store's connections: the file is whole and unlocked afterwards.
    package func closeStore() throws { try persistentStoreCoordinator.close() }

    /// FTS5's own check of every search index against its table.
    package func checkSearchIndexes() throws { try sqliteStore.checkSearchIndexes() }

    /// The external data folder compared with the rows' references.
    package func checkExternalData() throws -> ExternalDataCheck { try sqliteStore.checkExternalData() }

    /// The SQLite store itself, for the tests of its own API (row writes, transactions,
    /// the ranked-search planner, ID scopes, its search-index switch): tests of an internal
    /// on purpose, which move with the store when it becomes its own module.
    package var sqliteStore: SQLiteStore { persistentStoreCoordinator.store as! SQLiteStore }
}
