import Foundation
import Testing
@testable import Persistence

/// A save writes new rows with multi-row INSERT statements (up to 500 rows each).
@Suite struct InsertBatchTests {
    @Test func rowsOfSeveralStatementsAreAllWrittenInInsertionOrder() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        var items: [ManagedObject] = []
        for i in 0..<1050 {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "c\(i)"
            item["i64"] = Int64(i)
            items.append(item)
        }
        try context.save()
        let rows = try store.rows("SELECT _id, code, i64 FROM Item ORDER BY _id")
        #expect(rows.count == 1050)
        #expect(rows.first == [.integer(1), .text("c0"), .integer(0)])
        #expect(rows.last == [.integer(1050), .text("c1049"), .integer(1049)])
        #expect(items.map { $0.objectID.primaryKey } == (1...1050).map { Int64($0) })
    }

    /// A conflict with a stored row inside the second statement: the error names the
    /// object and value, and none of the 1,050 rows is written.
    @Test func aConflictInsideABatchNamesTheObjectAndWritesNothing() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        try context.insertObject(forEntityName: "Item")["code"] = "taken"
        try context.save()
        var culprit: ManagedObject?
        for i in 0..<1050 {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = i == 650 ? "taken" : "c\(i)"
            if i == 650 { culprit = item }
        }
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"taken\""])
        #expect(error.object == culprit?.objectID.description)
        #expect(try store.rows("SELECT count(*) FROM Item") == [[.integer(1)]])
        #expect(context.hasChanges)
    }
}
