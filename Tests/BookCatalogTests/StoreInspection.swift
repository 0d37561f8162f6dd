import Foundation
import Persistence
import PersistenceSQLite
import PersistenceSQLiteStore

// Why these tests look inside the store on purpose
// ------------------------------------------------
// The catalogue's tests go through `Catalog` and the library's public API. Two things
// they check have no public face: the connection setting an unlimited search switches
// while it streams (SQLite's `temp_store`: the rank sort spills to a file, not memory),
// and the record in the store's metadata that the sample books were seeded (read back,
// and removed to make a store look as the previous release wrote it). Every such look
// goes through here, so that the places that know the store's internals are few and named.

extension ManagedObjectContext {
    /// The SQLite store behind the context.
    private var store: SQLiteStore { persistentStoreCoordinator.store as! SQLiteStore }

    /// SQLite's `temp_store` setting of the connection this thread reads through (a
    /// streaming search's own while it streams): 1 for a file, 2 for memory.
    func storeTemporaryStorage() throws -> Int64? {
        try persistentStoreCoordinator.read { try ($0 as! SQLiteStore).database.scalar("PRAGMA temp_store").int64Value }
    }

    /// A value the app recorded in the store's metadata, or nil.
    func applicationMetadata(forKey key: String) throws -> String? {
        try persistentStoreCoordinator.metadataValue(forKey: key)
    }

    /// Removes a value the app recorded in the store's metadata, as a store written before
    /// the app recorded it looks.
    func removeApplicationMetadata(forKey key: String) throws {
        try store.database.execute("DELETE FROM _metadata WHERE key = ?", [.text("app." + key)])
    }
}
