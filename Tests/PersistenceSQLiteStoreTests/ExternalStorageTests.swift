import Foundation
import PersistenceTestSupport
import Testing
import Persistence
import PersistenceSQLite

/// Binary attributes with "allows external storage": values above the threshold live in
/// files beside the store, written before the commit and removed after it.
@Suite struct ExternalStorageTests {
    @Test func onlyValuesAboveTheThresholdGoToFilesAndEveryByteComesBack() throws {
        let folder = try ExternalStorageFolder()
        let sizes = [
            0, 1, ExternalStorageFolder.threshold - 1, ExternalStorageFolder.threshold, ExternalStorageFolder.threshold + 1, 3 * ExternalStorageFolder.threshold,
        ]
        do {
            let context = try folder.open().viewContext
            for (n, size) in sizes.enumerated() {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = "size \(size)"
                book["isbn"] = "\(n)"
                book["cover"] = ExternalStorageFolder.bytes(size, seed: UInt64(n))
                book["thumbnail"] = ExternalStorageFolder.bytes(2 * ExternalStorageFolder.threshold, seed: 99)
            }
            try context.save()
        }
        let raw = try folder.rows(
            "SELECT isbn, typeof(cover), cover, typeof(thumbnail) FROM Book ORDER BY isbn")
        #expect(
            raw.map { $0[1] } == [
                .text("blob"), .text("blob"), .text("blob"), .text("blob"), .text("text"),
                .text("text"),
            ])
        #expect(
            raw.allSatisfy { $0[3] == .text("blob") },
            "an attribute without external storage stays inline")
        // The row reads clearly in the shell: which file, how many bytes.
        let reference = try #require(raw[4][2].textValue)
        #expect(reference.hasPrefix("external:") && reference.hasSuffix(":\(ExternalStorageFolder.threshold + 1)"))
        let fileName = try #require(ExternalDataStore.Reference(reference)?.fileName)
        #expect(
            folder.externalFiles()
                == Set([
                    fileName,
                    try #require(
                        raw[5][2].textValue.flatMap(ExternalDataStore.Reference.init)?.fileName),
                ]))
        #expect(
            try Data(contentsOf: folder.externalDirectory.appendingPathComponent(fileName))
                == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 4))

        let context = try folder.open().viewContext
        let books = try context.fetch(
            FetchRequest(entityName: "Book", sortDescriptors: [SortKey("isbn")]))
        #expect(books.count == sizes.count)
        for (n, size) in sizes.enumerated() {
            #expect(books[n]["cover"] as? Data == ExternalStorageFolder.bytes(size, seed: UInt64(n)), "size \(size)")
            #expect(books[n]["thumbnail"] as? Data == ExternalStorageFolder.bytes(2 * ExternalStorageFolder.threshold, seed: 99))
        }
    }

    @Test func aLargeTransformableValueAlsoGoesToAFile() throws {
        let folder = try ExternalStorageFolder()
        let words = (0..<30_000).map { "word\($0)" }
        do {
            let context = try folder.open().viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Lexicon"
            book["extra"] = words
            try context.save()
        }
        #expect(try folder.rows("SELECT typeof(extra) FROM Book") == [[.text("text")]])
        #expect(folder.externalFiles().count == 1)
        let book = try #require(
            try folder.open().viewContext.fetch(FetchRequest(entityName: "Book")).first)
        #expect(book.decodedValue(forKey: "extra", as: [String].self) == words)
    }

    @Test func anInMemoryStoreKeepsEveryValueInline() throws {
        let container = try PersistentContainer(model: ExternalStorageFolder.model(), storeURL: nil)
        let context = container.viewContext
        #expect(context.sqliteStore.externalData == nil)
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "In memory"
        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold * 2)
        try context.save()
        #expect(
            try context.storeConnection.query("SELECT typeof(cover) FROM Book") == [[.text("blob")]])
        context.reset()
        let fetched = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        #expect(fetched["cover"] as? Data == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold * 2))
    }

    @Test func filesAppearOnSaveAndDisappearWithTheirObjects() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        let kept = try context.insertObject(forEntityName: "Book")
        kept["title"] = "Kept"
        kept["isbn"] = "1"
        kept["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 10, seed: 1)
        let doomed = try context.insertObject(forEntityName: "Book")
        doomed["title"] = "Doomed"
        doomed["isbn"] = "2"
        doomed["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 20, seed: 2)
        #expect(folder.externalFiles().isEmpty, "nothing is written before the save")
        try context.save()
        #expect(folder.externalFiles().count == 2)
        let keptFile = try folder.fileName(title: "Kept")

        context.delete(doomed)
        #expect(folder.externalFiles().count == 2, "nothing is removed before the save")
        try context.save()
        #expect(folder.externalFiles() == [keptFile])
        #expect(
            try folder.open().viewContext.fetch(FetchRequest(entityName: "Book")).first?["cover"]
                as? Data
                == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 10, seed: 1))
    }

    @Test func replacingAValueRemovesTheOldFileAfterTheCommit() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Changing"
        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 1)
        try context.save()
        let first = try folder.fileName(title: "Changing")

        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 2, seed: 2)
        try context.save()
        let second = try folder.fileName(title: "Changing")
        #expect(second != first, "a value is never overwritten in place")
        #expect(folder.externalFiles() == [second])

        book["cover"] = ExternalStorageFolder.bytes(10, seed: 3)
        try context.save()
        #expect(
            folder.externalFiles().isEmpty, "a value that shrinks below the threshold moves inline")
        #expect(try folder.rows("SELECT typeof(cover) FROM Book") == [[.text("blob")]])

        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 3, seed: 4)
        try context.save()
        book["cover"] = nil
        try context.save()
        #expect(folder.externalFiles().isEmpty)
        #expect(try folder.rows("SELECT typeof(cover) FROM Book") == [[.text("null")]])
    }

    @Test func aFailedValidationWritesNoFile() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Saved"
        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 1)
        try context.save()
        let before = folder.externalFiles()

        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 2, seed: 2)
        let bad = try context.insertObject(forEntityName: "Book")
        bad["title"] = String(repeating: "x", count: 41)
        bad["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 3, seed: 3)
        #expect(throws: ValidationError.self) { try context.save() }
        #expect(folder.externalFiles() == before)
        #expect(book.hasChanges, "the context keeps its changes")
    }

    @Test func aConstraintConflictRemovesTheFilesItWroteAndKeepsTheOldOnes() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        for (isbn, seed) in [("1", UInt64(1)), ("2", UInt64(2))] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Book \(isbn)"
            book["isbn"] = isbn
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: seed)
        }
        try context.save()
        let before = folder.externalFiles()
        let rowsBefore = try folder.rows("SELECT _id, isbn, cover FROM Book ORDER BY _id")
        #expect(before.count == 2)

        // An insert that conflicts with a stored row: its file is written, then the INSERT fails.
        let duplicate = try context.insertObject(forEntityName: "Book")
        duplicate["title"] = "Duplicate"
        duplicate["isbn"] = "1"
        duplicate["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 5, seed: 5)
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        #expect(folder.externalFiles() == before)
        #expect(try folder.rows("SELECT _id, isbn, cover FROM Book ORDER BY _id") == rowsBefore)

        // An update that conflicts: its new file is removed and the old one, whose removal
        // waited for a commit that never came, is kept.
        context.delete(duplicate)
        let second = try #require(
            try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("isbn")]))
                .last)
        second["isbn"] = "1"
        second["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 6, seed: 6)
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        #expect(folder.externalFiles() == before)
        #expect(try folder.rows("SELECT _id, isbn, cover FROM Book ORDER BY _id") == rowsBefore)

        // Fixed and saved again, the new value replaces the old file.
        second["isbn"] = "3"
        try context.save()
        #expect(folder.externalFiles().count == 2)
        #expect(folder.externalFiles() != before)
        let reread = try #require(
            try folder.open().viewContext.fetch(
                FetchRequest(entityName: "Book", sortDescriptors: [SortKey("isbn")])
            ).last)
        #expect(reread["cover"] as? Data == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 6, seed: 6))
    }

    @Test func turningExternalStorageOffStillReadsAndThenRetiresTheOldFiles() throws {
        // The flag is not part of the version hash (as in Core Data), so a model without it
        // opens a store written with it: old values still read, new ones stay inline.
        let folder = try ExternalStorageFolder()
        do {
            let context = try folder.open().viewContext
            for isbn in ["1", "2"] {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = "Book \(isbn)"
                book["isbn"] = isbn
                book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 1)
            }
            try context.save()
        }
        #expect(folder.externalFiles().count == 2)
        var model = ExternalStorageFolder.model()
        var entity = try #require(model.entity(named: "Book"))
        let index = try #require(entity.attributes.firstIndex { $0.name == "cover" })
        entity.attributes[index].allowsExternalBinaryDataStorage = false
        model = ManagedObjectModel(entities: [entity])
        #expect(model.entityVersionHashesByName == ExternalStorageFolder.model().entityVersionHashesByName)

        let container = try PersistentContainer(model: model, storeURL: folder.storeURL)
        let context = container.viewContext
        let books = try context.fetch(
            FetchRequest(entityName: "Book", sortDescriptors: [SortKey("isbn")]))
        #expect(
            books.map { $0["cover"] as? Data }
                == Array(repeating: ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 1), count: 2))
        books[0]["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 2, seed: 2)
        context.delete(books[1])
        try context.save()
        #expect(folder.externalFiles().isEmpty)
        #expect(try folder.rows("SELECT typeof(cover) FROM Book") == [[.text("blob")]])
    }

    @Test func subEntitiesSharingARootTableStoreTheirOwnValuesOutside() throws {
        let model = ManagedObjectModel {
            Entity("Media") { Attribute("name", .string) }
            Entity("Photo", parent: "Media") {
                Attribute("image", .binaryData, allowsExternalStorage: true)
            }
            Entity("Recording", parent: "Media") {
                Attribute("clip", .binaryData, allowsExternalStorage: true)
            }
        }
        let folder = try ExternalStorageFolder()
        do {
            let context = try folder.open(model: model).viewContext
            let photo = try context.insertObject(forEntityName: "Photo")
            photo["name"] = "photo"
            photo["image"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 1)
            let recording = try context.insertObject(forEntityName: "Recording")
            recording["name"] = "recording"
            recording["clip"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 2, seed: 2)
            try context.save()
        }
        #expect(folder.externalFiles().count == 2)
        let raw = try folder.rows(
            "SELECT _entity, typeof(image), typeof(clip) FROM Media ORDER BY _entity")
        #expect(
            raw == [
                [.text("Photo"), .text("text"), .text("null")],
                [.text("Recording"), .text("null"), .text("text")],
            ])

        let context = try folder.open(model: model).viewContext
        let photo = try #require(try context.fetch(FetchRequest(entityName: "Photo")).first)
        let recording = try #require(try context.fetch(FetchRequest(entityName: "Recording")).first)
        #expect(photo["image"] as? Data == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 1))
        #expect(recording["clip"] as? Data == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 2, seed: 2))
        context.delete(photo)
        try context.save()
        #expect(folder.externalFiles().count == 1)
        #expect(try context.checkExternalData().isConsistent)
    }

    @Test func aRefusedNestedTransactionKeepsTheOuterTransactionsFiles() throws {
        let folder = try ExternalStorageFolder()
        let store = try folder.open().viewContext.sqliteStore
        let mapping = try #require(store.schema.entities["Book"])
        var columns = [SQLiteValue](repeating: .null, count: mapping.table.columns.count)
        let title = try #require(mapping.table.columns.firstIndex { $0.name == "title" })
        let cover = try #require(mapping.table.columns.firstIndex { $0.name == "cover" })
        columns[title] = .text("Outer")
        columns[cover] = .blob(ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1))
        try store.writeTransaction {
            try store.insertRow(mapping, primaryKey: 1, columns: columns)
            #expect(throws: SQLiteError.self) { try store.writeTransaction {} }
        }
        #expect(folder.externalFiles() == [try folder.fileName(title: "Outer")])
        #expect(try store.checkExternalData().isConsistent)
    }

    @Test func rowsWrittenOutsideAStoreWriteTransactionNeverLoseTheirFiles() throws {
        let folder = try ExternalStorageFolder()
        let store = try folder.open().viewContext.sqliteStore
        let mapping = try #require(store.schema.entities["Book"])
        let titleIndex = try #require(mapping.table.columns.firstIndex { $0.name == "title" })
        let cover = try #require(mapping.table.columns.firstIndex { $0.name == "cover" })
        func columns(_ title: String) -> [SQLiteValue] {
            var columns = [SQLiteValue](repeating: .null, count: mapping.table.columns.count)
            columns[titleIndex] = .text(title)
            columns[cover] = .blob(ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1))
            return columns
        }
        // A plain SQLite transaction the store does not track: committed, then rolled back.
        try store.database.inTransaction(.immediate) {
            try store.insertRow(mapping, primaryKey: 1, columns: columns("Committed"))
        }
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try store.database.inTransaction(.immediate) {
                try store.insertRow(mapping, primaryKey: 2, columns: columns("Abandoned"))
                throw Abandon()
            }
        }
        // A later failed store transaction must not take the committed row's file with it.
        #expect(throws: Abandon.self) { try store.writeTransaction { throw Abandon() } }
        let check = try store.checkExternalData()
        #expect(check.missingFiles.isEmpty)
        #expect(check.orphanedFiles.count == 1, "the abandoned row's file waits for the sweep")
        let reopened = try folder.open().viewContext.sqliteStore
        #expect(try reopened.checkExternalData().isConsistent)
        #expect(folder.externalFiles() == [try folder.fileName(title: "Committed")])
    }

    @Test func aFolderAnotherConnectionCreatedIsNoticedAtTheNextSave() throws {
        let folder = try ExternalStorageFolder()
        let first = try folder.open().viewContext
        #expect(first.sqliteStore.externalData?.mayHoldFiles == false, "no folder: deletes read nothing")
        do {
            let second = try folder.open().viewContext
            let book = try second.insertObject(forEntityName: "Book")
            book["title"] = "From elsewhere"
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
            try second.save()
            #expect(second.sqliteStore.externalData?.mayHoldFiles == true)
        }
        #expect(folder.externalFiles().count == 1)
        let book = try #require(try first.fetch(FetchRequest(entityName: "Book")).first)
        first.delete(book)
        try first.save()
        #expect(folder.externalFiles().isEmpty)
    }

    @Test func aFileThatCannotBeWrittenFailsTheSaveClearly() throws {
        let folder = try ExternalStorageFolder()
        // A plain file where the data folder should be: the folder cannot be created.
        let support = folder.externalDirectory.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        try Data("in the way".utf8).write(to: folder.externalDirectory)
        let context = try folder.open().viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Unwritable"
        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
        let error = try #require(throws: StoreError.self) { try context.save() }
        #expect(error.description.contains("Book.cover could not be written"))
        #expect(error.description.contains("_EXTERNAL_DATA"))
        #expect(try folder.count("Book") == 0)
        #expect(book.hasChanges)
    }

    @Test func orphanedFilesAreSweptWhenTheStoreOpens() throws {
        let folder = try ExternalStorageFolder()
        do {
            let context = try folder.open().viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Referenced"
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
            try context.save()
        }
        let referenced = try folder.fileName(title: "Referenced")
        // What a crash leaves: a file written but never committed, and a temporary file.
        let orphan = UUID().uuidString
        try Data("orphan".utf8).write(to: folder.externalDirectory.appendingPathComponent(orphan))
        try Data("half".utf8).write(
            to: folder.externalDirectory.appendingPathComponent(UUID().uuidString + ".tmp"))
        #expect(folder.externalFiles().count == 3)

        do {
            let readOnly = try folder.open(readOnly: true)
            #expect(folder.externalFiles().count == 3, "a read-only open changes nothing")
            let check = try readOnly.viewContext.checkExternalData()
            #expect(!check.isConsistent)
            #expect(check.orphanedFiles.count == 2 && check.orphanedFiles.contains(orphan))
            #expect(check.missingFiles.isEmpty)
        }
        let container = try folder.open()
        #expect(folder.externalFiles() == [referenced])
        let check = try container.viewContext.checkExternalData()
        #expect(check.isConsistent, "\(check)")
        #expect(check.referenceCount == 1)
        #expect(
            try container.viewContext.fetch(FetchRequest(entityName: "Book")).first?["cover"]
                as? Data
                == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1))
    }

    @Test func aMissingOrTruncatedFileIsAClearErrorNamingObjectAttributeAndFile() throws {
        let folder = try ExternalStorageFolder()
        do {
            let context = try folder.open().viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Lost"
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
            try context.save()
        }
        let file = folder.externalDirectory.appendingPathComponent(
            try folder.fileName(title: "Lost"))
        try Data("short".utf8).write(to: file)
        let truncated = try #require(throws: StoreError.self) {
            try folder.open().viewContext.fetch(FetchRequest(entityName: "Book"))
        }
        #expect(
            truncated.description.contains("holds 5 bytes where \(ExternalStorageFolder.threshold + 1) were written")
        )

        try FileManager.default.removeItem(at: file)
        let container = try folder.open()
        let check = try container.viewContext.checkExternalData()
        #expect(check.missingFiles.count == 1 && check.missingFiles[0].hasPrefix("Book/p1.cover"))
        let missing = try #require(throws: StoreError.self) {
            try container.viewContext.fetch(FetchRequest(entityName: "Book"))
        }
        guard case .unreadableExternalData(let object, let attribute, let path, _) = missing else {
            Issue.record("expected unreadableExternalData, got \(missing)")
            return
        }
        #expect(object == "Book/p1")
        #expect(attribute == "Book.cover")
        #expect(path == file.path)
        #expect(missing.description.contains("the file is missing"))
    }

    /// A fault cannot throw from a getter: when its row cannot be read it stays a fault in
    /// its context (not taken for a deleted object) and loads once the file is back.
    @Test func aFaultWhoseFileIsMissingStaysAFaultUntilTheFileIsBack() throws {
        let folder = try ExternalStorageFolder()
        let cover = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
        let id: ObjectID
        do {
            let context = try folder.open().viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Back"
            book["cover"] = cover
            try context.save()
            id = book.objectID
        }
        let file = folder.externalDirectory.appendingPathComponent(try folder.fileName(title: "Back"))
        let saved = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)

        let context = try folder.open().viewContext
        // IDs come from keys alone: no row is decoded, so the missing file does not matter.
        #expect(try context.fetchObjectIDs(FetchRequest(entityName: "Book")) == [id])
        let book = try context.object(with: id)
        #expect(book["cover"] == nil)
        #expect(book.isFault)
        #expect(book.managedObjectContext === context)

        try saved.write(to: file)
        #expect(book["cover"] as? Data == cover)
        #expect(!book.isFault)
        #expect(book["title"] as? String == "Back")
    }

    @Test func referencesParseOnlyInTheirExactForm() {
        let id = UUID()
        let reference = ExternalDataStore.Reference(identifier: id, byteCount: 123)
        #expect(reference.description == "external:\(id.uuidString):123")
        #expect(ExternalDataStore.Reference(reference.description) == reference)
        for text in [
            "", "external:", "external:\(id.uuidString)", "external:\(id.uuidString):-1",
            "external:\(id.uuidString):12:3", "external:not-a-uuid:12",
            "EXTERNAL:\(id.uuidString):1",
            "external:\(id.uuidString):1x",
        ] {
            #expect(ExternalDataStore.Reference(text) == nil, "\(text)")
        }
        #expect(
            ExternalDataStore.directory(forStorePath: "/data/Books.sqlite")
                == "/data/.Books.sqlite_SUPPORT/_EXTERNAL_DATA")
    }
}
