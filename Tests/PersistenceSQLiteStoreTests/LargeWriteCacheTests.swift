import Foundation
import Testing

@testable import Persistence
import PersistenceSQLite
@testable import PersistenceSQLiteStore

/// A large save's page cache: raised only for enough rows, only upwards, and put back.
@Suite struct LargeWriteCacheTests {
    private func cacheSize(_ store: SQLiteStore) throws -> SQLiteValue? {
        try store.database.query("PRAGMA cache_size").first?.first
    }

    private func store() throws -> SQLiteStore {
        try PersistentContainer(model: RankedSearchTests.model(), storeURL: nil).viewContext.sqliteStore
    }

    @Test func aSmallSaveLeavesTheCacheAlone() throws {
        let store = try store()
        let before = try cacheSize(store)
        let saved = try store.raisePageCache(forRows: SQLiteStore.largeWriteRowThreshold - 1)
        #expect(saved.cacheSize == nil)
        #expect(try cacheSize(store) == before)
    }

    @Test func aLargeSaveRaisesTheCacheAndPutsItBack() throws {
        let store = try store()
        try store.database.execute("PRAGMA cache_size = -2000")
        let saved = try store.raisePageCache(forRows: SQLiteStore.largeWriteRowThreshold)
        #expect(try cacheSize(store) == .integer(-SQLiteStore.largeWriteCacheKiB))
        store.restorePageCache(saved)
        #expect(try cacheSize(store) == .integer(-2000))
    }

    @Test func aLargerCacheIsNeverLowered() throws {
        let store = try store()
        try store.database.execute("PRAGMA cache_size = -200000")
        let saved = try store.raisePageCache(forRows: 1_000_000)
        #expect(saved.cacheSize == nil)
        store.restorePageCache(saved)
        #expect(try cacheSize(store) == .integer(-200_000))
    }
}
