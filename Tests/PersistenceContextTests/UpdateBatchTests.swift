import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// A save writes changed rows with multi-row `UPDATE … FROM (VALUES …)` statements.
@Suite struct UpdateBatchTests {
    private func savedItems(_ count: Int, in store: TemporaryStore) throws -> (ManagedObjectContext, [ManagedObject]) {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        var items: [ManagedObject] = []
        for i in 0..<count {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "c\(i)"
            item["str"] = "old"
            items.append(item)
        }
        try context.save()
        return (context, items)
    }

    /// 1,050 changed objects: most change two columns, every seventh only one, so that the
    /// rows go out in several statements of different shapes.
    @Test func changedColumnsOfManyRowsAreAllWritten() throws {
        let store = TemporaryStore()
        let (context, items) = try savedItems(1050, in: store)
        for (i, item) in items.enumerated() {
            item["str"] = "new \(i)"
            if i % 7 != 0 { item["code"] = "d\(i)" }
        }
        try context.save()
        let rows = try store.strings(["code", "str"], of: "Item", everyTypeModel())
        #expect(rows.count == 1050)
        let expected = (0..<1050).map { i -> [String?] in [i % 7 == 0 ? "c\(i)" : "d\(i)", "new \(i)"] }
        #expect(Set(rows) == Set(expected))
        #expect(!context.hasChanges)
    }

    @Test func aConflictInsideAnUpdateBatchNamesTheObjectAndWritesNothing() throws {
        let store = TemporaryStore()
        let (context, items) = try savedItems(650, in: store)
        for (i, item) in items.enumerated() where i >= 10 { item["code"] = "d\(i)" }
        // Item 620 takes the code item 3 keeps in the store.
        items[620]["code"] = "c3"
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.values == ["\"c3\""])
        #expect(error.object == items[620].objectID.description)
        #expect(try store.count("Item", everyTypeModel(), where: "code BEGINSWITH 'd'") == 0)
        #expect(context.hasChanges)
    }
}
