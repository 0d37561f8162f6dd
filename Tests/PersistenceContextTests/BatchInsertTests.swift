import Foundation
import PersistenceTestSupport
import Testing

import Persistence
import PersistenceSQLite

/// `BatchInsertRequest`: rows of one entity filled by a closure and written without objects,
/// through `context.execute(_:)` or in the transaction of `save(inserting:)`.
///
/// Rows still get default values, derived attributes, every validation rule, uniqueness
/// constraints (inside the request always; against the store as the merge policy says), the
/// search index, and to-one links to objects of the context. Every failure names the row
/// ("row N of the Book batch insert") and leaves the store exactly as it was, which these
/// tests check by comparing every table (search index tables included) before and after.
@Suite struct BatchInsertTests {
    // MARK: - Values

    @Test func rowsGetDefaultValuesAndDerivedValuesAndTheCountIsReturned() throws {
        let library = try BatchLibrary()
        let titles = ["Café Crème", "Straße", "Ærø"]
        let request = BatchInsertRequest(entityName: "Book", count: titles.count) { index, row in
            try row.setValue("c\(index)", forKey: "code")
            try row.setValue(titles[index], forKey: "title")
            if index == 1 { try row.setAttribute(Int16(7), forKey: "pages") }
        }
        #expect(try library.context.execute(request) == 3)

        let books = try library.reopenedBooks()
        #expect(books.map { $0["title"] as? String } == titles)
        #expect(books.map { $0["canonicalTitle"] as? String } == ["cafe creme", "strasse", "aero"])
        #expect(books.map { $0.value(forKey: "pages", as: Int16.self) } == [100, 7, 100])
        #expect(books.map { $0["status"] as? String } == ["draft", "draft", "draft"])
        #expect(books.allSatisfy { $0["price"] == nil && $0["author"] == nil })
        // Written without objects: the context registered and changed nothing.
        #expect(!library.context.hasChanges)
        #expect(library.context.insertedObjects.isEmpty)
        // The search index's triggers saw the rows.
        #expect(try library.searchTitles("creme") == ["Café Crème"])
        try library.context.checkSearchIndexes()
        #expect(try library.context.execute(BatchInsertRequest(entityName: "Book", count: 0) { _, _ in }) == 0)
        #expect(try library.count("Book") == 3)
    }

    @Test func typedAndCoercingSettersStoreTheirValues() throws {
        let library = try BatchLibrary()
        let request = BatchInsertRequest(entityName: "Book", count: 4) { index, row in
            try row.setAttribute("t\(index)", forKey: "code")
            switch index {
            case 0:
                try row.setAttribute("Typed", forKey: "title")
                try row.setAttribute(Int16(12), forKey: "pages")
                try row.setAttribute(Decimal(string: "4.25")!, forKey: "price")
            case 1:
                // Another Swift type than the attribute's takes the coercing path.
                try row.setValue("Coerced"[...], forKey: "title")
                try row.setAttribute(Int64(300), forKey: "pages")
                try row.setValue(3, forKey: "price")
            case 2:
                try row.setValue("Nil status", forKey: "title")
                try row.setValue(nil, forKey: "status")
            default:
                try row.setValue("Null price", forKey: "title")
                try row.setValue(NSNull(), forKey: "price")
                try row.setAttribute(String?.none, forKey: "status")
            }
        }
        try library.context.execute(request)

        let books = try library.reopenedBooks()
        #expect(books.map { $0["title"] as? String } == ["Typed", "Coerced", "Nil status", "Null price"])
        #expect(books.map { $0.value(forKey: "pages", as: Int16.self) } == [12, 300, 100, 100])
        #expect(books.map { $0.value(forKey: "price", as: Decimal.self) } == [Decimal(string: "4.25")!, 3, nil, nil])
        #expect(books.map { $0["status"] as? String } == ["draft", "draft", nil, nil])
    }

    @Test func settersRefuseUnknownKeysWrongTypesAndDerivedAttributesNamingTheRow() throws {
        let library = try BatchLibrary()
        try library.saveBooks(["kept"])
        let before = try library.snapshot()
        let cases: [(key: String, reason: String, set: (inout BatchInsertRow) throws -> Void)] = [
            ("nope", "Book has no property named 'nope'", { try $0.setValue("x", forKey: "nope") }),
            ("nope", "Book has no property named 'nope'", { try $0.setAttribute("x", forKey: "nope") }),
            ("pages", "expected an integer, got String", { try $0.setValue("many", forKey: "pages") }),
            ("pages", "expected an integer, got String", { try $0.setAttribute("many", forKey: "pages") }),
            ("price", "a Double would lose digits", { try $0.setValue(2.5, forKey: "price") }),
            ("title", "expected a String, got Int", { try $0.setValue(5, forKey: "title") }),
            ("canonicalTitle", "derived from 'canonical:(title)'", {
                try $0.setValue("x", forKey: "canonicalTitle")
            }),
            ("canonicalTitle", "derived from 'canonical:(title)'", {
                try $0.setAttribute("x", forKey: "canonicalTitle")
            }),
            ("title", "it is an attribute, not a relationship", { try $0.setObject(nil, forKey: "title") }),
            ("author", "expected a ManagedObject, got String", { try $0.setValue("Ann", forKey: "author") }),
        ]
        for (key, reason, set) in cases {
            let request = BatchInsertRequest(entityName: "Book", count: 5) { index, row in
                try row.setValue("n\(index)", forKey: "code")
                try row.setValue("Fine", forKey: "title")
                if index == 2 { try set(&row) }
            }
            let error = try #require(throws: ObjectAccessError.self) { try library.context.execute(request) }
            #expect(error.entity == "Book")
            #expect(error.key == key)
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.reason.hasSuffix("(row 2 of the Book batch insert)"), "\(error)")
        }
        #expect(try library.snapshot() == before)
    }

    @Test func aThrowingFillWritesNothingAndPassesItsErrorOn() throws {
        struct Stop: Error, Equatable { let index: Int }
        let library = try BatchLibrary()
        try library.saveBooks(["kept"])
        let before = try library.snapshot()
        let request = BatchInsertRequest(entityName: "Book", count: 10) { index, row in
            try row.setValue("n\(index)", forKey: "code")
            try row.setValue("Fine", forKey: "title")
            if index == 6 { throw Stop(index: index) }
        }
        #expect(throws: Stop(index: 6)) { try library.context.execute(request) }
        #expect(try library.snapshot() == before)
    }

    // MARK: - Validation

    /// Two full statements are written before the last row fails: the transaction takes
    /// them back.
    @Test func anInvalidLastRowRollsBackEveryEarlierStatement() throws {
        let library = try BatchLibrary()
        try library.saveBooks(["kept"])
        let before = try library.snapshot()
        let perStatement = SQLiteStore.rowsPerInsert(try #require(library.context.sqliteStore.schema.entities["Book"]))
        let count = 2 * perStatement + 1
        let request = BatchInsertRequest(entityName: "Book", count: count) { index, row in
            try row.setValue("n\(index)", forKey: "code")
            try row.setValue(index == count - 1 ? "Bad!" : "Fine \(index)", forKey: "title")
        }
        let error = try #require(throws: ValidationError.self) { try library.context.execute(request) }
        let failure = try #require(error.failures.first)
        #expect(error.failures.count == 1)
        #expect(failure.object == "row \(count - 1) of the Book batch insert")
        #expect((failure.entity, failure.property, failure.rule) == ("Book", "title", .stringPatternMatching))
        #expect(error.description.contains("row \(count - 1) of the Book batch insert"))
        #expect(try library.snapshot() == before)
        #expect(try library.searchTitles("fine").isEmpty)
    }

    @Test func everyFailingRuleOfTheFirstInvalidRowIsReported() throws {
        let library = try BatchLibrary()
        let request = BatchInsertRequest(entityName: "Book", count: 6) { index, row in
            try row.setValue("n\(index)", forKey: "code")
            guard index == 3 else { return try row.setValue("Fine", forKey: "title") }
            // No title (required), 40,000 pages (Integer 16), a negative price (minimum 0).
            try row.setAttribute(Int64(40_000), forKey: "pages")
            try row.setValue(-1, forKey: "price")
        }
        let error = try #require(throws: ValidationError.self) { try library.context.execute(request) }
        let rules = Set(error.failures.map { "\($0.property):\($0.rule.rawValue)" })
        #expect(rules == ["title:1570", "pages:1610", "price:1620"])
        #expect(error.failures.allSatisfy { $0.object == "row 3 of the Book batch insert" })
        #expect(try library.count("Book") == 0)

        // A string past its maximum length (40 characters).
        let long = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue(String(repeating: "x", count: index == 1 ? 41 : 40), forKey: "title")
        }
        let tooLong = try #require(throws: ValidationError.self) { try library.context.execute(long) }
        #expect(tooLong.failures.map(\.rule) == [.stringTooLong])
        #expect(tooLong.failures.map(\.object) == ["row 1 of the Book batch insert"])
        #expect(try library.count("Book") == 0)
    }

    // MARK: - Uniqueness

    @Test(arguments: [MergePolicy.error, .mergeByPropertyObjectTrump])
    func duplicateUniqueValuesInsideOneRequestAlwaysConflict(policy: MergePolicy) throws {
        let library = try BatchLibrary(policy: policy)
        try library.saveBooks(["kept"])
        let before = try library.snapshot()
        let codes = ["a", "b", "c", "b", "d"]
        let request = BatchInsertRequest(entityName: "Book", count: codes.count) { index, row in
            try row.setValue(codes[index], forKey: "code")
            try row.setValue("Title \(index)", forKey: "title")
        }
        let error = try #require(throws: ConstraintConflictError.self) { try library.context.execute(request) }
        #expect(error.entity == "Book")
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"b\""])
        #expect(error.object == "row 3 of the Book batch insert")
        #expect(try library.snapshot() == before)

        // As in the store's UNIQUE index, rows without a value never conflict.
        let unnumbered = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
            try row.setValue("Unnumbered \(index)", forKey: "title")
        }
        #expect(try library.context.execute(unnumbered) == 3)
        #expect(try library.count("Book") == 4)
    }

    @Test func aStoredDuplicateUnderTheErrorPolicyFailsNamingTheRowAndValue() throws {
        let library = try BatchLibrary()
        try library.saveBooks(["First", "Second", "Third"])  // codes b0, b1, b2
        let before = try library.snapshot()
        let codes = ["n0", "n1", "n2", "b1", "n4", "n5"]
        let request = BatchInsertRequest(entityName: "Book", count: codes.count) { index, row in
            try row.setValue(codes[index], forKey: "code")
            try row.setValue("New \(index)", forKey: "title")
        }
        let error = try #require(throws: ConstraintConflictError.self) { try library.context.execute(request) }
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"b1\""])
        #expect(error.object == "row 3 of the Book batch insert")
        #expect(error.description.contains("row 3 of the Book batch insert conflicts with another Book"))
        #expect(try library.snapshot() == before)
    }

    @Test func aStoredDuplicateUnderObjectTrumpUpdatesTheStoredRowInPlace() throws {
        let library = try BatchLibrary(policy: .mergeByPropertyObjectTrump)
        let saved = try library.saveBooks(["Old Harbour", "Kept"])  // codes b0, b1
        let key = try #require(saved[0].objectID.primaryKey)
        let request = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue(index == 0 ? "b0" : "n1", forKey: "code")
            try row.setValue(index == 0 ? "New Meadow" : "Fresh", forKey: "title")
        }
        #expect(try library.context.execute(request) == 2)

        #expect(try library.count("Book") == 3)
        let replaced = try library.reader().fetch(
            FetchRequest(entityName: "Book", predicate: try FetchPredicate("code == 'b0'")))
        #expect(replaced.map(\.objectID.primaryKey) == [key], "the row kept its key")
        #expect(try library.file.strings(["title", "canonicalTitle"], of: "Book", library.context.model, where: "code == 'b0'")
            == [["New Meadow", "new meadow"]])
        #expect(try library.searchTitles("meadow") == ["New Meadow"])
        #expect(try library.searchTitles("harbour").isEmpty)
        #expect(try library.searchTitles("fresh") == ["Fresh"])
        try library.context.checkSearchIndexes()
    }

    // MARK: - To-one links

    @Test func rowsLinkToASavedDestination() throws {
        let library = try BatchLibrary()
        let ann = try library.saveAuthor("Ann")
        let request = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
            try row.setValue("Linked \(index)", forKey: "title")
            try row.setObject(ann, forKey: "author")
        }
        try library.context.execute(request)
        let books = try library.reopenedBooks()
        #expect(books.count == 3)
        #expect(books.allSatisfy { $0.object(forKey: "author")?.objectID == ann.objectID })
        #expect(books.allSatisfy { $0["authorName"] as? String == "Ann" }, "derived through the link")
    }

    @Test func saveInsertingLinksRowsToAnObjectInsertedByTheSameSave() throws {
        let library = try BatchLibrary()
        let context = library.context
        let bea = try context.insertObject(forEntityName: "Author")
        bea["name"] = "Bea"
        let request = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("By Bea \(index)", forKey: "title")
            try row.setObject(bea, forKey: "author")
        }
        try context.save(inserting: [request])

        #expect(!context.hasChanges)
        #expect(bea.objectID.primaryKey != nil)
        #expect(try library.count("Author") == 1)
        let books = try library.reopenedBooks()
        #expect(books.allSatisfy { $0.object(forKey: "author")?.objectID == bea.objectID })
        #expect(books.allSatisfy { $0["authorName"] as? String == "Bea" })
        // Bea's to-many, empty when she was inserted, reads the rows now.
        #expect(bea.objects(forKey: "books").count == 2)
    }

    @Test func executeRefusesALinkToAnInsertedButUnsavedObject() throws {
        let library = try BatchLibrary()
        let context = library.context
        let bea = try context.insertObject(forEntityName: "Author")
        bea["name"] = "Bea"
        let request = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
            try row.setValue("Title", forKey: "title")
            if index > 0 { try row.setObject(bea, forKey: "author") }
        }
        let error = try #require(throws: ObjectAccessError.self) { try context.execute(request) }
        #expect(error.key == "author")
        #expect(error.reason.contains("inserted but not saved"))
        #expect(error.reason.hasSuffix("(row 1 of the Book batch insert)"))
        #expect(try library.count("Book") == 0)
        #expect(try library.count("Author") == 0)
        #expect(bea.isInserted && context.hasChanges)

        // A save that failed after giving Bea a key leaves her unsaved, and still refused.
        let taken = BatchInsertRequest(entityName: "Book", count: 2) { _, row in
            try row.setValue("same", forKey: "code")
            try row.setValue("Title", forKey: "title")
        }
        #expect(throws: ConstraintConflictError.self) { try context.save(inserting: [taken]) }
        #expect(bea.isInserted && bea.objectID.primaryKey == nil)
        #expect(throws: ObjectAccessError.self) { try context.execute(request) }
        #expect(try library.count("Author") == 0)
    }

    @Test func linksToDeletedObjectsAndObjectsOfAnotherContextAreRefused() throws {
        let library = try BatchLibrary()
        let ann = try library.saveAuthor("Ann")
        let before = try library.snapshot()
        func linking(_ author: ManagedObject) -> BatchInsertRequest {
            BatchInsertRequest(entityName: "Book", count: 3) { index, row in
                try row.setValue("Title", forKey: "title")
                if index > 0 { try row.setObject(author, forKey: "author") }
            }
        }

        let other = try library.reader()
        let foreign = try #require(try other.fetch(FetchRequest(entityName: "Author")).first)
        let error = try #require(throws: ObjectAccessError.self) { try library.context.execute(linking(foreign)) }
        #expect(error.reason == "the object belongs to another context (row 1 of the Book batch insert)")

        library.context.delete(ann)
        let deleted = try #require(throws: ObjectAccessError.self) { try library.context.execute(linking(ann)) }
        #expect(deleted.key == "author")
        #expect(deleted.reason == "the object is deleted (row 1 of the Book batch insert)")
        #expect(try library.snapshot() == before)
        #expect(ann.isDeleted && library.context.hasChanges)
    }

    @Test func aDestinationWhoseRowIsGoneIsRefused() throws {
        let library = try BatchLibrary()
        let ann = try library.saveAuthor("Ann")
        let other = try library.reader()
        try other.delete(#require(try other.fetch(FetchRequest(entityName: "Author")).first))
        try other.save()
        // A fault, as after a refresh: linking fires it and finds no row.
        library.context.refresh(ann, mergeChanges: false)
        let before = try library.snapshot()
        let request = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("Title", forKey: "title")
            try row.setObject(ann, forKey: "author")
        }
        let error = try #require(throws: ObjectAccessError.self) { try library.context.execute(request) }
        #expect(error.key == "author")
        #expect(error.reason.contains("is no longer in the store (row 0 of the Book batch insert)"), "\(error)")
        #expect(try library.snapshot() == before)
    }

    @Test func relationshipsARowCannotSetAreRefused() throws {
        let library = try BatchLibrary()
        let tag = try library.context.insertObject(forEntityName: "Tag")
        tag["name"] = "sea"
        try library.context.save()
        let cases: [(key: String, reason: String, set: (inout BatchInsertRow) throws -> Void)] = [
            ("author", "expected a Author, got a Tag", { try $0.setObject(tag, forKey: "author") }),
            ("author", "expected a Author, got a Tag", { try $0.setValue(tag, forKey: "author") }),
            ("tags", "it is a to-many: set it with setObjects(_:forKey:)", { try $0.setObject(tag, forKey: "tags") }),
            ("author", "it is a to-one: set it with setObject(_:forKey:)", { try $0.setObjects([], forKey: "author") }),
            ("title", "it is an attribute, not a relationship", { try $0.setObjects([], forKey: "title") }),
            ("tags", "expected [ManagedObject], got ManagedObject", { try $0.setValue(tag, forKey: "tags") }),
            ("cover", "its inverse 'book' is a to-one", { try $0.setObject(nil, forKey: "cover") }),
            ("series", "its inverse 'volumes' is ordered", { try $0.setObject(nil, forKey: "series") }),
            ("lastReader", "it is transient", { try $0.setObject(nil, forKey: "lastReader") }),
        ]
        let before = try library.snapshot()
        for (key, reason, set) in cases {
            let request = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
                try row.setValue("Title", forKey: "title")
                if index == 1 { try set(&row) }
            }
            let error = try #require(throws: ObjectAccessError.self) { try library.context.execute(request) }
            #expect(error.key == key)
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.reason.hasSuffix("(row 1 of the Book batch insert)"), "\(error)")
        }
        #expect(try library.snapshot() == before)
    }

    // MARK: - To-many links

    @Test func toManysKeptInTheDestinationsRowsOrNeedingObjectsAreRefused() throws {
        let library = try BatchLibrary()
        let cases: [(entity: String, key: String, reason: String)] = [
            // Kept in the books' `author` and `series` columns: today's message.
            ("Author", "books", "a batch insert sets no to-many relationships: set its inverse 'author' on the destination's rows, or insert objects"),
            ("Series", "volumes", "a batch insert sets no to-many relationships: set its inverse 'series' on the destination's rows, or insert objects"),
        ]
        for (entity, key, reason) in cases {
            let request = BatchInsertRequest(entityName: entity, count: 2) { index, row in
                try row.setValue("x", forKey: "name")
                if index == 1 { try row.setObjects([], forKey: key) }
            }
            let error = try #require(throws: ObjectAccessError.self) { try library.context.execute(request) }
            #expect(error.key == key && error.reason == "\(reason) (row 1 of the \(entity) batch insert)", "\(error)")
        }
        #expect(try library.count("Author") == 0 && library.count("Series") == 0)

        // A many-to-many whose other side is ordered, or counted by its destination.
        let model = ManagedObjectModel {
            Entity("Item") {
                Relationship("lists", to: "List", inverse: "items", toMany: true)
                Relationship("groups", to: "Group", inverse: "items", toMany: true)
                Relationship("seen", to: "Group", toMany: true)
            }
            Entity("List") { Relationship("items", to: "Item", inverse: "lists", toMany: true, ordered: true) }
            Entity("Group") {
                Attribute("itemCount", .integer64, derived: "items.@count")
                Relationship("items", to: "Item", inverse: "groups", toMany: true)
            }
        }
        let other = try BatchLibrary(model: model)
        for (key, reason) in [
            ("lists", "its inverse 'items' is ordered, which a batch insert cannot keep in step: insert objects"),
            ("groups", "Group derives a count or sum over its inverse 'items', which a batch insert cannot keep up to date"),
        ] {
            let request = BatchInsertRequest(entityName: "Item", count: 1) { _, row in try row.setObjects([], forKey: key) }
            let error = try #require(throws: ObjectAccessError.self) { try other.context.execute(request) }
            #expect(error.key == key && error.reason.contains(reason), "\(error)")
        }
        // A to-many without an inverse is kept in a join table: a row sets it.
        let group = try other.context.insertObject(forEntityName: "Group")
        try other.context.save()
        let seen = BatchInsertRequest(entityName: "Item", count: 2) { _, row in try row.setObjects([group], forKey: "seen") }
        #expect(try other.context.execute(seen) == 2)
        let items = try other.reader().fetch(FetchRequest(entityName: "Item"))
        #expect(items.count == 2 && items.allSatisfy { $0.objects(forKey: "seen").count == 1 })
    }

    @Test func skippedRowsLeaveNoJoinRowsAndAFailedRequestNone() throws {
        let library = try BatchLibrary(policy: .mergeByPropertyStoreTrump)
        let tags = try (0..<3).map { index -> ManagedObject in
            let tag = try library.context.insertObject(forEntityName: "Tag")
            tag["name"] = "t\(index)"
            return tag
        }
        try library.context.save()
        try library.saveBooks(["Stored"])  // code b0
        /// The book key of each join row of `Book.tags`.
        func joinRows() throws -> [SQLiteValue] {
            let tables = try library.file.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('Book_tags', 'Tag_books')")
            #expect(tables.count == 1)
            guard case .text(let name)? = tables.first?.first else { return [] }
            let column = name == "Book_tags" ? "source" : "destination"
            return try library.file.rows("SELECT \"\(column)\" FROM \"\(name)\"").map { $0[0] }
        }
        let request = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
            try row.setValue("b\(index)", forKey: "code")
            try row.setValue("Title \(index)", forKey: "title")
            try row.setObjects([tags[index], tags[(index + 1) % 3]], forKey: "tags")
        }
        #expect(try library.context.execute(request) == 3)
        // Rows b1 and b2, two links each; b0 was skipped and linked nothing.
        #expect(try joinRows().count == 4)
        #expect(try library.count("Book") == 3)
        // No join row names a book key that has no row.
        let keys = Set(try library.file.rows("SELECT _id FROM Book WHERE code != 'b0'").map { $0[0] })
        #expect(Set(try joinRows()) == keys)

        // Under .error a conflict writes no row and no link, even of the chunks before it.
        library.context.mergePolicy = .error
        let before = try library.snapshot()
        let failing = BatchInsertRequest(entityName: "Book", count: 2000) { index, row in
            try row.setValue(index == 1999 ? "b1" : "n\(index)", forKey: "code")
            try row.setValue("New", forKey: "title")
            try row.setObjects([tags[index % 3]], forKey: "tags")
        }
        #expect(throws: ConstraintConflictError.self) { try library.context.execute(failing) }
        #expect(try library.snapshot() == before)
    }

    // MARK: - save(inserting:)

    @Test func aFailedSaveInsertingWritesNothingAndKeepsTheContextsChanges() throws {
        let library = try BatchLibrary()
        let context = library.context
        let kept = try library.saveBooks(["Kept"])[0]  // code b0
        let before = try library.snapshot()
        kept["title"] = "Changed"
        let cy = try context.insertObject(forEntityName: "Author")
        cy["name"] = "Cy"
        /// Four rows by Cy, with an invalid title or a stored code at the row given.
        func rows(badTitleAt: Int? = nil, storedCodeAt: Int? = nil) -> BatchInsertRequest {
            BatchInsertRequest(entityName: "Book", count: 4) { index, row in
                try row.setValue(index == storedCodeAt ? "b0" : "n\(index)", forKey: "code")
                try row.setValue(index == badTitleAt ? "Bad!" : "By Cy \(index)", forKey: "title")
                try row.setObject(cy, forKey: "author")
            }
        }

        let invalid = try #require(throws: ValidationError.self) {
            try context.save(inserting: [rows(badTitleAt: 2)])
        }
        #expect(invalid.failures.map(\.object) == ["row 2 of the Book batch insert"])
        let conflict = try #require(throws: ConstraintConflictError.self) {
            try context.save(inserting: [rows(storedCodeAt: 3)])
        }
        #expect(conflict.object == "row 3 of the Book batch insert")
        // The objects' rows were written first in the same transaction: all taken back.
        #expect(try library.snapshot() == before)
        #expect(context.hasChanges)
        #expect(cy.isInserted && cy.objectID.primaryKey == nil)
        #expect(kept.isUpdated && kept["title"] as? String == "Changed")

        try context.save(inserting: [rows()])
        #expect(!context.hasChanges)
        #expect(try library.count("Author") == 1)
        #expect(try library.file.strings(["title"], of: "Book", context.model, where: "code == 'b0'") == [["Changed"]])
        let byCy = try library.reopenedBooks().filter { $0.object(forKey: "author")?.objectID == cy.objectID }
        #expect(byCy.count == 4)
    }

    @Test func aRowConflictingWithAnObjectOfTheSameSaveFailsTheWholeSave() throws {
        let library = try BatchLibrary()
        let context = library.context
        let object = try context.insertObject(forEntityName: "Book")
        object["code"] = "same"
        object["title"] = "Object"
        let request = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
            try row.setValue(index == 2 ? "same" : "r\(index)", forKey: "code")
            try row.setValue("Row \(index)", forKey: "title")
        }
        let error = try #require(throws: ConstraintConflictError.self) { try context.save(inserting: [request]) }
        #expect(error.object == "row 2 of the Book batch insert")
        #expect(error.values == ["\"same\""])
        #expect(try library.count("Book") == 0)
        #expect(object.isInserted && context.hasChanges)
    }

    @Test func executeNeitherSavesNorDropsTheContextsUnsavedChanges() throws {
        let library = try BatchLibrary()
        let context = library.context
        let dee = try context.insertObject(forEntityName: "Author")
        dee["name"] = "Dee"
        let request = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("Alone \(index)", forKey: "title")
        }
        try context.execute(request)
        #expect(try library.count("Book") == 2)
        #expect(try library.count("Author") == 0)
        #expect(dee.isInserted && context.hasChanges)
        try context.save()
        #expect(try library.count("Author") == 1)
    }

    // MARK: - Registered objects

    @Test func aLoadedToManyOfARegisteredDestinationSeesTheNewRows() throws {
        let library = try BatchLibrary()
        let ann = try library.saveAuthor("Ann")
        try library.saveBooks(["Ann's first"], author: ann)
        #expect(ann.objects(forKey: "books").count == 1)
        let request = BatchInsertRequest(entityName: "Book", count: 3) { index, row in
            try row.setValue("Ann's \(index)", forKey: "title")
            try row.setObject(ann, forKey: "author")
        }
        try library.context.execute(request)
        let titles = ann.objects(forKey: "books").compactMap { $0["title"] as? String }
        #expect(titles.sorted() == ["Ann's 0", "Ann's 1", "Ann's 2", "Ann's first"])
        #expect(!library.context.hasChanges)
    }

    @Test func aRegisteredObjectWhoseRowWasUpsertedShowsTheNewValues() throws {
        let library = try BatchLibrary(policy: .mergeByPropertyObjectTrump)
        let book = try library.saveBooks(["Old Harbour"])[0]  // code b0
        let id = book.objectID
        #expect(book["title"] as? String == "Old Harbour")
        let request = BatchInsertRequest(entityName: "Book", count: 1) { _, row in
            try row.setValue("b0", forKey: "code")
            try row.setValue("New Meadow", forKey: "title")
            try row.setAttribute(Int16(9), forKey: "pages")
        }
        try library.context.execute(request)
        #expect(book.objectID == id)
        #expect(book["title"] as? String == "New Meadow")
        #expect(book["canonicalTitle"] as? String == "new meadow")
        #expect(book.value(forKey: "pages", as: Int16.self) == 9)
        let b0 = FetchRequest(entityName: "Book", predicate: try FetchPredicate("code == 'b0'"))
        let fetched = try library.context.fetch(b0)
        #expect(fetched.count == 1 && fetched[0] === book)
        #expect(!library.context.hasChanges)
    }

    @Test func anUpsertThatMovesARowRefreshesBothDestinationsLoadedToManys() throws {
        let library = try BatchLibrary(policy: .mergeByPropertyObjectTrump)
        let ann = try library.saveAuthor("Ann")
        let bea = try library.saveAuthor("Bea")
        let book = try library.saveBooks(["Moving"], author: ann)[0]  // code b0
        #expect(ann.objects(forKey: "books").count == 1 && bea.objects(forKey: "books").isEmpty)
        let request = BatchInsertRequest(entityName: "Book", count: 1) { _, row in
            try row.setValue("b0", forKey: "code")
            try row.setValue("Moved", forKey: "title")
            try row.setObject(bea, forKey: "author")
        }
        try library.context.execute(request)
        #expect(ann.objects(forKey: "books").isEmpty)
        #expect(bea.objects(forKey: "books").map { $0 === book } == [true])
        #expect(book.object(forKey: "author") === bea)
        #expect(book["authorName"] as? String == "Bea")
    }

    // MARK: - Destinations' derived values

    /// A destination's derived aggregate over the inverse to-many (`Author.bookCount` =
    /// `books.@count`) counts the rows linked to it, in the store and in the registered
    /// object, as a save of the same books as objects would leave it.
    @Test func aDestinationsDerivedCountIncludesTheRowsLinkedToIt() throws {
        let library = try BatchLibrary()
        let ann = try library.saveAuthor("Ann")
        try library.saveBooks(["First"], author: ann)
        #expect(try library.storedBookCount(of: "Ann") == 1, "a save keeps it in step")
        let request = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("Ann's \(index)", forKey: "title")
            try row.setObject(ann, forKey: "author")
        }
        try library.context.execute(request)
        #expect(ann.objects(forKey: "books").count == 3)
        #expect(try library.storedBookCount(of: "Ann") == 3)
        #expect(ann.value(forKey: "bookCount", as: Int64.self) == 3)
        #expect(!ann.hasChanges, "the new value is the saved one, not a change")

        // An author inserted by the same save(inserting:) is counted after the rows exist.
        let bea = try library.context.insertObject(forEntityName: "Author")
        bea["name"] = "Bea"
        let beas = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("Bea's \(index)", forKey: "title")
            try row.setObject(bea, forKey: "author")
        }
        try library.context.save(inserting: [beas])
        #expect(bea.objects(forKey: "books").count == 2)
        #expect(try library.storedBookCount(of: "Bea") == 2)
        #expect(bea.value(forKey: "bookCount", as: Int64.self) == 2)
        #expect(!library.context.hasChanges)
    }

    /// Under object-trump merging a row that moves a stored book to another author lowers
    /// the count of the author it left, which no row names: a temporary trigger catches it.
    @Test func anUpsertThatMovesARowRecountsTheDestinationItLeft() throws {
        let library = try BatchLibrary(policy: .mergeByPropertyObjectTrump)
        let ann = try library.saveAuthor("Ann")
        let bea = try library.saveAuthor("Bea")
        try library.saveBooks(["One", "Two"], author: ann)  // codes b0, b1
        #expect(try library.storedBookCount(of: "Ann") == 2)
        // Only Bea is named by a row.
        let request = BatchInsertRequest(entityName: "Book", count: 1) { _, row in
            try row.setValue("b0", forKey: "code")
            try row.setValue("Moved", forKey: "title")
            try row.setObject(bea, forKey: "author")
        }
        try library.context.execute(request)
        #expect(try library.storedBookCount(of: "Ann") == 1)
        #expect(try library.storedBookCount(of: "Bea") == 1)
        #expect(ann.value(forKey: "bookCount", as: Int64.self) == 1)
        #expect(bea.value(forKey: "bookCount", as: Int64.self) == 1)
        // Nothing of the bookkeeping is left on the connection.
        let temporary = try library.context.storeConnection.query(
            "SELECT name FROM temp.sqlite_master WHERE name LIKE '\\_batch%' ESCAPE '\\'")
        #expect(temporary.isEmpty)

        // A failed merge leaves the counts as they were.
        let before = try library.snapshot()
        let failing = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue("b\(index)", forKey: "code")
            try row.setValue(index == 1 ? "Bad!" : "Fine", forKey: "title")
            try row.setObject(bea, forKey: "author")
        }
        #expect(throws: ValidationError.self) { try library.context.execute(failing) }
        #expect(try library.snapshot() == before)
    }

    @Test(arguments: [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func aStoredDuplicateUnderStoreTrumpOrRollbackIsSkippedAndTheCountsKept(policy: MergePolicy) throws {
        let library = try BatchLibrary(policy: policy)
        let ann = try library.saveAuthor("Ann")
        let bea = try library.saveAuthor("Bea")
        try library.saveBooks(["Old Harbour", "Two"], author: ann)  // codes b0, b1
        let before = try library.file.strings(["title", "canonicalTitle"], of: "Book", library.context.model, where: "code == 'b0'")
        let request = BatchInsertRequest(entityName: "Book", count: 2) { index, row in
            try row.setValue(index == 0 ? "b0" : "n1", forKey: "code")
            try row.setValue(index == 0 ? "New Meadow" : "Fresh", forKey: "title")
            try row.setObject(bea, forKey: "author")
        }
        #expect(try library.context.execute(request) == 2)
        #expect(try library.count("Book") == 3)
        #expect(try library.file.strings(["title", "canonicalTitle"], of: "Book", library.context.model, where: "code == 'b0'")
            == before)
        #expect(try library.storedBookCount(of: "Ann") == 2)
        #expect(try library.storedBookCount(of: "Bea") == 1)
        #expect(ann.value(forKey: "bookCount", as: Int64.self) == 2)
        #expect(bea.value(forKey: "bookCount", as: Int64.self) == 1)
        #expect(try library.searchTitles("meadow").isEmpty)
        #expect(try library.searchTitles("fresh") == ["Fresh"])
        try library.context.checkSearchIndexes()
    }

    /// A `@sum` over the inverse adds the rows' values exactly, as decimals.
    @Test func aDestinationsDerivedSumAddsTheRowsValues() throws {
        let library = try BatchLibrary(model: BatchLibrary.model(authorTotal: true))
        let ann = try library.saveAuthor("Ann")
        let prices = ["0.10", "0.20", "1234567890.0000000001"]
        let request = BatchInsertRequest(entityName: "Book", count: prices.count) { index, row in
            try row.setValue("Priced \(index)", forKey: "title")
            try row.setValue(Decimal(string: prices[index])!, forKey: "price")
            try row.setObject(ann, forKey: "author")
        }
        try library.context.execute(request)
        let total = Decimal(string: "1234567890.3000000001")!
        #expect(ann.value(forKey: "priceTotal", as: Decimal.self) == total)
        let stored = try library.reader().fetch(FetchRequest(entityName: "Author"))
        #expect(stored.first?.value(forKey: "priceTotal", as: Decimal.self) == total)
    }

    // MARK: - Convenience and entities

    @Test func theObjectsInitializerSetsEachDictionaryAsSetValueDoes() throws {
        let library = try BatchLibrary()
        let ann = try library.saveAuthor("Ann")
        let request = BatchInsertRequest(entityName: "Book", objects: [
            ["code": "d0", "title": "Dict One", "pages": 12, "price": 2, "author": ann],
            ["code": "d1", "title": "Dict Two", "status": nil, "author": nil],
        ])
        #expect(request.count == 2)
        #expect(try library.context.execute(request) == 2)
        let books = try library.reopenedBooks()
        #expect(books.map { $0["title"] as? String } == ["Dict One", "Dict Two"])
        #expect(books.map { $0.value(forKey: "pages", as: Int16.self) } == [12, 100])
        #expect(books.map { $0.value(forKey: "price", as: Decimal.self) } == [2, nil])
        #expect(books.map { $0["status"] as? String } == ["draft", nil])
        #expect(books.map { $0.object(forKey: "author")?.objectID } == [ann.objectID, nil])
        #expect(books.map { $0["canonicalTitle"] as? String } == ["dict one", "dict two"])

        let bad = BatchInsertRequest(entityName: "Book", objects: [["title": "Fine"], ["title": "X", "bogus": 1]])
        let error = try #require(throws: ObjectAccessError.self) { try library.context.execute(bad) }
        #expect(
            error.description
                == "Can't set Book.bogus: Book has no property named 'bogus' (row 1 of the Book batch insert)")
        #expect(try library.count("Book") == 2)
    }

    @Test func unknownAndAbstractEntitiesAreRefused() throws {
        let library = try BatchLibrary()
        let context = library.context
        let pending = try context.insertObject(forEntityName: "Author")
        pending["name"] = "Pending"
        for (name, reason) in [("Nope", "the model has no entity named 'Nope'"), ("Shelf", "Shelf is abstract")] {
            let request = BatchInsertRequest(entityName: name, count: 1) { _, _ in }
            let executed = try #require(throws: ObjectAccessError.self) { try context.execute(request) }
            #expect(executed.entity == name && executed.reason.contains(reason), "\(executed)")
            let saved = try #require(throws: ObjectAccessError.self) { try context.save(inserting: [request]) }
            #expect(saved.reason.contains(reason), "\(saved)")
        }
        #expect(pending.isInserted && context.hasChanges)
        #expect(try library.count("Author") == 0)
        // A concrete sub-entity of the abstract one is fine.
        let bookcases = BatchInsertRequest(entityName: "Bookcase", count: 2) { index, row in
            try row.setValue("Case \(index)", forKey: "label")
        }
        #expect(try context.execute(bookcases) == 2)
        #expect(try context.count(for: FetchRequest(entityName: "Shelf")) == 2)
    }

    @Test func storeTrumpIsRefusedForAnEntityWithExternalData() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        context.mergePolicy = .mergeByPropertyStoreTrump
        let request = BatchInsertRequest(entityName: "Book", count: 1) { _, row in
            try row.setValue("Covered", forKey: "title")
            try row.setValue(ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1), forKey: "cover")
        }
        #expect(throws: BatchInsertError.self) { try context.execute(request) }
        #expect(folder.externalFiles().isEmpty)
    }

    @Test func objectTrumpIsRefusedForAnEntityWithExternalData() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        let request = BatchInsertRequest(entityName: "Book", count: 1) { _, row in
            try row.setValue("Covered", forKey: "title")
            try row.setValue(ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1), forKey: "cover")
        }
        let error = try #require(throws: BatchInsertError.self) { try context.execute(request) }
        #expect(error.entity == "Book")
        #expect(error.description.hasPrefix("A batch insert of Book cannot run: it keeps "), "\(error)")
        #expect(error.description.contains("cover"), "\(error)")
        #expect(try folder.count("Book") == 0)

        // Under the error policy the rows are written, each large value in its own file.
        context.mergePolicy = .error
        #expect(try context.execute(request) == 1)
        #expect(folder.externalFiles().count == 1)
    }
}

/// A file store of the test model, with helpers to fill it and read it back.
private final class BatchLibrary {
    let file = TemporaryStore()
    let container: PersistentContainer
    var context: ManagedObjectContext { container.viewContext }
    /// Other contexts on the same file, kept alive with the library: an object does not
    /// keep its context.
    private var readers: [ManagedObjectContext] = []

    init(policy: MergePolicy = .error, model: ManagedObjectModel = BatchLibrary.model()) throws {
        container = try PersistentContainer(model: model, storeURL: file.url)
        container.viewContext.mergePolicy = policy
    }

    /// `Book` has a unique `code`, a required `title` (at most 40 characters, no "!") with a
    /// search-indexed canonical form, defaults for `pages` and `status`, a to-one `author`
    /// whose inverse is an unordered to-many, and relationships a batch row cannot set:
    /// `tags` (to-many), `cover` (to-one inverse), `series` (ordered inverse), `lastReader`
    /// (transient). `Shelf` is abstract. `Author` counts its books, and with `authorTotal`
    /// also sums their prices.
    static func model(authorTotal: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("code", .string)
                Attribute("title", .string, optional: false, maximum: "40", regularExpression: "[^!]*")
                Attribute("canonicalTitle", .string, derived: "canonical:(title)", indexedBySpotlight: true)
                Attribute("authorName", .string, derived: "author.name")
                Attribute("pages", .integer16, default: "100")
                Attribute("status", .string, default: "draft")
                Attribute("price", .decimal, minimum: "0")
                Relationship("author", to: "Author", inverse: "books")
                Relationship("tags", to: "Tag", inverse: "books", toMany: true)
                Relationship("cover", to: "Cover", inverse: "book")
                Relationship("series", to: "Series", inverse: "volumes")
                Relationship("lastReader", to: "Author", transient: true)
                UniquenessConstraint("code")
            }
            Entity("Author") {
                Attribute("name", .string, optional: false)
                Attribute("bookCount", .integer64, derived: "books.@count")
                if authorTotal { Attribute("priceTotal", .decimal, derived: "books.@sum.price") }
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "tags", toMany: true)
            }
            Entity("Cover") {
                Attribute("art", .string)
                Relationship("book", to: "Book", inverse: "cover")
            }
            Entity("Series") {
                Attribute("name", .string)
                Relationship("volumes", to: "Book", inverse: "series", toMany: true, ordered: true)
            }
            Entity("Shelf", isAbstract: true) {
                Attribute("label", .string)
            }
            Entity("Bookcase", parent: "Shelf")
        }
    }

    /// Saves an author, through the context.
    func saveAuthor(_ name: String) throws -> ManagedObject {
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = name
        try context.save()
        return author
    }

    /// Saves one book per title, with codes b0, b1, … (unless taken), through the context.
    @discardableResult
    func saveBooks(_ titles: [String], author: ManagedObject? = nil) throws -> [ManagedObject] {
        let first = try count("Book")
        let books = try titles.enumerated().map { index, title in
            let book = try context.insertObject(forEntityName: "Book")
            book["code"] = "b\(first + index)"
            book["title"] = title
            if let author { book.setObject(author, forKey: "author") }
            return book
        }
        try context.save()
        return books
    }

    /// The number of saved objects of an entity, as a fresh read-only container counts them.
    func count(_ entity: String) throws -> Int {
        try file.count(entity, context.model)
    }

    /// An author's saved `bookCount`, as a fresh read-only container reads it.
    func storedBookCount(of name: String) throws -> Int64? {
        let reader = try file.reader(context.model)
        let request = FetchRequest(entityName: "Author", predicate: try FetchPredicate("name == %@", name))
        return try reader.fetch(request).first?.value(forKey: "bookCount", as: Int64.self)
    }

    /// Every row of every table, search index tables included: what "nothing was written"
    /// compares.
    func snapshot() throws -> [String: [[SQLiteValue]]] {
        var tables: [String: [[SQLiteValue]]] = [:]
        for row in try file.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            guard case .text(let name) = row[0] else { continue }
            tables[name] = try file.rows("SELECT * FROM \"\(name)\"")
        }
        return tables
    }

    /// A new context on the same store file, alive as long as the library.
    func reader() throws -> ManagedObjectContext {
        let reader = try PersistentContainer(model: context.model, storeURL: file.url).viewContext
        readers.append(reader)
        return reader
    }

    /// The stored books in primary-key order, fetched by a new context, so that nothing
    /// comes from this context's memory.
    func reopenedBooks() throws -> [ManagedObject] {
        try reader().fetch(FetchRequest(entityName: "Book")).sorted {
            ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0)
        }
    }

    /// The titles the search index finds for `text`, sorted.
    func searchTitles(_ text: String) throws -> [String] {
        var request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")])
        request.searchText = text
        return try context.fetch(request).map { $0["title"] as? String ?? "" }
    }
}
