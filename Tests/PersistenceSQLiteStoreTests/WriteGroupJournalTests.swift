import Foundation
import Testing

@testable import Persistence
import PersistenceSQLite
@testable import PersistenceSQLiteStore

/// A write group's statement journals (one per save, each a savepoint of the group's
/// transaction) go to a temporary file, not the heap, and the connection's in-memory
/// temporary storage comes back after the group, whether it commits or throws.
@Suite struct WriteGroupJournalTests {
    /// SQLite's `temp_store`: 1 is FILE, 2 is MEMORY.
    private func tempStore(_ store: SQLiteStore) throws -> SQLiteValue? {
        try store.database.query("PRAGMA temp_store").first?.first
    }

    private func store() throws -> SQLiteStore {
        try PersistentContainer(model: RankedSearchTests.model(), storeURL: nil).viewContext.sqliteStore
    }

    @Test func aWriteGroupKeepsItsStatementJournalsInAFileAndPutsMemoryBack() throws {
        let store = try store()
        #expect(try tempStore(store) == .integer(2))
        let (outer, inner, afterInner) = try store.performWriteGroup {
            let outer = try tempStore(store)
            let inner = try store.performWriteGroup { try tempStore(store) }
            return (outer, inner, try tempStore(store))
        }
        #expect(outer == .integer(1))
        #expect(inner == .integer(1), "a group inside a group keeps the outer's setting")
        #expect(afterInner == .integer(1))
        #expect(try tempStore(store) == .integer(2))
    }

    @Test func aWriteGroupThatThrowsStillPutsMemoryBack() throws {
        struct Stop: Error {}
        let store = try store()
        #expect(throws: Stop.self) { try store.performWriteGroup { throw Stop() } }
        #expect(try tempStore(store) == .integer(2))
    }
}
