import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext

/// The context's registry: entries that neither retain nor weakly reference their objects,
/// removed by each object as it goes.
@Suite struct ObjectRegistryTests {
    @Test func aDyingObjectLeavesAnotherObjectsEntryUnderItsIDAlone() throws {
        let (_, context) = try BookFixture.make()
        context.reset()
        let survivor = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        let id = survivor.objectID
        do {
            // An object that was registered under the same ID and replaced (as a stale
            // object is when an insert takes over its row) goes without touching the entry.
            let stale = context.makeObject(schema: survivor.schema, id: id, isFault: true)
            context.register(stale, as: id)
            #expect(context.registry[id]?.object === stale)
            context.register(survivor, as: id)
            #expect(context.registry[id]?.object === survivor)
        }
        #expect(context.registry[id]?.object === survivor)
        #expect(try context.object(with: id) === survivor)
    }

    /// IDs share their names through a scope; two IDs of one row are equal (and find one
    /// registry entry) whichever scopes they were made with.
    @Test func idsOfOneRowAreEqualAcrossScopes() throws {
        let (_, context) = try BookFixture.make()
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        let id = book.objectID
        let copy = ObjectID(
            entityName: id.entityName, rootName: id.rootName, storeIdentifier: id.storeIdentifier, key: id.key)
        #expect(copy.scope !== id.scope)
        #expect(copy == id && copy.hashValue == id.hashValue)
        #expect(try context.object(with: copy) === book)
        // Another store, another table or another key is another row.
        for other in [
            ObjectID(entityName: id.entityName, rootName: id.rootName, storeIdentifier: "other", key: id.key),
            ObjectID(entityName: id.entityName, rootName: "Author", storeIdentifier: id.storeIdentifier, key: id.key),
            ObjectID(scope: id.scope, key: .permanent(-1)),
        ] {
            #expect(other != id)
        }
    }

    @Test func savedObjectsAreFoundUnderTheirPermanentIDsAndLeaveWhenTheyGo() throws {
        let (container, context) = try BookFixture.make()
        var id: ObjectID?
        do {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            try context.save()
            id = book.objectID
            #expect(try context.object(with: book.objectID) === book)
        }
        let permanent = try #require(id)
        #expect(!permanent.isTemporaryID)
        #expect(context.registry[permanent] == nil)
        // A new object is made for the row, from the store.
        #expect(try context.existingObject(with: permanent)["title"] as? String == "Dune")
        _ = container
    }

    @Test func detachedObjectsOutliveTheRegistryWithoutTouchingIt() throws {
        let (_, context) = try BookFixture.make()
        let books = try context.fetch(FetchRequest(entityName: "Book"))
        let inserted = try context.insertObject(forEntityName: "Book")
        inserted["title"] = "Unsaved"
        context.rollback()
        #expect(inserted.managedObjectContext == nil)
        context.reset()
        #expect(context.registry.isEmpty)
        #expect(books.allSatisfy { $0.managedObjectContext == nil })
        // Refetching makes new objects, registered again, and dropping them empties it.
        do {
            let again = try context.fetch(FetchRequest(entityName: "Book"))
            #expect(again.count == books.count)
            #expect(zip(again, books).allSatisfy { $0 !== $1 })
            #expect(context.registry.count == books.count)
        }
        #expect(context.registry.isEmpty)
    }

    /// Making an object runs the app's property initializers; one that lets another object of
    /// the context go takes that object's entry out of the registry while the fetch is
    /// between finding no entry for its row and registering the new object. The registry
    /// stays whole: every fetched object registered once under its own ID, the gone one's
    /// entry removed, and each row still one object.
    @Test func anObjectThatGoesWhileAnotherIsMadeLeavesTheRegistryWhole() throws {
        let container = try PersistentContainer(
            model: BookFixture.model(), storeURL: nil, classes: ["Book": LettingGoBook.self])
        let context = container.viewContext
        var ids: [ObjectID] = []
        do {
            let books = try ["A", "B", "C", "D", "E"].map { title in
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = title
                return book
            }
            try context.save()
            ids = books.map(\.objectID)
        }
        context.reset()
        for id in ids {
            // Only `held` keeps this row's object; the first object the fetch makes lets it go
            // (unless it is the fetch's first row, which the fetch then finds registered).
            LettingGoBook.held = try context.existingObject(with: id)
            let books = try context.fetch(FetchRequest(entityName: "Book"))
            #expect(LettingGoBook.held == nil)
            #expect(Set(books.map(\.objectID)) == Set(ids))
            #expect(Set(books.map { ObjectIdentifier($0) }).count == ids.count)
            for book in books { #expect(try context.existingObject(with: book.objectID) === book) }
            #expect(context.registry.count == ids.count)
        }
        #expect(context.registry.isEmpty)
    }

    /// Objects refer to their context without a weak reference: the context detaches every
    /// object that refers to it when it goes, registered, changed or not.
    @Test func objectsOutlivingTheirContextBelongToNone() throws {
        var fetched: [ManagedObject] = []
        var unsaved: ManagedObject?
        do {
            let (container, context) = try BookFixture.make()
            context.reset()
            fetched = try context.fetch(FetchRequest(entityName: "Book"))
            unsaved = try context.insertObject(forEntityName: "Book")
            unsaved?["title"] = "Unsaved"
            fetched[1]["title"] = "Changed"
            _ = container
        }
        #expect(fetched.allSatisfy { $0.managedObjectContext == nil })
        #expect(unsaved?.managedObjectContext == nil)
        // Values already loaded still read; to-ones that were never loaded read as nil.
        #expect(fetched[1]["title"] as? String == "Changed")
        #expect(fetched.allSatisfy { $0.object(forKey: "author") == nil })
    }

    /// A stale object, whose row an object-trump insert took over, has no registry entry but
    /// still belongs to the context: it reloads the row's new values while the context lives,
    /// and is detached with the rest when the context goes.
    @Test func aStaleObjectIsDetachedWhenItsContextGoes() throws {
        let store = TemporaryStore()
        var stale: ManagedObject?
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            let context = container.viewContext
            let (old, new) = try Self.insertTakingOverARow(in: context)
            stale = old
            #expect(new.objectID == old.objectID)
            #expect(try context.object(with: old.objectID) === new)
            #expect(old.managedObjectContext === context)
            #expect(old["str"] as? String == "new")
            #expect(context.strays.count == 1)
            _ = container
        }
        #expect(stale?.managedObjectContext == nil)
        #expect(stale?["str"] as? String == "new")
    }

    /// Deleting a stale object (same ID as the object that took over its row) detaches it
    /// and takes out its own entry only: the registered object keeps its entry.
    @Test func deletingAStaleObjectLeavesTheRegisteredOneAlone() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let (old, new) = try Self.insertTakingOverARow(in: context)
        context.delete(old)
        try context.save()
        #expect(old.managedObjectContext == nil)
        #expect(context.strays.isEmpty)
        #expect(context.registry[new.objectID].map { $0.holds(ObjectIdentifier(new)) } == true)
        #expect(try store.count("Item", everyTypeModel()) == 0)
    }

    /// Saves an item ("old"), then under object-trump merging an insert with its unique code
    /// ("new"), which takes over its row and leaves the old object stale.
    private static func insertTakingOverARow(in context: ManagedObjectContext) throws -> (old: ManagedObject, new: ManagedObject) {
        let old = try context.insertObject(forEntityName: "Item")
        old["code"] = "c1"
        old["str"] = "old"
        try context.save()
        context.mergePolicy = .mergeByPropertyObjectTrump
        let new = try context.insertObject(forEntityName: "Item")
        new["code"] = "c1"
        new["str"] = "new"
        try context.save()
        return (old, new)
    }
}

/// A book whose property initializer lets go of the object `held`.
private final class LettingGoBook: ManagedObject {
    nonisolated(unsafe) static var held: ManagedObject?
    let letGo: Bool = {
        defer { LettingGoBook.held = nil }
        return LettingGoBook.held != nil
    }()
}
