import Foundation
import PersistenceTestSupport
import Testing
import Persistence
import PersistenceSQLite

/// What each merge policy does with an inserted object whose unique values are stored, or
/// held by another object of the same save.
@Suite struct MergePolicyUniquenessTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("isbn", .string)
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("tags", to: "Tag", inverse: "books", toMany: true)
                UniquenessConstraint("isbn")
            }
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "tags", toMany: true)
            }
        }
    }

    /// A store holding book 1 "first", and a fresh container on it that has read nothing.
    struct StoredBook {
        let store = TemporaryStore()
        let container: PersistentContainer
        var context: ManagedObjectContext { container.viewContext }

        init() throws {
            let seed = try PersistentContainer(model: MergePolicyUniquenessTests.model(), storeURL: store.url)
            let first = try seed.viewContext.insertObject(forEntityName: "Book")
            first["isbn"] = "1"
            first["title"] = "first"
            try seed.viewContext.save()
            container = try PersistentContainer(model: MergePolicyUniquenessTests.model(), storeURL: store.url)
        }

        /// Inserts book 1 "second" under `policy`.
        func insertDuplicate(under policy: MergePolicy) throws -> ManagedObject {
            context.mergePolicy = policy
            let second = try context.insertObject(forEntityName: "Book")
            second["isbn"] = "1"
            second["title"] = "second"
            return second
        }

        /// isbn, title and version of every stored book.
        func rows() throws -> [[SQLiteValue]] { try store.rows("SELECT isbn, title, _opt FROM Book ORDER BY _id") }
    }

    @Test(arguments: [MergePolicy.mergeByPropertyObjectTrump, .overwrite])
    func objectTrumpAndOverwriteTakeTheStoredRowOver(policy: MergePolicy) throws {
        let stored = try StoredBook()
        _ = try stored.insertDuplicate(under: policy)
        try stored.context.save()
        #expect(try stored.rows() == [[.text("1"), .text("second"), .integer(2)]])
    }

    @Test func theErrorPolicyRefusesTheDuplicate() throws {
        let stored = try StoredBook()
        let second = try stored.insertDuplicate(under: .error)
        #expect(throws: ConstraintConflictError.self) { try stored.context.save() }
        #expect(try stored.rows() == [[.text("1"), .text("first"), .integer(1)]])
        #expect(second.isInserted && second["title"] as? String == "second")
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func storeTrumpAndRollbackKeepTheStoredRowAndTheInsertBecomesItsObject(policy: MergePolicy) throws {
        let stored = try StoredBook()
        let second = try stored.insertDuplicate(under: policy)
        try stored.context.save()
        #expect(try stored.rows() == [[.text("1"), .text("first"), .integer(1)]])
        #expect(!second.isInserted && !second.hasChanges && second.managedObjectContext === stored.context)
        #expect(second["title"] as? String == "first")
        let fetched = try stored.context.fetch(FetchRequest(entityName: "Book"))
        #expect(fetched.count == 1 && fetched.first === second)
        #expect(try stored.context.existingObject(with: second.objectID) === second)
        // It read the row's version: editing it again is no conflict.
        stored.context.mergePolicy = .error
        second["title"] = "edited"
        try stored.context.save()
        #expect(try stored.rows() == [[.text("1"), .text("edited"), .integer(2)]])
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func aDuplicateOfARowTheContextHoldsIsMergedIntoThatObjectAndLeaves(policy: MergePolicy) throws {
        let stored = try StoredBook()
        let first = try #require(try stored.context.fetch(FetchRequest(entityName: "Book")).first)
        let second = try stored.insertDuplicate(under: policy)
        try stored.context.save()
        #expect(try stored.rows() == [[.text("1"), .text("first"), .integer(1)]])
        // One object per row: the one the context held stays; the duplicate reads nothing.
        #expect(second.managedObjectContext == nil && second["title"] == nil)
        #expect(try stored.context.existingObject(with: first.objectID) === first)
        #expect(first["title"] as? String == "first" && !stored.context.hasChanges)
    }

    @Test func theDuplicatesRelationshipsAreTheRows() throws {
        let stored = try StoredBook()
        let author = try stored.context.insertObject(forEntityName: "Author")
        author["name"] = "Ann"
        let tag = try stored.context.insertObject(forEntityName: "Tag")
        tag["name"] = "classic"
        let second = try stored.insertDuplicate(under: .mergeByPropertyStoreTrump)
        second.setObject(author, forKey: "author")
        second.addObject(tag, forKey: "tags")
        try stored.context.save()
        // The row keeps its own (no) author; the new author and tag were saved all the same.
        #expect(second.object(forKey: "author") == nil)
        #expect(author.objects(forKey: "books").isEmpty)
        #expect(try stored.store.rows("SELECT count(*) FROM Author") == [[.integer(1)]])
        #expect(try stored.store.count("Tag", MergePolicyUniquenessTests.model()) == 1)
        // The tag's own side of the many-to-many is its edit: it links to the row.
        #expect(tag.objects(forKey: "books").map(\.objectID) == [second.objectID])
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func twoInsertedDuplicatesSaveTheFirstAndMergeTheSecondIntoIt(policy: MergePolicy) throws {
        let stored = try StoredBook()
        stored.context.mergePolicy = policy
        var books: [ManagedObject] = []
        for title in ["new", "newer"] {
            let book = try stored.context.insertObject(forEntityName: "Book")
            book["isbn"] = "2"
            book["title"] = title
            books.append(book)
        }
        try stored.context.save()
        #expect(try stored.rows().last == [.text("2"), .text("new"), .integer(1)])
        #expect(try stored.rows().count == 2)
        #expect(books[0].managedObjectContext === stored.context && books[0]["title"] as? String == "new")
        #expect(books[1].managedObjectContext == nil && books[1]["title"] == nil)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func anInsertDuplicatingAnEditedObjectIsMergedIntoItAndTheEditSaved(policy: MergePolicy) throws {
        let stored = try StoredBook()
        let first = try #require(try stored.context.fetch(FetchRequest(entityName: "Book")).first)
        first["title"] = "edited"
        let second = try stored.insertDuplicate(under: policy)
        try stored.context.save()
        #expect(try stored.rows() == [[.text("1"), .text("edited"), .integer(2)]])
        #expect(second.managedObjectContext == nil)
    }

    @Test func anInsertReplacingABookTheSameSaveDeletesIsRefusedAsUnderError() throws {
        let stored = try StoredBook()
        let first = try #require(try stored.context.fetch(FetchRequest(entityName: "Book")).first)
        stored.context.delete(first)
        _ = try stored.insertDuplicate(under: .mergeByPropertyStoreTrump)
        #expect(throws: ConstraintConflictError.self) { try stored.context.save() }
        #expect(try stored.rows() == [[.text("1"), .text("first"), .integer(1)]])
        #expect(first.isDeleted && stored.context.insertedObjects.count == 1)
    }

    @Test func aDuplicateOfAnotherSubEntitysRowLeavesTheContextAndTheRowStays() throws {
        let model = ManagedObjectModel {
            Entity("Item") {
                Attribute("code", .string)
                UniquenessConstraint("code")
            }
            Entity("Book", parent: "Item") { Attribute("title", .string) }
            Entity("Film", parent: "Item") { Attribute("director", .string) }
        }
        let store = TemporaryStore()
        let context = try PersistentContainer(model: model, storeURL: store.url).viewContext
        let film = try context.insertObject(forEntityName: "Film")
        film["code"] = "1"
        try context.save()
        let filmID = film.objectID
        context.reset()
        context.mergePolicy = .mergeByPropertyStoreTrump
        let book = try context.insertObject(forEntityName: "Book")
        book["code"] = "1"
        book["title"] = "Dune"
        try context.save()
        #expect(book.managedObjectContext == nil && book["title"] == nil)
        #expect(try context.existingObject(with: filmID).entityName == "Film")
        #expect(try store.count("Item", model) == 1)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func aSaveThatFailsAfterMergingAConflictLeavesTheObjectsAsTheyWere(policy: MergePolicy) throws {
        let stored = try StoredBook()
        let other = try stored.context.insertObject(forEntityName: "Book")
        other["isbn"] = "2"
        try stored.context.save()
        let bookOne = FetchRequest(entityName: "Book", predicate: try FetchPredicate("isbn == '1'"))
        let first = try #require(try stored.context.fetch(bookOne).first)
        // Another container changes book 1; here book 1 is edited and deleted in turn, and
        // book 2 takes book 1's ISBN, which the store's UNIQUE index refuses after the merge.
        let theirs = try PersistentContainer(model: MergePolicyUniquenessTests.model(), storeURL: stored.store.url)
        let theirFirst = try theirs.viewContext.existingObject(with: first.objectID)
        theirFirst["title"] = "theirs"
        try theirs.viewContext.save()
        stored.context.mergePolicy = policy
        first["title"] = "mine"
        other["isbn"] = "1"
        #expect(throws: ConstraintConflictError.self) { try stored.context.save() }
        #expect(first["title"] as? String == "mine" && first.hasChanges)
        // Its version is the one it read: under .error the conflict is still there.
        other["isbn"] = "2"
        stored.context.mergePolicy = .error
        #expect(throws: MergeConflictError.self) { try stored.context.save() }

        stored.context.delete(first)
        other["isbn"] = "1"
        stored.context.mergePolicy = policy
        #expect(throws: ConstraintConflictError.self) { try stored.context.save() }
        #expect(first.isDeleted && first["title"] as? String == "mine")
    }

    @Test func anInsertDuplicatingAnEditedObjectWhoseRowAnotherContextDeletedIsSaved() throws {
        let stored = try StoredBook()
        let first = try #require(try stored.context.fetch(FetchRequest(entityName: "Book")).first)
        let theirs = try PersistentContainer(model: MergePolicyUniquenessTests.model(), storeURL: stored.store.url)
        theirs.viewContext.delete(try theirs.viewContext.existingObject(with: first.objectID))
        try theirs.viewContext.save()
        first["title"] = "edited"
        let second = try stored.insertDuplicate(under: .mergeByPropertyStoreTrump)
        try stored.context.save()
        // The edited book went with its row; the new one stands for ISBN 1 now.
        #expect(first.managedObjectContext == nil)
        #expect(second.managedObjectContext === stored.context && !second.isInserted)
        #expect(try stored.store.rows("SELECT isbn, title FROM Book") == [[.text("1"), .text("second")]])
    }

    @Test(arguments: [MergePolicy.error, .mergeByPropertyObjectTrump, .overwrite])
    func twoInsertedDuplicatesAreRefusedUnderTheOtherPolicies(policy: MergePolicy) throws {
        let stored = try StoredBook()
        stored.context.mergePolicy = policy
        for title in ["new", "newer"] {
            let book = try stored.context.insertObject(forEntityName: "Book")
            book["isbn"] = "2"
            book["title"] = title
        }
        #expect(throws: ConstraintConflictError.self) { try stored.context.save() }
        #expect(stored.context.insertedObjects.count == 2)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func aBatchInsertSkipsRowsWhoseUniqueValuesAreStored(policy: MergePolicy) throws {
        let stored = try StoredBook()
        stored.context.mergePolicy = policy
        let isbns = ["0", "1", "2"]
        let request = BatchInsertRequest(entityName: "Book", count: isbns.count) { index, row in
            try row.setValue(isbns[index], forKey: "isbn")
            try row.setValue("batch", forKey: "title")
        }
        try stored.context.execute(request)
        #expect(try stored.store.rows("SELECT isbn, title, _opt FROM Book ORDER BY isbn")
            == [[.text("0"), .text("batch"), .integer(1)], [.text("1"), .text("first"), .integer(1)],
                [.text("2"), .text("batch"), .integer(1)]])
    }
}
