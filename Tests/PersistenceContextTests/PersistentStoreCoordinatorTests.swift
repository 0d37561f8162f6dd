import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// What an app asks of a store through its coordinator: metadata of its own, whether a kind
/// of object was ever saved, a bulk load, closing, and failures it can tell apart.
@Suite struct PersistentStoreCoordinatorTests {
    private static func model(_ attribute: String = "title") -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute(attribute, .string)
            }
        }
    }

    @Test func metadataKeptByTheAppSurvivesReopeningAndIsNilUntilSet() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
            let coordinator = container.persistentStoreCoordinator
            #expect(try coordinator.metadataValue(forKey: "app.sample") == nil)
            try coordinator.setMetadataValue("seeded", forKey: "app.sample")
            try coordinator.setMetadataValue("seeded twice", forKey: "app.sample")
        }
        let reopened = try PersistentContainer(model: Self.model(), storeURL: store.url, readOnly: true)
        #expect(try reopened.persistentStoreCoordinator.metadataValue(forKey: "app.sample") == "seeded twice")
        #expect(reopened.persistentStoreCoordinator.isReadOnly)
        #expect(reopened.persistentStoreCoordinator.persistentStoreURL?.path == store.url.path)
    }

    @Test func aStoreEmptiedByItsUserHasStillStoredObjects() throws {
        let container = try PersistentContainer(model: Self.model(), storeURL: nil)
        let coordinator = container.persistentStoreCoordinator
        let context = container.viewContext
        #expect(try !coordinator.hasEverStoredObjects(ofEntity: "Book"))
        let book = try context.insertObject(forEntityName: "Book")
        try context.save()
        context.delete(book)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Book")) == 0)
        #expect(try coordinator.hasEverStoredObjects(ofEntity: "Book"))
    }

    @Test func aBulkLoadCommitsEachSaveAndReturnsWhatItsBodyReturns() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: Self.model(), storeURL: store.url)
        let context = container.viewContext
        let saves = try container.persistentStoreCoordinator.performBulkLoad(rowCount: 300) {
            for batch in 0..<3 {
                for number in 0..<100 {
                    try context.insertObject(forEntityName: "Book").setValue("\(batch)-\(number)", forKey: "title")
                }
                try context.save()
            }
            return 3
        }
        #expect(saves == 3)
        #expect(try store.count("Book", Self.model()) == 300)
    }

    @Test func aStoreOfAnotherModelIsRefusedAsIncompatibleAndLeftAlone() throws {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: Self.model("title"), storeURL: store.url).viewContext
            try context.insertObject(forEntityName: "Book").setValue("Kept", forKey: "title")
            try context.save()
            try context.persistentStoreCoordinator.close()
        }
        let before = try Data(contentsOf: store.url)
        do {
            _ = try PersistentContainer(model: Self.model("name"), storeURL: store.url)
            Issue.record("a store of another model opened")
        } catch let failure as any PersistentStoreFailure {
            #expect(failure.failureKind == .incompatibleModel)
            #expect(failure.path == store.url.path)
        }
        #expect(try Data(contentsOf: store.url) == before)
    }
}
