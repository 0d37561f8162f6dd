import Foundation
import PersistenceTestSupport
import Synchronization
import Testing
@testable import Persistence
@testable import PersistenceContext

/// Each phase of a save (`SavePlan`) on its own: what it decides, and that nothing reaches
/// the store before the write phase.
@Suite struct SavePlanTests {
    private func context(_ store: TemporaryStore) throws -> ManagedObjectContext {
        try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
    }

    private func item(_ context: ManagedObjectContext, _ code: String) throws -> ManagedObject {
        let item = try context.insertObject(forEntityName: "Item")
        item["code"] = code
        return item
    }

    private func run(_ plan: SavePlan, in context: ManagedObjectContext) throws {
        try plan.prepare()
        try plan.validate()
        try context.persistentStoreCoordinator.performWrite(rowCount: plan.rowCount) { store, transaction in
            try plan.write(to: store, in: transaction)
        }
        plan.finish()
    }

    @Test func aContextWithoutChangesMakesNoPlan() throws {
        let store = TemporaryStore()
        let context = try context(store)
        #expect(try SavePlan(context: context, batches: []) == nil)
        _ = try item(context, "a")
        #expect(try SavePlan(context: context, batches: []) != nil)
    }

    @Test func insertsFollowInsertionOrderAndUpdatesFollowKeys() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let items = try ["c", "a", "b"].map { try item(context, $0) }
        let plan = try #require(try SavePlan(context: context, batches: []))
        #expect(plan.inserted.map(ObjectIdentifier.init) == items.map(ObjectIdentifier.init))
        #expect(plan.updated.isEmpty && plan.deleted.isEmpty && plan.rowCount == 3)
        try run(plan, in: context)

        for item in items.reversed() { item["str"] = "changed" }
        let update = try #require(try SavePlan(context: context, batches: []))
        let keys = update.updated.compactMap(\.objectID.primaryKey)
        #expect(keys.count == 3 && keys == keys.sorted(), "updates are written in key order: \(keys)")
    }

    @Test func prepareDerivesValuesAndBringsInTheObjectsThatReadThem() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Lem"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Solaris"
        book["author"] = author
        try context.save()

        author["name"] = "Stanisław Lem"
        let plan = try #require(try SavePlan(context: context, batches: []))
        #expect(plan.updated.count == 1, "only the author changed")
        try plan.prepare()
        #expect(author["canonicalName"] as? String == "stanislaw lem")
        #expect(book["authorName"] as? String == "Stanisław Lem", "the book's derived value reads the author")
        #expect(plan.updated.contains { $0 === book }, "the book whose derived value changed joins the save")
    }

    @Test func validateRefusesEveryFailureBeforeTheStoreIsTouched() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Bad!"
        book["price"] = Decimal(-1)
        let plan = try #require(try SavePlan(context: context, batches: []))
        try plan.prepare()
        let error = try #require(throws: ValidationError.self) { try plan.validate() }
        #expect(error.failures.count == 2, "the title's pattern and the price's minimum: \(error)")
        #expect(try store.rows("SELECT count(*) FROM Book") == [[.integer(0)]])

        book["title"] = "Fine"
        book["price"] = Decimal(1)
        _ = try item(context, "same")
        _ = try item(context, "same")
        let twice = try #require(try SavePlan(context: context, batches: []))
        try twice.prepare()
        #expect(throws: ConstraintConflictError.self) { try twice.validate() }
        #expect(try store.rows("SELECT count(*) FROM Item") == [[.integer(0)]])
    }

    @Test func aFailedWriteLeavesTheObjectsUnsavedAndSavableAgain() throws {
        let store = TemporaryStore()
        let first = try context(store)
        _ = try item(first, "taken")
        try first.save()

        let context = try context(store)
        let copy = try item(context, "taken")
        let plan = try #require(try SavePlan(context: context, batches: []))
        try plan.prepare()
        try plan.validate()
        #expect(throws: ConstraintConflictError.self) {
            try context.persistentStoreCoordinator.performWrite(rowCount: plan.rowCount) { store, transaction in
                try plan.write(to: store, in: transaction)
            }
        }
        #expect(copy.savingKey != nil, "the write phase gave it a key")
        plan.undoFailedWrite()
        #expect(copy.savingKey == nil && copy.rowVersion == 0)
        #expect(copy.objectID.isTemporaryID && context.hasChanges)

        copy["code"] = "free"
        try context.save()
        #expect(!copy.objectID.isTemporaryID)
        #expect(try store.rows("SELECT code FROM Item ORDER BY code") == [[.text("free")], [.text("taken")]])
    }

    @Test func finishMatchesTheContextToTheStoreAndAnnouncesTheSave() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let kept = try item(context, "kept")
        let dropped = try item(context, "dropped")
        try context.save()
        kept["str"] = "new"
        context.delete(dropped)
        let added = try item(context, "added")

        let announced = Mutex<[ContextDidSave]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification, object: context, queue: nil
        ) { note in
            if let save = note.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave {
                announced.withLock { $0.append(save) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let plan = try #require(try SavePlan(context: context, batches: []))
        try run(plan, in: context)
        #expect(!added.objectID.isTemporaryID && added.rowVersion == 1)
        #expect(kept.rowVersion == 2, "the update bumped the row's version")
        #expect(!context.hasChanges)
        #expect(try store.rows("SELECT code, str FROM Item ORDER BY code") == [[.text("added"), .null], [.text("kept"), .text("new")]])
        let saves = announced.withLock { $0 }
        #expect(saves.count == 1)
        #expect(saves.first?.insertedObjectIDs == [added.objectID])
        #expect(saves.first?.updatedObjectIDs == [kept.objectID])
        #expect(saves.first?.deletedObjectIDs.count == 1)
    }
}
