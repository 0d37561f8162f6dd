import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// A save in a store where Core Data records its persistent history records its transaction
/// there as Core Data does, checked against the rows Core Data itself wrote in the corpus
/// store `CoreDataPlus-SampleModel2_V2.sqlite` (one transaction of 126 inserts) and read back
/// through plain SQL and through the history API.
@Suite struct CoreDataHistoryWriteTests {
    static let corpusStore = "CoreDataPlus-SampleModel2_V2.sqlite"

    /// Insert a Feedback, update an Author's age and two books' titles (a Book and a
    /// GraphicNovel, whose property orders differ), delete a Feedback: one `ATRANSACTION` row
    /// numbered after Core Data's, one `ACHANGE` row per object in Core Data's encoding, the
    /// strings interned, `Z_MAX` advanced; the history API reads it back; the original file
    /// is untouched.
    @Test func aSaveIsRecordedInCoreDatasHistoryAsCoreDataRecordsIt() throws {
        let original = CoreDataCorpus.folder.appendingPathComponent(Self.corpusStore)
        let originalBytes = try Data(contentsOf: original)
        let copy = try CoreDataCorpus.Copy(Self.corpusStore)
        defer { copy.remove() }
        // What Core Data wrote: its transaction's and its inserts' bookkeeping columns.
        let coreDataTransaction = try #require(
            try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_ENT, Z_OPT, typeof(ZTIMESTAMP), ZQUERYGEN FROM ATRANSACTION WHERE Z_PK = 1").first)
        let coreDataInsert = try #require(
            try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_ENT, Z_OPT, ZCOLUMNS FROM ACHANGE WHERE Z_PK = 1").first)
        let coreDataString = try #require(try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_ENT, Z_OPT FROM ATRANSACTIONSTRING WHERE Z_PK = 1").first)
        #expect(coreDataTransaction == [.integer(16002), .null, .text("real"), .null])
        #expect(coreDataInsert == [.integer(16001), .null, .null])

        let model = try CoreDataStore.storedModel(at: copy.storeURL)
        let container = try PersistentContainer(model: model, storeURL: copy.storeURL)
        #expect(!container.persistentStoreCoordinator.isReadOnly)
        let context = container.viewContext
        context.name = "linux context"
        context.transactionAuthor = "books on linux"
        let tokenBefore = try container.persistentStoreCoordinator.currentPersistentHistoryToken()

        let feedback = try context.insertObject(forEntityName: "Feedback")
        try feedback.setValue("linux reader", forKey: "authorAlias")
        try feedback.setValue("written on Linux", forKey: "comment")
        try feedback.setValue(4.5, forKey: "rating")
        try feedback.setValue(UUID(), forKey: "bookID")
        let author = try #require(try context.fetch(FetchRequest(entityName: "Author")).first)
        try author.setValue(41, forKey: "age")
        let book = try context.existingObject(with: Self.id(context, "Book", 1))
        try book.setValue("a new title", forKey: "title")
        let novel = try context.existingObject(with: Self.id(context, "GraphicNovel", 3))
        try novel.setValue("a new novel title", forKey: "title")
        let gone = try context.existingObject(with: Self.id(context, "Feedback", 2))
        context.delete(gone)
        let before = Date()
        try context.save()
        let after = Date()

        // The transaction, as Core Data's row: numbered after it, its bookkeeping columns as
        // Core Data leaves them, the time in seconds since 2001, the strings interned.
        let transaction = try #require(
            try CoreDataCorpus.sql(
                copy.storeURL,
                "SELECT Z_PK, Z_ENT, Z_OPT, typeof(ZTIMESTAMP), ZQUERYGEN, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, "
                    + "(SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = ZAUTHORTS), "
                    + "(SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = ZCONTEXTNAMETS), "
                    + "(SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = ZPROCESSIDTS) FROM ATRANSACTION WHERE Z_PK > 1"
            ).first)
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT count(*) FROM ATRANSACTION") == [[.integer(2)]])
        #expect(Array(transaction[0...4]) == [.integer(2)] + coreDataTransaction)
        let seconds = try #require(transaction[5].doubleValue)
        #expect(seconds >= before.timeIntervalSinceReferenceDate - 1 && seconds <= after.timeIntervalSinceReferenceDate + 1)
        #expect(Array(transaction[6...9]) == [.null, .null, .null, .null])
        #expect(Array(transaction[10...12]) == [.text("books on linux"), .text("linux context"), .text(ProcessInfo.processInfo.processName)])
        // New strings are numbered from Z_MAX, as Core Data's row is kept; a string already
        // there ("xctest" where the tests run as xctest) is reused, never doubled.
        let strings = try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK")
        #expect(Set(strings.map { $0[3] }).count == strings.count)
        #expect(strings.dropFirst(2).allSatisfy { [$0[1], $0[2]] == coreDataString })
        #expect(strings.map(\.[0]) == (1...Int64(strings.count)).map { .integer($0) })

        // One change per object: Core Data's bookkeeping, its change types, the object's own
        // entity number (GraphicNovel 2, Author 6, Feedback 3), and the written properties as
        // a bitmap in the layout Core Data's own updates in the corpus's Notes stores have
        // (to-ones, then attributes, then to-manys, each sorted by name; first bit 0x80):
        // Author (age, alias, books) age → 80; Book (author, frontCover, pagesCount, price,
        // publishedAt, title, uniqueID, pages) title → 04; GraphicNovel (author, frontCover,
        // isBlackAndWhite, …, title, uniqueID, pages: nine slots, two bytes) title → 0200.
        let changes = try CoreDataCorpus.sql(
            copy.storeURL,
            "SELECT Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE Z_PK > 126 "
                + "ORDER BY ZCHANGETYPE, ZENTITY, ZENTITYPK")
        let newFeedback = try #require(feedback.objectID.primaryKey)
        #expect(newFeedback == 4)
        #expect(
            changes == [
                [.integer(16001), .null, .integer(0), .integer(3), .integer(4), .integer(2), .null],
                [.integer(16001), .null, .integer(1), .integer(1), .integer(1), .integer(2), .blob(Data([0x04]))],
                [.integer(16001), .null, .integer(1), .integer(2), .integer(3), .integer(2), .blob(Data([0x02, 0x00]))],
                [.integer(16001), .null, .integer(1), .integer(6), .integer(1), .integer(2), .blob(Data([0x80]))],
                [.integer(16001), .null, .integer(2), .integer(3), .integer(2), .integer(2), .null],
            ])
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT min(Z_PK), max(Z_PK) FROM ACHANGE WHERE Z_PK > 126") == [[.integer(127), .integer(131)]])
        // Z_MAX of each history entity is its table's last key, as in Core Data's store.
        #expect(
            try CoreDataCorpus.sql(
                copy.storeURL,
                "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
                == [
                    [.text("CHANGE"), .integer(131)], [.text("TRANSACTION"), .integer(2)],
                    [.text("TRANSACTIONSTRING"), .integer(Int64(strings.count))],
                ])
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Feedback'") == [[.integer(4)]])

        // Through the history API: the new transaction after Core Data's, with its changes.
        let history = try context.fetchHistory(after: tokenBefore)
        #expect(history.map(\.transactionNumber) == [2])
        let recorded = try #require(history.first)
        #expect(recorded.author == "books on linux")
        #expect(recorded.contextName == "linux context")
        let byObject = Dictionary(uniqueKeysWithValues: recorded.changes.map { ("\($0.changedObjectID.entityName)/\($0.changedObjectID.primaryKey ?? 0)", $0) })
        #expect(byObject["Feedback/4"]?.changeType == .insert)
        #expect(byObject["Feedback/2"]?.changeType == .delete)
        #expect(byObject["Author/1"]?.updatedProperties == ["age"])
        #expect(byObject["Book/1"]?.updatedProperties == ["title"])
        #expect(byObject["GraphicNovel/3"]?.updatedProperties == ["title"])
        #expect(byObject["Feedback/4"]?.updatedProperties == nil)
        // Core Data's own transaction still reads as it did.
        let all = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(all.map(\.changes.count) == [126, 5])
        try container.persistentStoreCoordinator.close()

        // The store reopens with what was saved; the corpus file is untouched.
        let reopened = try PersistentContainer(model: model, storeURL: copy.storeURL)
        let titles = try reopened.viewContext.fetch(FetchRequest(entityName: "Book")).compactMap { $0.value(forKey: "title") as? String }
        #expect(Set(titles).isSuperset(of: ["a new title", "a new novel title"]))
        #expect(try reopened.viewContext.fetch(FetchRequest(entityName: "Feedback")).count == 3)
        try reopened.persistentStoreCoordinator.close()
        #expect(try Data(contentsOf: original) == originalBytes)
    }

    /// Moving a page from the graphic novel to a book is an update of the page (its to-one
    /// `book`) and of both books (their to-many `pages`), each bitmap in its own entity's
    /// order: Page (book and its entity column `Z1_BOOK`, then content, isBookmarked,
    /// number) → C0; Book (eight slots, `pages` last) → 01; GraphicNovel (nine) → 0080.
    @Test func aRelationshipChangeIsRecordedOnEverySideItChanged() throws {
        let copy = try CoreDataCorpus.Copy(Self.corpusStore)
        defer { copy.remove() }
        let model = try CoreDataStore.storedModel(at: copy.storeURL)
        let container = try PersistentContainer(model: model, storeURL: copy.storeURL)
        let context = container.viewContext
        let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
        let page = try context.existingObject(with: Self.id(context, "Page", 1))
        try page.setValue(try context.existingObject(with: Self.id(context, "Book", 1)), forKey: "book")
        try context.save()
        #expect(
            try CoreDataCorpus.sql(copy.storeURL, "SELECT ZENTITY, ZENTITYPK, hex(ZCOLUMNS) FROM ACHANGE WHERE Z_PK > 126 ORDER BY ZENTITY")
                == [
                    [.integer(1), .integer(1), .text("01")], [.integer(2), .integer(3), .text("0080")],
                    [.integer(4), .integer(1), .text("C0")],
                ])
        let changes = try context.fetchHistory(after: token).flatMap(\.changes)
        #expect(
            Set(changes.map { "\($0.changedObjectID.entityName) \(($0.updatedProperties ?? []).sorted())" })
                == ["Book [\"pages\"]", "GraphicNovel [\"pages\"]", "Page [\"book\"]"])
        try container.persistentStoreCoordinator.close()
    }

    static let notesStore = "AppleNotesParser-macOS15-NoteStore.sqlite"

    /// Core Data's own updates in the Apple Notes store read with the properties they wrote:
    /// each edit of a note's body writes `ICNoteData.data`, each bump of a cloud state its
    /// version and date, a new note joins its folder's `notes` and a new hashtag its account's
    /// `hashtags`; no update of the 170 reads as unknown (every bit names a property).
    @Test func coreDatasOwnUpdatesReadWithTheirProperties() throws {
        let copy = try CoreDataCorpus.Copy(Self.notesStore)
        defer { copy.remove() }
        let container = try PersistentContainer(model: try CoreDataStore.storedModel(at: copy.storeURL), storeURL: copy.storeURL)
        let changes = try container.viewContext.fetchHistory(after: nil as PersistentHistoryToken?).flatMap(\.changes)
        let byID = Dictionary(uniqueKeysWithValues: changes.map { ($0.changeID, $0) })
        #expect(byID[24]?.changedObjectID.entityName == "ICNoteData")
        #expect(byID[24]?.updatedProperties == ["data"])
        #expect(byID[26]?.changedObjectID.entityName == "ICCloudState")
        #expect(byID[26]?.updatedProperties == ["currentLocalVersion", "localVersionDate"])
        #expect(byID[13]?.changedObjectID.entityName == "ICFolder")
        #expect(byID[13]?.updatedProperties == ["notes"])
        #expect(byID[19]?.changedObjectID.entityName == "ICAccount")
        #expect(byID[19]?.updatedProperties == ["hashtags"])
        let updates = changes.filter { $0.changeType == .update }
        #expect(updates.count == 170)
        #expect(updates.allSatisfy { ($0.updatedProperties ?? []).count > 0 })
        #expect(changes.filter { $0.changeType != .update }.allSatisfy { $0.updatedProperties == nil })
        try container.persistentStoreCoordinator.close()
    }

    /// A note's title edited here is recorded as Core Data records its own note updates in
    /// the same store: a bitmap as long as theirs (nine bytes for ICNote's 71 properties) with
    /// one bit, which reads back as `title` (the note's own `ZTITLE1`, not the attachment's
    /// `ZTITLE`); the interned strings keep Core Data's numbering.
    @Test func aNoteEditedHereIsRecordedLikeCoreDatasOwnNoteUpdates() throws {
        let copy = try CoreDataCorpus.Copy(Self.notesStore)
        defer { copy.remove() }
        let container = try PersistentContainer(model: try CoreDataStore.storedModel(at: copy.storeURL), storeURL: copy.storeURL)
        let context = container.viewContext
        let token = try container.persistentStoreCoordinator.currentPersistentHistoryToken()
        let note = try context.existingObject(with: Self.id(context, "ICNote", 11))
        #expect(note.value(forKey: "title") as? String == "This note has special formatting")
        try note.setValue("Edited on Linux", forKey: "title")
        try context.save()
        try container.persistentStoreCoordinator.close()

        let coreDatas = try CoreDataCorpus.sql(copy.storeURL, "SELECT DISTINCT length(ZCOLUMNS) FROM ACHANGE WHERE ZENTITY = 11 AND Z_PK <= 250 AND ZCHANGETYPE = 1")
        let mine = try #require(
            try CoreDataCorpus.sql(copy.storeURL, "SELECT ZCOLUMNS FROM ACHANGE WHERE ZENTITY = 11 AND Z_PK > 250 AND ZCHANGETYPE = 1").first?.first?.dataValue)
        #expect(coreDatas == [[.integer(Int64(mine.count))]])
        #expect(mine.reduce(0) { $0 + $1.nonzeroBitCount } == 1)
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT ZTITLE, ZTITLE1 FROM ZICCLOUDSYNCINGOBJECT WHERE Z_PK = 11") == [[.null, .text("Edited on Linux")]])
        #expect(try CoreDataCorpus.sql(copy.storeURL, "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK <= 4") == [
            [.integer(1), .text("712")], [.integer(2), .text("com.apple.Notes")], [.integer(3), .text("Notes")], [.integer(4), .text("ViewContext")],
        ])
        let reopened = try PersistentContainer(model: try CoreDataStore.storedModel(at: copy.storeURL), storeURL: copy.storeURL)
        let recorded = try reopened.viewContext.fetchHistory(after: token).flatMap(\.changes)
        #expect(recorded.map(\.changedObjectID.entityName) == ["ICNote"])
        #expect(recorded.first?.updatedProperties == ["title"])
        try reopened.persistentStoreCoordinator.close()
    }

    /// The ID of row `key` of `entity` in the context's store.
    static func id(_ context: ManagedObjectContext, _ entity: String, _ key: Int64) throws -> ObjectID {
        var request = FetchRequest(entityName: entity)
        request.includesSubentities = false
        return try #require(try context.fetch(request).first { $0.objectID.primaryKey == key }).objectID
    }
}
