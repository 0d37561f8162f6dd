import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// A save writes new rows with multi-row INSERT statements (up to
/// `SQLiteStore.rowsPerInsert` rows each).
@Suite struct MultiRowInsertTests {
    /// How many rows of `Item` one statement writes.
    private func rowsPerStatement(_ context: ManagedObjectContext) throws -> Int {
        SQLiteStore.rowsPerInsert(try #require(context.sqliteStore.schema.entities["Item"]))
    }

    @Test func rowsOfSeveralStatementsAreAllWrittenInInsertionOrder() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let count = 2 * (try rowsPerStatement(context)) + 50
        var items: [ManagedObject] = []
        for i in 0..<count {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "c\(i)"
            item["i64"] = Int64(i)
            items.append(item)
        }
        try context.save()
        let rows = try store.rows("SELECT _id, code, i64 FROM Item ORDER BY _id")
        #expect(rows.count == count)
        #expect(rows.first == [.integer(1), .text("c0"), .integer(0)])
        #expect(rows.last == [.integer(Int64(count)), .text("c\(count - 1)"), .integer(Int64(count - 1))])
        #expect(items.map { $0.objectID.primaryKey } == (1...count).map { Int64($0) })
    }

    /// A conflict with a stored row inside the second statement: the error names the
    /// object and value, and none of the rows is written.
    @Test func aConflictInsideABatchNamesTheObjectAndWritesNothing() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        try context.insertObject(forEntityName: "Item")["code"] = "taken"
        try context.save()
        let perStatement = try rowsPerStatement(context)
        let culpritIndex = perStatement + 150
        var culprit: ManagedObject?
        for i in 0..<(perStatement + 550) {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = i == culpritIndex ? "taken" : "c\(i)"
            if i == culpritIndex { culprit = item }
        }
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"taken\""])
        #expect(error.object == culprit?.objectID.description)
        #expect(try store.count("Item", everyTypeModel()) == 1)
        #expect(context.hasChanges)
    }
}
