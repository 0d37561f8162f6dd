import Foundation
import PersistenceTestSupport
import Testing
import Persistence
import PersistenceSQLite

/// A save deletes rows with multi-row `DELETE … WHERE "_id" IN (…)` statements.
@Suite struct DeleteBatchTests {
    /// Saved objects, two thirds of them deleted in one save: more than one statement's
    /// worth (the last one padded), in no particular order. Exactly the kept rows remain.
    @Test func deletingManyObjectsRemovesExactlyTheirRows() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let count = SQLiteStore.rowsPerDelete * 2 + 101
        var items: [ManagedObject] = []
        for i in 0..<count {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "c\(i)"
            items.append(item)
        }
        try context.save()
        for (i, item) in items.enumerated().reversed() where i % 3 != 0 { context.delete(item) }
        #expect(context.deletedObjects.count > SQLiteStore.rowsPerDelete)
        try context.save()
        let rows = try store.strings(["code"], of: "Item", everyTypeModel())
        let kept = stride(from: 0, to: count, by: 3).map { ["c\($0)"] as [String?] }
        #expect(rows.count == kept.count)
        #expect(Set(rows) == Set(kept))
        #expect(!context.hasChanges)
        #expect(items.enumerated().allSatisfy { $0.offset % 3 == 0 || $0.element.managedObjectContext == nil })
    }

    /// A save deleting many objects in a store that keeps history and tombstones reads the
    /// rows' previous values and writes the tombstones many per statement, not a statement
    /// (or two) an object, and records exactly what deleting them one at a time records:
    /// each delete's tombstone and every previous value, over more than one statement's keys.
    @Test func deletingManyObjectsRecordsTheirHistoryAndTombstonesInFewStatements() throws {
        let container = try PersistentContainer(
            model: PersistentHistoryTests.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        let shelf = try context.insertObject(forEntityName: "Shelf")
        shelf["name"] = "Fiction"
        let count = 1_300
        var books: [ManagedObject] = []
        for i in 0..<count {
            let book = try PersistentHistoryTests.insertBook("isbn-\(i)", title: "Title \(i)", in: context)
            // Every third book has no pages: its tombstone leaves the key out.
            if i % 3 != 0 { book["pages"] = Int64(i) }
            if i % 2 == 0 { try book.setValue(shelf, forKey: "shelf") }
            books.append(book)
        }
        try context.save()
        let store = try #require(try container.persistentStoreCoordinator.read { $0 as? SQLiteStore })
        let deleted = books.enumerated().filter { $0.offset % 13 != 0 }.map(\.element)
        let ids = deleted.map(\.objectID)
        for book in deleted.reversed() { context.delete(book) }
        let (_, statements) = try store.database.countingStatements { try context.save() }
        // One a book would be 1,200 reads of previous values and 1,200 tombstone inserts.
        #expect(statements > 0 && statements < 100, "\(statements) statements")

        let history = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        // The shelf's change (it lost books) is beside them.
        let changes = try #require(history.last).changes.filter { $0.changedObjectID.entityName == "Book" }
        #expect(changes.count == deleted.count)
        let byID = Dictionary(uniqueKeysWithValues: changes.map { ($0.changedObjectID, $0) })
        for (id, i) in zip(ids, (0..<count).filter { $0 % 13 != 0 }) {
            let change = try #require(byID[id])
            #expect(change.changeType == .delete)
            #expect(change.previousValues?["title"] == .attribute(.string("Title \(i)")))
            #expect(change.previousValues?["pages"] == .attribute(i % 3 == 0 ? .null : .integer(Int64(i))))
            #expect(change.previousValues?["shelf"] == .object(i % 2 == 0 ? shelf.objectID : nil))
            var tombstone: [String: AttributeValue] = ["isbn": .string("isbn-\(i)")]
            if i % 3 != 0 { tombstone["pages"] = .integer(Int64(i)) }
            #expect(change.tombstone == tombstone)
        }
        let kept = try context.fetch(FetchRequest(entityName: "Book"))
        #expect(kept.count == count - deleted.count)
    }
}
