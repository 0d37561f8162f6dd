import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct ContextSaveTests {
    @Test func everyAttributeTypeRoundTripsThroughAReopenedStore() throws {
        let store = TemporaryStore()
        let when = Date(timeIntervalSince1970: 1_234_567_890.123_456)
        let id = UUID()
        let big = try DecimalText.parse("12345678901234567890.123456789012345678")
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            let item = try container.viewContext.insertObject(forEntityName: "Item")
            item["i16"] = Int16.max
            item["i32"] = Int32.min
            item["i64"] = Int64.min
            item["dec"] = big
            item["dbl"] = -Double.infinity
            item["flt"] = Float(1.1)
            item["str"] = "a\u{0}b é"
            item["flag"] = true
            item["when"] = when
            item["bytes"] = Data()
            item["id"] = id
            item["link"] = URL(string: "https://example.com/ä?q=1")!
            item["payload"] = ["a": 1]
            item["scratch"] = "kept in memory"
            try container.viewContext.save()
            #expect(item["scratch"] as? String == "kept in memory")
        }
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let item = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Item")).first)
        #expect(item.value(forKey: "i16", as: Int16.self) == .max)
        #expect(item.value(forKey: "i32", as: Int32.self) == .min)
        #expect(item.value(forKey: "i64", as: Int64.self) == .min)
        #expect(item.value(forKey: "dec", as: Decimal.self) == big)
        #expect(item.value(forKey: "dbl", as: Double.self) == -.infinity)
        #expect(item.value(forKey: "flt", as: Float.self) == Float(1.1))
        #expect(item.value(forKey: "str", as: String.self) == "a\u{0}b é")
        #expect(item.value(forKey: "flag", as: Bool.self) == true)
        #expect(item.value(forKey: "when", as: Date.self) == when)
        #expect(item.value(forKey: "bytes", as: Data.self) == Data())
        #expect(item.value(forKey: "id", as: UUID.self) == id)
        #expect(item.value(forKey: "link", as: URL.self)?.absoluteString == "https://example.com/%C3%A4?q=1")
        #expect(item.decodedValue(forKey: "payload", as: [String: Int].self) == ["a": 1])
        #expect(item["scratch"] == nil, "a transient is not stored")
        #expect(item["code"] as? String == "none", "the default value was applied on insert")
    }

    @Test func decimalsKeepEveryDigitAndSortNumericallyInTheShell() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        for (code, text) in [("a", "10.25"), ("b", "9.5"), ("c", "-0.001"), ("d", "12345678901234567890123456789012345678")] {
            let item = try container.viewContext.insertObject(forEntityName: "Item")
            item["code"] = code
            item["dec"] = try DecimalText.parse(text)
        }
        try container.viewContext.save()
        let raw = try store.rows("SELECT dec FROM Item ORDER BY code").map { $0[0] }
        #expect(raw == [.text("10.25"), .text("9.5"), .text("-0.001"), .text("12345678901234567890123456789012345678")])
        let request = FetchRequest(entityName: "Item", sortDescriptors: [SortKey("dec")])
        let sorted = try container.viewContext.fetch(request).compactMap { $0["code"] as? String }
        #expect(sorted == ["c", "b", "a", "d"])
    }

    @Test func datesReadAsDatesInTheSQLiteShell() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let item = try container.viewContext.insertObject(forEntityName: "Item")
        item["when"] = try DateText.parseDay("1967-05-30", timeZone: TimeZone(secondsFromGMT: 0)!)
        try container.viewContext.save()
        #expect(try store.rows("SELECT datetime(\"when\", 'unixepoch') FROM Item") == [[.text("1967-05-30 00:00:00")]])
    }

    @Test func aFailedValidationWritesNothingAndKeepsTheChanges() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Bad!"
        book["price"] = Decimal(-1)
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = ""
        let error = try #require(throws: ValidationError.self) { try context.save() }
        let rules = Set(error.failures.map { "\($0.entity).\($0.property):\($0.rule.rawValue)" })
        #expect(rules == ["Book.title:1680", "Book.price:1620", "Author.name:1670"])
        #expect(try store.count("Book", everyTypeModel()) == 0)
        #expect(context.hasChanges)
        book["title"] = "Good"
        book["price"] = Decimal(3)
        author["name"] = "Ann"
        try context.save()
        #expect(try store.count("Book", everyTypeModel()) == 1)
    }

    @Test func aUniquenessConflictFailsNamingTheConstraintAndWritesNothing() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        try context.save()
        try context.insertObject(forEntityName: "Item")["code"] = "y"
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"x\""])
        #expect(error.description.contains("is already taken"))
        #expect(try store.strings(["code"], of: "Item", everyTypeModel()) == [["x"]])
    }

    @Test func objectTrumpMergingUpdatesTheExistingRow() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        let first = try context.insertObject(forEntityName: "Item")
        first["code"] = "x"
        first["str"] = "old"
        try context.save()
        let second = try context.insertObject(forEntityName: "Item")
        second["code"] = "x"
        second["str"] = "new"
        try context.save()
        #expect(try store.strings(["code", "str"], of: "Item", everyTypeModel()) == [["x", "new"]])
        #expect(second.objectID == first.objectID)
    }

    @Test func derivedValuesAreComputedOnSaveAndCannotBeAssigned() throws {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: nil)
        let context = container.viewContext
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Łódź Ærø"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "T"
        book.setObject(author, forKey: "author")
        try context.save()
        #expect(author["canonicalName"] as? String == "lodz aero")
        #expect(author["bookCount"] as? Int64 == 1)
        #expect(book["authorName"] as? String == "Łódź Ærø")
        #expect(throws: ObjectAccessError.self) { try author.setValue("x", forKey: "canonicalName") }
    }

    @Test func integerRangesAreEnforcedAtSave() throws {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: nil)
        let item = try container.viewContext.insertObject(forEntityName: "Item")
        item["i16"] = 40_000
        item["i32"] = Int64(Int32.min) - 1
        let error = try #require(throws: ValidationError.self) { try container.viewContext.save() }
        #expect(error.failures.map(\.rule) == [.numberTooLarge, .numberTooSmall])
    }

    @Test func wrongTypesAndUnknownKeysAreClearErrors() throws {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: nil)
        let item = try container.viewContext.insertObject(forEntityName: "Item")
        #expect(throws: ObjectAccessError.self) { try item.setValue("12", forKey: "i16") }
        #expect(throws: ObjectAccessError.self) { try item.setValue(1.5, forKey: "dec") }
        let unknown = try #require(throws: ObjectAccessError.self) { try item.setValue(1, forKey: "nope") }
        #expect(unknown.description == "Can't set Item.nope: Item has no property named 'nope'")
    }

    @Test func abstractEntitiesCannotBeInserted() throws {
        var entities = everyTypeModel().entities
        entities[2].isAbstract = true
        let container = try PersistentContainer(model: ManagedObjectModel(entities: entities), storeURL: nil)
        #expect(throws: ObjectAccessError.self) { try container.viewContext.insertObject(forEntityName: "Book") }
        #expect(try container.viewContext.insertObject(forEntityName: "Ebook").entityName == "Ebook")
    }

    @Test func subEntitiesShareTheRootTableAndComeBackAsThemselves() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let ebook = try context.insertObject(forEntityName: "Ebook")
        ebook["title"] = "E"
        ebook["megabytes"] = 2.5
        try context.insertObject(forEntityName: "Book")["title"] = "P"
        try context.save()
        #expect(
            try store.rows("SELECT _entity, title FROM Book ORDER BY title")
                == [[.text("Ebook"), .text("E")], [.text("Book"), .text("P")]])
        let reopened = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let books = try reopened.viewContext.fetch(FetchRequest(entityName: "Book"))
        #expect(Set(books.map(\.entityName)) == ["Book", "Ebook"])
        #expect(try reopened.viewContext.fetch(FetchRequest(entityName: "Ebook")).map(\.entityName) == ["Ebook"])
    }

    @Test func uniquingGivesOneObjectPerRow() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Once"
        try context.save()
        let fetched = try context.fetch(FetchRequest(entityName: "Book"))
        #expect(fetched.first === book)
        #expect(try context.object(with: book.objectID) === book)
        let uri = book.objectID.uriRepresentation.absoluteString
        #expect(uri.hasPrefix("x-persistence://") && uri.hasSuffix("/Book/p\(book.objectID.primaryKey ?? -1)"), "\(uri)")
    }

    @Test func rollbackRestoresSavedValuesAndForgetsInserts() throws {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: nil)
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Saved"
        try context.save()
        book["title"] = "Changed"
        let extra = try context.insertObject(forEntityName: "Book")
        extra["title"] = "Extra"
        #expect(context.updatedObjects.count == 1 && context.insertedObjects.count == 1)
        context.rollback()
        #expect(book["title"] as? String == "Saved")
        #expect(!context.hasChanges)
        #expect(try context.count(for: FetchRequest(entityName: "Book")) == 1)
    }

    @Test func preservedValuesSurviveDeletionInATombstone() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Gone"
        book["isbn"] = "978-0"
        try context.save()
        context.delete(book)
        try context.save()
        #expect(try store.count("Book", everyTypeModel()) == 0)
        #expect(try store.rows("SELECT entity, \"values\" FROM _tombstone") == [[.text("Book"), .text("{\"isbn\":\"978-0\"}")]])
    }

    @Test func denyRefusesDeletionUntilTheRelationshipIsEmpty() throws {
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: nil)
        let context = container.viewContext
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "A"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "T"
        book.setObject(author, forKey: "author")
        try context.save()
        context.delete(author)
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.rule) == [.relationshipDeniedDelete])
        context.rollback()
        context.delete(book)
        context.delete(author)
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Author")) == 0)
    }

    @Test func settingAToOneKeepsTheInverseInStep() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let a = try context.insertObject(forEntityName: "Author")
        a["name"] = "A"
        let b = try context.insertObject(forEntityName: "Author")
        b["name"] = "B"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "T"
        book.setObject(a, forKey: "author")
        #expect(a.objects(forKey: "books").count == 1)
        book.setObject(b, forKey: "author")
        #expect(a.objects(forKey: "books").isEmpty)
        #expect(b.objects(forKey: "books").first === book)
        try context.save()
        let reopened = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let authors = try reopened.viewContext.fetch(FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")]))
        #expect(authors.map { $0.objects(forKey: "books").count } == [0, 1])
    }
}
