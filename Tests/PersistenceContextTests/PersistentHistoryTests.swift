import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Persistent history tracking (Core Data's `NSPersistentHistoryTransaction`, `Change` and
/// `Token`): what a save records, how another container on the same file catches up from
/// it, and the requests it refuses rather than answer "nothing changed".
@Suite struct PersistentHistoryTests {
    /// Shelves of books; a book's ISBN, pages and publication date survive its deletion.
    static let model = ManagedObjectModel {
        Entity("Shelf") {
            Attribute("name", .string)
            Relationship("books", to: "Book", inverse: "shelf", toMany: true)
        }
        Entity("Book") {
            Attribute("isbn", .string, preservesValueOnDeletion: true)
            Attribute("title", .string)
            Attribute("pages", .integer64, preservesValueOnDeletion: true)
            Attribute("published", .date, preservesValueOnDeletion: true)
            Attribute("cover", .binaryData, preservesValueOnDeletion: true)
            Attribute("loud", .string, transient: true)
            Relationship("shelf", to: "Shelf", inverse: "books")
            UniquenessConstraint("isbn")
        }
    }

    /// A store file with history tracking on, and the containers opened on it.
    final class TrackedStore {
        let store = TemporaryStore()

        func open(tracking: Bool = true) throws -> PersistentContainer {
            try PersistentContainer(model: PersistentHistoryTests.model, storeURL: store.url, tracksPersistentHistory: tracking)
        }
    }

    @discardableResult
    static func insertBook(_ isbn: String, title: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let book = try context.insertObject(forEntityName: "Book")
        book["isbn"] = isbn
        book["title"] = title
        return book
    }

    // MARK: - Recording

    @Test func eachSaveRecordsOneTransactionWithItsAuthorContextAndChanges() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        context.name = "editor"
        context.transactionAuthor = "importer"
        let shelf = try context.insertObject(forEntityName: "Shelf")
        let dune = try Self.insertBook("1", title: "Dune", in: context)
        let gone = try Self.insertBook("2", title: "Gone", in: context)
        gone["pages"] = Int64(412)
        let published = Date(timeIntervalSince1970: 1_000_000)
        gone["published"] = published
        gone["cover"] = Data([0, 1, 255])
        try context.save()
        dune["title"] = "Dune Messiah"
        dune["loud"] = "DUNE"
        dune["shelf"] = shelf
        context.delete(gone)
        context.transactionAuthor = nil
        try context.save()

        let history = try context.fetchHistory(after: nil)
        #expect(history.count == 2)
        #expect(history.map(\.author) == ["importer", nil])
        #expect(history.allSatisfy { $0.contextName == "editor" && $0.storeID == history[0].token.storeIdentifier })
        #expect(history[0].changes.map(\.changeType) == [.insert, .insert, .insert])
        #expect(Set(history[0].changes.map(\.changedObjectID)) == [shelf.objectID, dune.objectID, gone.objectID])
        #expect(history[0].changes.allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil })

        let changes = Dictionary(uniqueKeysWithValues: history[1].changes.map { ($0.changedObjectID, $0) })
        // The transient is not stored, so not an update; the relationship both sides of it changed.
        #expect(changes[dune.objectID]?.changeType == .update)
        #expect(changes[dune.objectID]?.updatedProperties == ["title", "shelf"])
        #expect(changes[shelf.objectID]?.updatedProperties == ["books"])
        #expect(changes[gone.objectID]?.changeType == .delete)
        #expect(changes[gone.objectID]?.tombstone == [
            "isbn": .string("2"), "pages": .integer(412), "published": .date(published), "cover": .data(Data([0, 1, 255])),
        ])
        #expect(history[0].token < history[1].token)
        #expect(try container.persistentStoreCoordinator.currentPersistentHistoryToken() == history[1].token)
        #expect(try context.fetchHistory(after: history[0].token) == [history[1]])
        #expect(try context.fetchHistory(after: history[1].token).isEmpty)
    }

    @Test func aFailedSaveRecordsNothing() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        try Self.insertBook("1", title: "Dune", in: context)
        try context.save()
        try Self.insertBook("1", title: "Dune again", in: context)
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        #expect(try context.fetchHistory(after: nil).count == 1)
    }

    @Test func batchInsertsAreRecordedAsInsertsAndUpsertsAsUpdates() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        context.transactionAuthor = "batch"
        try context.execute(BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("\(index)", forKey: "isbn")
            try row.setValue("Book \(index)", forKey: "title")
        })
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.execute(BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("\(index + 1)", forKey: "isbn")
            try row.setValue("New \(index + 1)", forKey: "title")
        })
        let history = try context.fetchHistory(after: nil)
        #expect(history.map(\.author) == ["batch", "batch"])
        #expect(history[0].changes.map(\.changeType) == [.insert, .insert])
        #expect(history[0].changes.map { $0.changedObjectID.description } == ["Book/p1", "Book/p2"])
        // Row "1" was stored: the upsert updated it; row "2" is new.
        #expect(history[1].changes.map(\.changeType) == [.update, .insert])
        #expect(history[1].changes[0].changedObjectID.description == "Book/p2")
        #expect(history[1].changes[0].updatedProperties?.isSuperset(of: ["isbn", "title"]) == true)
    }

    // MARK: - Catching up

    @Test func anotherContainerOnTheFileCatchesUpOnExactlyWhatChanged() throws {
        let file = TrackedStore()
        let writer = try file.open().viewContext
        let dune = try Self.insertBook("1", title: "Dune", in: writer)
        let gone = try Self.insertBook("2", title: "Gone", in: writer)
        try writer.save()

        let reader = try file.open().viewContext
        let books = try reader.fetch(FetchRequest(entityName: "Book", sortDescriptors: [.init("isbn")]))
        #expect(books.map { $0["title"] as? String } == ["Dune", "Gone"])
        let token = try reader.persistentStoreCoordinator.currentPersistentHistoryToken()

        writer.transactionAuthor = "writer"
        dune["title"] = "Dune Messiah"
        writer.delete(gone)
        try Self.insertBook("3", title: "Children of Dune", in: writer)
        try writer.save()

        let transactions = try reader.fetchHistory(after: token)
        #expect(transactions.count == 1)
        let changes = transactions[0].changes
        #expect(changes.map(\.changeType) == [.insert, .update, .delete])
        #expect(changes[1].changedObjectID == books[0].objectID && changes[1].updatedProperties == ["title"])
        #expect(changes[2].changedObjectID == books[1].objectID && changes[2].tombstone == ["isbn": .string("2")])
        reader.mergeChanges(fromHistory: transactions)
        #expect(books[0]["title"] as? String == "Dune Messiah")
        #expect(books[1].managedObjectContext == nil)
        let inserted = try reader.existingObject(with: changes[0].changedObjectID)
        #expect(inserted["title"] as? String == "Children of Dune")
    }

    // MARK: - Trimming

    @Test func deletingHistoryKeepsTheRestAndExpiresTheTokensBeforeIt() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        var tokens: [PersistentHistoryToken] = []
        for isbn in ["1", "2", "3"] {
            try Self.insertBook(isbn, title: isbn, in: context)
            try context.save()
            tokens.append(try container.persistentStoreCoordinator.currentPersistentHistoryToken())
        }
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: try FetchPredicate("isbn == '1'"))).first)
        context.delete(book)
        try context.save()
        let current = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
        #expect(try scalar("SELECT count(*) FROM _tombstone", container) == 1)

        try context.deleteHistory(before: tokens[2])
        #expect(try context.fetchHistory(after: nil).map(\.token) == [tokens[2], current])
        #expect(try context.fetchHistory(after: tokens[1]).map(\.token) == [tokens[2], current])
        let expired = PersistentHistoryError.expired(deletedThrough: tokens[1].transactionNumber)
        #expect(throws: expired) { try context.fetchHistory(after: tokens[0]) }
        #expect(expired.code == 134_301)
        // Deleting everything deletes the tombstones too; the current token stays a place.
        try context.deleteHistory(before: Date())
        #expect(try scalar("SELECT count(*) FROM _tombstone", container) == 0)
        #expect(try context.fetchHistory(after: current).isEmpty)
        #expect(try container.persistentStoreCoordinator.currentPersistentHistoryToken() == current)
    }

    @Test func historyAfterADateStartsWithTheFirstTransactionAfterIt() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        try Self.insertBook("1", title: "Before", in: context)
        try context.save()
        let first = try context.fetchHistory(after: nil)[0]
        try Self.insertBook("2", title: "After", in: context)
        try context.save()
        let after = try context.fetchHistory(after: first.timestamp)
        #expect(after.map(\.transactionNumber) == [first.transactionNumber + 1])
        #expect(try context.fetchHistory(after: Date(timeIntervalSince1970: 0)).count == 2)
    }

    // MARK: - Bad requests

    @Test func aStoreThatDoesNotTrackHistoryRefusesHistoryRequests() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil)
        #expect(throws: PersistentHistoryError.notTracked(path: nil)) { try container.viewContext.fetchHistory(after: nil) }
        #expect(throws: PersistentHistoryError.notTracked(path: nil)) {
            try container.persistentStoreCoordinator.currentPersistentHistoryToken()
        }
    }

    @Test func aTokenOfAnotherStoreIsRefused() throws {
        let mine = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let theirs = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let token = try theirs.persistentStoreCoordinator.currentPersistentHistoryToken()
        let error = #expect(throws: PersistentHistoryError.self) { try mine.viewContext.fetchHistory(after: token) }
        #expect(error.map { "\($0)" }?.hasPrefix("The history token belongs to store \(token.storeIdentifier), not to this store") == true)
        #expect(throws: PersistentHistoryError.self) { try mine.viewContext.deleteHistory(before: token) }
    }

    @Test func aDateInTheFutureOrATokenPastTheLastTransactionIsRefused() throws {
        let container = try PersistentContainer(model: Self.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        try Self.insertBook("1", title: "Dune", in: context)
        try context.save()
        let tomorrow = Date().addingTimeInterval(86_400)
        #expect(throws: PersistentHistoryError.dateInTheFuture(tomorrow)) { try context.fetchHistory(after: tomorrow) }
        #expect(throws: PersistentHistoryError.dateInTheFuture(tomorrow)) { try context.deleteHistory(before: tomorrow) }
        let current = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
        let future = PersistentHistoryToken(storeIdentifier: current.storeIdentifier, transactionNumber: 5)
        #expect(throws: PersistentHistoryError.tokenFromTheFuture(transactionNumber: 5, lastTransaction: 1)) {
            try context.fetchHistory(after: future)
        }
    }

    @Test func aTokenSurvivesEncodingAndStaysAPlaceInItsStore() throws {
        let file = TrackedStore()
        let context = try file.open().viewContext
        try Self.insertBook("1", title: "Dune", in: context)
        try context.save()
        let token = try context.persistentStoreCoordinator.currentPersistentHistoryToken()
        let kept = try JSONDecoder().decode(PersistentHistoryToken.self, from: JSONEncoder().encode(token))
        #expect(kept == token)
        try Self.insertBook("2", title: "Messiah", in: context)
        try context.save()
        #expect(try file.open().viewContext.fetchHistory(after: kept).count == 1)
    }

    // MARK: - Opening

    @Test func aStoreMadeWithoutHistoryGainsItWhenOpenedWithTrackingAndLosesNothing() throws {
        let file = TrackedStore()
        do {
            let context = try file.open(tracking: false).viewContext
            try Self.insertBook("1", title: "Dune", in: context)
            try context.save()
            #expect(throws: PersistentHistoryError.self) { try context.fetchHistory(after: nil) }
        }
        let context = try file.open().viewContext
        #expect(try context.fetch(FetchRequest(entityName: "Book")).map { $0["title"] as? String } == ["Dune"])
        #expect(try context.fetchHistory(after: nil).isEmpty)
        try Self.insertBook("2", title: "Messiah", in: context)
        try context.save()
        #expect(try context.fetchHistory(after: nil).map { $0.changes.map(\.changeType) } == [[.insert]])
    }

    @Test func aStoreThatTracksHistoryKeepsTrackingWhoeverOpensIt() throws {
        let file = TrackedStore()
        _ = try file.open()
        let context = try file.open(tracking: false).viewContext
        try Self.insertBook("1", title: "Dune", in: context)
        try context.save()
        #expect(try context.fetchHistory(after: nil).count == 1)
    }

    @Test func aConnectionOpenedBeforeTrackingBeganRecordsItsNextSave() throws {
        let file = TrackedStore()
        let early = try file.open(tracking: false).viewContext
        try Self.insertBook("1", title: "Dune", in: early)
        try early.save()
        let tracking = try file.open().viewContext
        try Self.insertBook("2", title: "Messiah", in: early)
        try early.save()
        #expect(try tracking.fetchHistory(after: nil).map { $0.changes.map(\.changedObjectID.description) } == [["Book/p2"]])
    }

    @Test func theHistoryOutlivesAMigrationThatRenamesItsEntity() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Writer") { Attribute("name", .string, preservesValueOnDeletion: true) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Author", renamingIdentifier: "Writer") {
                Attribute("name", .string, preservesValueOnDeletion: true)
                Attribute("born", .integer32)
            }
        }
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: v1, storeURL: store.url, tracksPersistentHistory: true).viewContext
            let writer = try context.insertObject(forEntityName: "Writer")
            writer["name"] = "Borges"
            try context.save()
            context.delete(writer)
            try context.save()
        }
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1], tracksPersistentHistory: true)
        let history = try container.viewContext.fetchHistory(after: nil)
        #expect(history.map { $0.changes.map(\.changedObjectID.description) } == [["Author/p1"], ["Author/p1"]])
        #expect(history[1].changes[0].tombstone == ["name": .string("Borges")])
    }

    /// A value read from the store's database directly.
    private func scalar(_ sql: String, _ container: PersistentContainer) throws -> Int64 {
        try container.persistentStoreCoordinator.read { store in
            try (store as? SQLiteStore)?.database.scalar(sql).int64Value ?? -1
        }
    }
}
