import Foundation
import PersistenceTestSupport
import Persistence
import Testing

/// Issue #43's found scenario: a stale save is a conflict whatever path gave the object its
/// values. Context A inserts a book and saves; context B changes its price and saves; A,
/// still holding the book it inserted, changes the title and saves.
@Suite struct StaleSaveTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "price", type: .integer32),
                ])
        ])
    }

    /// A store file, a container on it and two background contexts, A and B.
    struct TwoContexts {
        let store = TemporaryStore()
        let container: PersistentContainer
        let a: ManagedObjectContext
        let b: ManagedObjectContext

        init(model: ManagedObjectModel, tracksHistory: Bool = false) throws {
            container = try PersistentContainer(model: model, storeURL: store.url, tracksPersistentHistory: tracksHistory)
            a = container.newBackgroundContext(name: "A")
            b = container.newBackgroundContext(name: "B")
        }
    }

    @Test(arguments: [MergePolicy.error, .rollback, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite])
    func anObjectInsertedAndSavedIsCheckedAgainstLaterSaves(policy: MergePolicy) throws {
        let editors = try TwoContexts(model: Self.model())
        let (a, b) = (editors.a, editors.b)
        // A holds the book it inserted (a context keeps no unchanged object alive by itself).
        let held = try a.performAndWait {
            let book = try a.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            book["price"] = Int32(10)
            try a.save()
            return book
        }
        let id = held.objectID
        try b.performAndWait {
            let book = try b.existingObject(with: id)
            book["price"] = Int32(20)
            try b.save()
        }
        let outcome: Result<Void, any Error> = a.performAndWait {
            a.mergePolicy = policy
            let book = try? a.existingObject(with: id)
            book?["title"] = "Dune (A)"
            book?["price"] = Int32(11)
            return Result { try a.save() }
        }
        let reader = try PersistentContainer(model: Self.model(), storeURL: editors.store.url)
        let stored = try #require(try reader.viewContext.fetch(FetchRequest(entityName: "Book")).first)
        let title = stored["title"] as? String
        let price = stored.value(forKey: "price", as: Int32.self)
        switch policy {
        case .error:
            #expect(throws: MergeConflictError.self) { try outcome.get() }
            #expect(title == "Dune" && price == 20)
        case .rollback:
            #expect(title == "Dune" && price == 20, "the store's values stand")
        case .mergeByPropertyStoreTrump:
            #expect(title == "Dune (A)" && price == 20, "the store wins the property both changed")
        case .mergeByPropertyObjectTrump, .overwrite:
            #expect(title == "Dune (A)" && price == 11)
        }
    }

    /// Each way an object gets its values in context A — batch-inserted then fetched,
    /// faulted in by `object(with:)`, refreshed, re-fetched, edited through a child context —
    /// then B saves the row, and A's save of a change is a conflict under `.error`.
    @Test(arguments: ["batch insert, fetch", "object(with:)", "refresh", "fetch again", "child context"])
    func everyPathToAnObjectsValuesCarriesItsRowVersion(path: String) throws {
        let editors = try TwoContexts(model: Self.model())
        let (a, b) = (editors.a, editors.b)
        let id: ObjectID = try a.performAndWait {
            if path == "batch insert, fetch" {
                try a.save(inserting: [BatchInsertRequest(entityName: "Book", objects: [["title": "Dune", "price": Int32(10)]])])
            } else {
                let book = try a.insertObject(forEntityName: "Book")
                book["title"] = "Dune"
                book["price"] = Int32(10)
                try a.save()
            }
            return try #require(try a.fetch(FetchRequest(entityName: "Book")).first?.objectID)
        }
        let held: ManagedObject = try a.performAndWait {
            switch path {
            case "object(with:)":
                a.reset()
                let book = try a.object(with: id)
                _ = book["title"]
                return book
            case "refresh":
                let book = try a.existingObject(with: id)
                a.refresh(book, mergeChanges: false)
                _ = book["title"]
                return book
            case "fetch again":
                _ = try a.fetch(FetchRequest(entityName: "Book"))
                return try #require(try a.fetch(FetchRequest(entityName: "Book")).first)
            default:
                return try a.existingObject(with: id)
            }
        }
        try b.performAndWait {
            let book = try b.existingObject(with: id)
            book["price"] = Int32(20)
            try b.save()
        }
        if path == "child context" {
            // A child's queue reaches its parent's, so it is used from outside A's queue.
            let child = a.newChildContext(concurrencyType: .privateQueue)
            try child.performAndWait {
                let copy = try child.existingObject(with: id)
                // The child sees what its parent holds, not what B saved since.
                #expect(copy.value(forKey: "price", as: Int32.self) == 10)
                copy["price"] = Int32(11)
                try child.save()
            }
        }
        let outcome: Result<Void, any Error> = a.performAndWait {
            a.mergePolicy = .error
            if path != "child context" { held["price"] = Int32(11) }
            return Result { try a.save() }
        }
        #expect(throws: MergeConflictError.self, "\(path)") { try outcome.get() }
        withExtendedLifetime(held) {}
    }

    /// A child context edits an object whose row another context deleted after the parent
    /// read it: the child takes the parent's state (as Core Data's children do) and the
    /// parent's save meets the deletion as a conflict, instead of the child failing to read.
    @Test func aChildEditsWhatItsParentHoldsEvenWhenTheRowIsGone() throws {
        let editors = try TwoContexts(model: Self.model())
        let (a, b) = (editors.a, editors.b)
        let held = try a.performAndWait {
            let book = try a.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            try a.save()
            return book
        }
        let id = held.objectID
        try b.performAndWait {
            b.delete(try b.existingObject(with: id))
            try b.save()
        }
        let child = a.newChildContext(concurrencyType: .privateQueue)
        try child.performAndWait {
            let copy = try child.existingObject(with: id)
            #expect(copy["title"] as? String == "Dune")
            copy["title"] = "Dune (child)"
            try child.save()
        }
        a.performAndWait { a.mergePolicy = .error }
        let error = try #require(throws: MergeConflictError.self) { try a.performAndWait { try a.save() } }
        #expect(error.conflicts.first?.rowDeleted == true)
    }

    /// Undo across a save: A saves a price, B saves another, A undoes its edit (the old
    /// price is now A's unsaved change) and saves: the row changed since A's save, so under
    /// `.error` that is a conflict, never a silent write over B's price.
    @Test func anEditUndoneAfterItsSaveIsCheckedAgainstLaterSaves() throws {
        let editors = try TwoContexts(model: Self.model())
        let (a, b) = (editors.a, editors.b)
        let held = try a.performAndWait {
            a.undoManager = UndoManager()
            let book = try a.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            book["price"] = Int32(10)
            try a.save()
            a.undoManager?.beginUndoGrouping()
            book["price"] = Int32(11)
            a.undoManager?.endUndoGrouping()
            try a.save()
            return book
        }
        try b.performAndWait {
            let book = try b.existingObject(with: held.objectID)
            book["price"] = Int32(20)
            try b.save()
        }
        let outcome: Result<Void, any Error> = a.performAndWait {
            a.undoManager?.undo()
            a.mergePolicy = .error
            return Result { try a.save() }
        }
        #expect(held.value(forKey: "price", as: Int32.self) == 10, "the undo put the old price back in A")
        #expect(throws: MergeConflictError.self) { try outcome.get() }
    }

    /// An object inserted with the unique values of a stored row becomes that row's object
    /// (a uniqueness merge, under either trump policy): it then carries the row's version,
    /// so a later save of it is checked against what others saved since.
    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump])
    func anObjectMadeByAUniquenessMergeCarriesTheRowsVersion(policy: MergePolicy) throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                attributes: [
                    AttributeDescription(name: "isbn", type: .string),
                    AttributeDescription(name: "price", type: .integer32),
                ],
                uniquenessConstraints: [["isbn"]])
        ])
        let editors = try TwoContexts(model: model)
        let (a, b) = (editors.a, editors.b)
        try b.performAndWait {
            let book = try b.insertObject(forEntityName: "Book")
            book["isbn"] = "978"
            book["price"] = Int32(10)
            try b.save()
        }
        let held = try a.performAndWait {
            a.mergePolicy = policy
            let book = try a.insertObject(forEntityName: "Book")
            book["isbn"] = "978"
            book["price"] = Int32(12)
            try a.save()
            return book
        }
        #expect(held.managedObjectContext === a && held.objectID.primaryKey != nil, "the inserted object stands for the row")
        try b.performAndWait {
            let book = try #require(try b.fetch(FetchRequest(entityName: "Book")).first)
            b.refresh(book, mergeChanges: false)
            book["price"] = Int32(20)
            try b.save()
        }
        let outcome: Result<Void, any Error> = a.performAndWait {
            held["price"] = Int32(13)
            a.mergePolicy = .error
            return Result { try a.save() }
        }
        #expect(throws: MergeConflictError.self, "\(policy)") { try outcome.get() }
    }

    /// Merged from the persistent history: A takes B's saved price, so A's next save is not
    /// stale (no conflict under `.error`) and keeps B's price; A's unsaved title survives
    /// the merge and is saved.
    @Test(arguments: [false, true])
    func aSaveMergedFromHistoryIsNoLongerStale(withUnsavedChange: Bool) throws {
        let editors = try TwoContexts(model: Self.model(), tracksHistory: true)
        let (a, b) = (editors.a, editors.b)
        let held = try a.performAndWait {
            let book = try a.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            book["price"] = Int32(10)
            try a.save()
            return book
        }
        let token = try a.performAndWait { try a.fetchHistory(after: nil as PersistentHistoryToken?).last?.token }
        try b.performAndWait {
            let book = try b.existingObject(with: held.objectID)
            book["price"] = Int32(20)
            try b.save()
        }
        try a.performAndWait {
            if withUnsavedChange { held["title"] = "Dune (A)" }
            a.mergeChanges(fromHistory: try a.fetchHistory(after: token))
            #expect(held.value(forKey: "price", as: Int32.self) == 20)
            held["title"] = "Dune (A)"
            a.mergePolicy = .error
            try a.save()
        }
        let reader = try PersistentContainer(model: Self.model(), storeURL: editors.store.url)
        let stored = try #require(try reader.viewContext.fetch(FetchRequest(entityName: "Book")).first)
        #expect(stored["title"] as? String == "Dune (A)" && stored.value(forKey: "price", as: Int32.self) == 20)
    }
}
