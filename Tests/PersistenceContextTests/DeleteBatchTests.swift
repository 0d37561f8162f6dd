import Foundation
import PersistenceTestSupport
import Testing
import Persistence

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
}
