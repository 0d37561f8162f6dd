import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Two containers on one store file edit the same book: a save whose rows changed or
/// vanished since they were read is a conflict, resolved as Core Data's merge policies do.
@Suite struct OptimisticLockingTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "year", type: .integer32),
                    AttributeDescription(name: "notes", type: .string),
                ])
        ])
    }

    /// A store with one book, and two containers that have both read it.
    struct TwoEditors {
        let store = TemporaryStore()
        let mine: PersistentContainer
        let theirs: PersistentContainer
        let myBook: ManagedObject
        let theirBook: ManagedObject

        init() throws {
            let seed = try PersistentContainer(model: OptimisticLockingTests.model(), storeURL: store.url)
            let book = try seed.viewContext.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            book["year"] = Int32(1965)
            book["notes"] = "seed"
            try seed.viewContext.save()
            mine = try PersistentContainer(model: OptimisticLockingTests.model(), storeURL: store.url)
            theirs = try PersistentContainer(model: OptimisticLockingTests.model(), storeURL: store.url)
            myBook = try #require(try mine.viewContext.fetch(FetchRequest(entityName: "Book")).first)
            theirBook = try #require(try theirs.viewContext.fetch(FetchRequest(entityName: "Book")).first)
        }

        /// They change title and year and save; I change title and notes.
        func editBothSides() throws {
            theirBook["title"] = "Dune (theirs)"
            theirBook["year"] = Int32(1966)
            try theirs.viewContext.save()
            myBook["title"] = "Dune (mine)"
            myBook["notes"] = "mine"
        }

        /// The book as a fresh container reads it: title, year, notes.
        func stored() throws -> (String?, Int32?, String?) {
            let reader = try PersistentContainer(model: OptimisticLockingTests.model(), storeURL: store.url)
            let book = try #require(try reader.viewContext.fetch(FetchRequest(entityName: "Book")).first)
            return (book["title"] as? String, book.value(forKey: "year", as: Int32.self), book["notes"] as? String)
        }
    }

    @Test func aChangedRowRefusesTheSaveUnderErrorNamingEachDifferingProperty() throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        let error = try #require(throws: MergeConflictError.self) { try editors.mine.viewContext.save() }
        #expect(error.conflicts.count == 1)
        let conflict = try #require(error.conflicts.first)
        #expect(conflict.entity == "Book" && !conflict.rowDeleted)
        let properties = Dictionary(uniqueKeysWithValues: conflict.properties.map { ($0.name, $0) })
        #expect(Set(properties.keys) == ["title", "year"])
        #expect(properties["title"]?.objectValue == "\"Dune (mine)\"")
        #expect(properties["title"]?.storeValue == "\"Dune (theirs)\"")
        #expect(properties["year"]?.objectValue == "1965" && properties["year"]?.storeValue == "1966")
        #expect(error.description.contains("title: object \"Dune (mine)\", store \"Dune (theirs)\""))
        // Their save stands; my changes are kept for another try.
        #expect(try editors.stored() == ("Dune (theirs)", 1966, "seed"))
        #expect(editors.myBook.hasChanges && editors.myBook["title"] as? String == "Dune (mine)")
    }

    @Test func aRefusedSaveLeavesTheStoreFileByteForByteAndTheContextsChangesIntact() throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        let files = [editors.store.url.path, editors.store.url.path + "-wal"]
        func bytes() -> [Data?] { files.map { FileManager.default.contents(atPath: $0) } }
        let before = bytes()
        #expect(throws: MergeConflictError.self) { try editors.mine.viewContext.save() }
        #expect(bytes() == before)
        let context = editors.mine.viewContext
        #expect(context.updatedObjects.count == 1)
        #expect(editors.myBook["title"] as? String == "Dune (mine)" && editors.myBook["notes"] as? String == "mine")
        #expect(editors.myBook.value(forKey: "year", as: Int32.self) == 1965)
    }

    @Test func storeTrumpKeepsTheStoresValueWhereBothChangedAndMyOtherChanges() throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        editors.mine.viewContext.mergePolicy = .mergeByPropertyStoreTrump
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune (theirs)", 1966, "mine"))
        #expect(editors.myBook["title"] as? String == "Dune (theirs)" && !editors.myBook.hasChanges)
    }

    @Test func objectTrumpKeepsMyChangesAndTheStoresOtherValues() throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        editors.mine.viewContext.mergePolicy = .mergeByPropertyObjectTrump
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune (mine)", 1966, "mine"))
        #expect(editors.myBook.value(forKey: "year", as: Int32.self) == 1966)
    }

    @Test func overwriteWritesMyWholeState() throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        editors.mine.viewContext.mergePolicy = .overwrite
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune (mine)", 1965, "mine"))
    }

    @Test func rollbackDiscardsMyChangesForTheStoresState() throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        editors.mine.viewContext.mergePolicy = .rollback
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune (theirs)", 1966, "seed"))
        #expect(editors.myBook["title"] as? String == "Dune (theirs)" && editors.myBook["notes"] as? String == "seed")
        #expect(!editors.myBook.hasChanges)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback])
    func aResolvedSaveLeavesTheObjectAtTheRowsNewVersion(policy: MergePolicy) throws {
        let editors = try TwoEditors()
        try editors.editBothSides()
        editors.mine.viewContext.mergePolicy = policy
        try editors.mine.viewContext.save()
        // Saved again under .error: no conflict with my own save.
        editors.mine.viewContext.mergePolicy = .error
        editors.myBook["notes"] = "again"
        try editors.mine.viewContext.save()
        #expect(try editors.stored().2 == "again")
        // Theirs is now stale.
        editors.theirBook["notes"] = "stale"
        #expect(throws: MergeConflictError.self) { try editors.theirs.viewContext.save() }
    }

    @Test func savesInARowFromOneContextNeverConflictWithThemselves() throws {
        let editors = try TwoEditors()
        for year in Int32(1970)...1975 {
            editors.myBook["year"] = year
            try editors.mine.viewContext.save()
        }
        #expect(try editors.stored().1 == 1975)
    }

    @Test func editingABookTheOtherContextDeletedIsReportedAsADeletedRow() throws {
        let editors = try TwoEditors()
        editors.theirs.viewContext.delete(editors.theirBook)
        try editors.theirs.viewContext.save()
        editors.myBook["title"] = "Dune (mine)"
        let error = try #require(throws: MergeConflictError.self) { try editors.mine.viewContext.save() }
        #expect(error.conflicts.map(\.rowDeleted) == [true])
        #expect(error.description.contains("was deleted from the store"))
        #expect(editors.myBook.hasChanges)
        // Under a merging policy the delete stands and the book leaves my context.
        editors.mine.viewContext.mergePolicy = .mergeByPropertyObjectTrump
        try editors.mine.viewContext.save()
        #expect(editors.myBook.managedObjectContext == nil)
        #expect(try editors.store.rows("SELECT count(*) FROM Book").first?.first == .integer(0))
    }

    @Test func deletingABookTheOtherContextChangedIsAConflictUnderError() throws {
        let editors = try TwoEditors()
        editors.theirBook["year"] = Int32(2000)
        try editors.theirs.viewContext.save()
        editors.mine.viewContext.delete(editors.myBook)
        let error = try #require(throws: MergeConflictError.self) { try editors.mine.viewContext.save() }
        #expect(error.conflicts.first?.properties.map(\.name) == ["year"])
        #expect(try editors.stored().1 == 2000)
        editors.mine.viewContext.mergePolicy = .mergeByPropertyStoreTrump
        try editors.mine.viewContext.save()
        #expect(try editors.store.rows("SELECT count(*) FROM Book").first?.first == .integer(0))
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback])
    func aBookTheOtherContextDeletedLeavesMyContextAndReadsNothing(policy: MergePolicy) throws {
        let editors = try TwoEditors()
        editors.theirs.viewContext.delete(editors.theirBook)
        try editors.theirs.viewContext.save()
        editors.myBook["title"] = "Dune (mine)"
        editors.mine.viewContext.mergePolicy = policy
        try editors.mine.viewContext.save()
        #expect(editors.myBook.managedObjectContext == nil && !editors.myBook.hasChanges)
        #expect(editors.myBook["title"] == nil && editors.myBook["notes"] == nil)
        #expect(!editors.mine.viewContext.hasChanges)
        #expect(try editors.store.rows("SELECT count(*) FROM Book") == [[.integer(0)]])
    }

    @Test func relationshipsThatHeldABookTheOtherContextDeletedLoseIt() throws {
        let model = ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
            }
        }
        let store = TemporaryStore()
        let mine = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let author = try mine.insertObject(forEntityName: "Author")
        let book = try mine.insertObject(forEntityName: "Book")
        book.setObject(author, forKey: "author")
        try mine.save()
        let theirs = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let theirBook = try theirs.existingObject(with: book.objectID)
        theirs.delete(theirBook)
        try theirs.save()
        #expect(author.objects(forKey: "books").count == 1)
        book["title"] = "edited"
        mine.mergePolicy = .mergeByPropertyObjectTrump
        try mine.save()
        #expect(book.managedObjectContext == nil)
        #expect(author.objects(forKey: "books").isEmpty)
    }

    @Test func rollbackUndoesMyDeleteOfABookTheOtherContextChanged() throws {
        let editors = try TwoEditors()
        editors.theirBook["year"] = Int32(2000)
        try editors.theirs.viewContext.save()
        editors.mine.viewContext.delete(editors.myBook)
        editors.mine.viewContext.mergePolicy = .rollback
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune", 2000, "seed"))
        #expect(!editors.myBook.isDeleted && !editors.myBook.hasChanges)
        #expect(editors.myBook.managedObjectContext === editors.mine.viewContext)
        #expect(editors.myBook.value(forKey: "year", as: Int32.self) == 2000)
        // It holds the row's version: a later edit saves without a conflict.
        editors.mine.viewContext.mergePolicy = .error
        editors.myBook["notes"] = "kept"
        try editors.mine.viewContext.save()
        #expect(try editors.stored() == ("Dune", 2000, "kept"))
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite])
    func myDeleteOfABookTheOtherContextChangedProceedsUnderTheOtherPolicies(policy: MergePolicy) throws {
        let editors = try TwoEditors()
        editors.theirBook["year"] = Int32(2000)
        try editors.theirs.viewContext.save()
        editors.mine.viewContext.delete(editors.myBook)
        editors.mine.viewContext.mergePolicy = policy
        try editors.mine.viewContext.save()
        #expect(try editors.store.rows("SELECT count(*) FROM Book") == [[.integer(0)]])
        #expect(editors.myBook.managedObjectContext == nil)
    }

    @Test func theConflictErrorNamesEveryObjectOnALineOfItsOwn() throws {
        let editors = try TwoEditors()
        let second = try editors.theirs.viewContext.insertObject(forEntityName: "Book")
        second["title"] = "Emma"
        try editors.theirs.viewContext.save()
        let mySecond = try editors.mine.viewContext.existingObject(with: second.objectID)
        // They change the first book and delete the second; I edit both.
        editors.theirBook["title"] = "Dune (theirs)"
        editors.theirs.viewContext.delete(second)
        try editors.theirs.viewContext.save()
        editors.myBook["title"] = "Dune (mine)"
        mySecond["title"] = "Emma (mine)"
        let error = try #require(throws: MergeConflictError.self) { try editors.mine.viewContext.save() }
        let conflicts = Dictionary(uniqueKeysWithValues: error.conflicts.map { ($0.object, $0) })
        #expect(conflicts.count == 2)
        let changed = try #require(conflicts[editors.myBook.objectID.description])
        #expect(!changed.rowDeleted && changed.entity == "Book")
        #expect(changed.properties.map(\.name) == ["title"])
        #expect(changed.properties.first?.objectValue == "\"Dune (mine)\"")
        #expect(changed.properties.first?.storeValue == "\"Dune (theirs)\"")
        let deleted = try #require(conflicts[mySecond.objectID.description])
        #expect(deleted.rowDeleted && deleted.properties.isEmpty)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.dropFirst().contains(
            "  \(editors.myBook.objectID) was changed in the store since it was read: "
                + "title: object \"Dune (mine)\", store \"Dune (theirs)\""))
        #expect(lines.dropFirst().contains("  \(mySecond.objectID) was deleted from the store since it was read"))
    }

    @Test func aStoreWrittenBeforeTheVersionColumnOpensUpgradedWithEveryValueKept() throws {
        let editors = try TwoEditors()
        let url = editors.store.url
        // The file as an older version of the store wrote it: no `_opt` column.
        try editors.store.file.write("ALTER TABLE Book DROP COLUMN _opt")
        #expect(try editors.store.rows("SELECT name FROM pragma_table_info('Book')").compactMap { $0[0].textValue }
            == ["_id", "title", "year", "notes"])
        // Read-only, it is read as it is, every row at version 1.
        let reader = try PersistentContainer(model: Self.model(), storeURL: url, readOnly: true)
        #expect(try reader.viewContext.fetch(FetchRequest(entityName: "Book")).first?["title"] as? String == "Dune")
        #expect(try editors.store.rows("SELECT name FROM pragma_table_info('Book')").count == 4)
        // Its first writable open adds the column, and every value stays.
        let upgraded = try PersistentContainer(model: Self.model(), storeURL: url)
        #expect(try editors.store.rows("SELECT name FROM pragma_table_info('Book')").compactMap { $0[0].textValue }
            == ["_id", "title", "year", "notes", "_opt"])
        #expect(try editors.store.rows("SELECT _opt, title, year, notes FROM Book")
            == [[.integer(1), .text("Dune"), .integer(1965), .text("seed")]])
        let book = try #require(try upgraded.viewContext.fetch(FetchRequest(entityName: "Book")).first)
        book["year"] = Int32(1990)
        try upgraded.viewContext.save()
        #expect(try editors.store.rows("SELECT _opt, year FROM Book") == [[.integer(2), .integer(1990)]])
    }
}
