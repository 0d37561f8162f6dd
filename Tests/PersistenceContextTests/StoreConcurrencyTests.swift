import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Two connections on one store file, as two `books` processes have: a save must never
/// leave a statement (and so a read transaction) open, or the next save after another
/// connection's write fails with "database is locked" without waiting.
@Suite struct StoreConcurrencyTests {
    @Test func savesAndFetchesLeaveNoStatementActive() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        let database = context.storeConnection
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        try context.save()
        #expect(!database.hasActiveStatements)
        try context.insertObject(forEntityName: "Item")["code"] = "x"  // adopts the row
        try context.save()
        #expect(!database.hasActiveStatements, "the unique-key lookup was left on its row")
        var request = FetchRequest(entityName: "Item")
        request.fetchLimit = 1
        _ = try context.fetch(request)
        #expect(!database.hasActiveStatements, "a limited fetch was left on its row")
        var seen = 0
        try context.forEach(FetchRequest(entityName: "Item")) { _ in
            seen += 1
            return false
        }
        #expect(seen == 1)
        #expect(!database.hasActiveStatements, "a fetch stopped early was left on its row")
    }

    @Test func aSaveAfterAnotherConnectionWroteSucceeds() throws {
        let store = TemporaryStore()
        let first = try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
        first.mergePolicy = .mergeByPropertyObjectTrump
        try first.insertObject(forEntityName: "Item")["code"] = "x"
        try first.save()
        try first.insertObject(forEntityName: "Item")["code"] = "x"
        try first.save()

        let second = try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
        try second.insertObject(forEntityName: "Item")["code"] = "y"
        try second.save()

        try first.insertObject(forEntityName: "Item")["code"] = "z"
        try first.save()
        #expect(try store.strings(["code"], of: "Item", everyTypeModel()) == [["x"], ["y"], ["z"]])
    }
}
