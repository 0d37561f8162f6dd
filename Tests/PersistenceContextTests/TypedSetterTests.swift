import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// The typed, positional setters that generated code calls, and the save paths that read
/// per-entity plans instead of the schema's enums.
@Suite struct TypedSetterTests {
    // Positions in `everyTypeModel()`'s Item, Book and Author.
    private enum Item {
        static let i16 = 0, i32 = 1, i64 = 2, dec = 3, dbl = 4, flt = 5, str = 6, flag = 7
        static let when = 8, bytes = 9, id = 10, link = 11, payload = 12, code = 14
    }

    private func context(_ store: TemporaryStore) throws -> ManagedObjectContext {
        try PersistentContainer(model: everyTypeModel(), storeURL: store.url).viewContext
    }

    @Test func typedSettersStoreWhatTheNamedSetterStores() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let id = UUID()
        let when = Date(timeIntervalSince1970: 1_700_000_000.25)
        let url = try #require(URL(string: "https://example.com/a"))
        let typed = try context.insertObject(forEntityName: "Item")
        typed.setAttribute(Int16(-7), forKey: "i16", at: Item.i16)
        typed.setAttribute(Int32(70_000), forKey: "i32", at: Item.i32)
        typed.setAttribute(Int64(1) << 40, forKey: "i64", at: Item.i64)
        typed.setAttribute(Decimal(string: "19.99"), forKey: "dec", at: Item.dec)
        typed.setAttribute(2.5, forKey: "dbl", at: Item.dbl)
        typed.setAttribute(Float(0.1), forKey: "flt", at: Item.flt)
        typed.setAttribute("héllo", forKey: "str", at: Item.str)
        typed.setAttribute(true, forKey: "flag", at: Item.flag)
        typed.setAttribute(when, forKey: "when", at: Item.when)
        typed.setAttribute(Data([1, 2, 3]), forKey: "bytes", at: Item.bytes)
        typed.setAttribute(id, forKey: "id", at: Item.id)
        typed.setAttribute(url, forKey: "link", at: Item.link)
        typed.setTransformableAttribute(["a": 1], forKey: "payload", at: Item.payload)
        typed.setAttribute("t", forKey: "code", at: Item.code)

        let named = try context.insertObject(forEntityName: "Item")
        named["i16"] = Int16(-7)
        named["i32"] = Int32(70_000)
        named["i64"] = Int64(1) << 40
        named["dec"] = Decimal(string: "19.99")
        named["dbl"] = 2.5
        named["flt"] = Float(0.1)
        named["str"] = "héllo"
        named["flag"] = true
        named["when"] = when
        named["bytes"] = Data([1, 2, 3])
        named["id"] = id
        named["link"] = url
        named["payload"] = ["a": 1]
        named["code"] = "n"
        for position in 0..<Item.payload {
            #expect(typed.attributeValue(at: position) == named.attributeValue(at: position), "position \(position)")
        }
        try context.save()
        let rows = try store.rows(
            "SELECT i16, i32, i64, dec, dbl, flt, str, flag, \"when\", bytes, id, link, payload FROM Item ORDER BY _id")
        #expect(rows.count == 2)
        #expect(rows[0] == rows[1])
        #expect(rows[0][0] == .integer(-7))
        #expect(rows[0][3] == .text("19.99"))
    }

    @Test func aWrongPositionFallsBackToTheName() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let item = try context.insertObject(forEntityName: "Item")
        item.setAttribute("by name", forKey: "str", at: Item.i16)
        item.setAttribute("far", forKey: "code", at: 999)
        item.setAttribute(Int64(3), forKey: "i64", at: -1)
        #expect(item.value(forKey: "str", as: String.self) == "by name")
        #expect(item.value(forKey: "code", as: String.self) == "far")
        #expect(item.value(forKey: "i64", as: Int64.self) == 3)
        #expect(item.attributeValue(at: Item.i16).isNull)
    }

    /// A Swift type other than the attribute's own takes the coercing path, as a named set.
    @Test func anotherSwiftTypeIsCoercedAsByTheNamedSetter() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let item = try context.insertObject(forEntityName: "Item")
        item.setAttribute(Int64(5), forKey: "dbl", at: Item.dbl)
        item.setAttribute(Int64(12), forKey: "i16", at: Item.i16)
        #expect(item.value(forKey: "dbl", as: Double.self) == 5)
        #expect(item.value(forKey: "i16", as: Int16.self) == 12)
    }

    @Test func aTypedSetOnASavedObjectIsTrackedAndSaved() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let item = try context.insertObject(forEntityName: "Item")
        item.setAttribute("a", forKey: "str", at: Item.str)
        try context.save()
        #expect(!context.hasChanges)
        item.setAttribute("b", forKey: "str", at: Item.str)
        #expect(item.isUpdated)
        #expect(context.updatedObjects.count == 1)
        #expect(item.changedValues().keys.sorted() == ["str"])
        item.setAttribute(nil as String?, forKey: "i64", at: Item.i64)
        try context.save()
        #expect(try store.strings(["str"], of: "Item", everyTypeModel()) == [["b"]])
        #expect(try store.values("i64", as: Int64.self, of: "Item", everyTypeModel()) == [nil])
    }

    @Test func aToOneSetByPositionKeepsTheInverseInStep() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Ann"
        let other = try context.insertObject(forEntityName: "Author")
        other["name"] = "Bo"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "One"
        book.setObject(author, forKey: "author", at: 4)
        #expect(author.objects(forKey: "books").map(ObjectIdentifier.init) == [ObjectIdentifier(book)])
        book.setObject(other, forKey: "author", at: 4)
        #expect(author.objects(forKey: "books").isEmpty)
        #expect(other.objects(forKey: "books").count == 1)
        // A wrong position falls back to the name.
        book.setObject(author, forKey: "author", at: 0)
        #expect(book.object(forKey: "author") === author)
        try context.save()
        #expect(try store.count("Book", everyTypeModel()) == 1)
        #expect(try store.count("Book", everyTypeModel(), where: "author.name == 'Ann'") == 1)
    }

    // MARK: - Save paths

    /// An updated object's attribute that did not change is not re-checked against its
    /// rules (see `ObjectValidator.failures(of:)`); one that changed is, and nil checks
    /// still cover every attribute.
    @Test func anUpdateChecksTheRulesOfChangedValues() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let author = try context.insertObject(forEntityName: "Author")
        author["name"] = "Ann"
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Fine"
        book["author"] = author
        try context.save()

        book["price"] = Decimal(-1)
        let bounds = try #require(throws: ValidationError.self) { try context.save() }
        #expect(bounds.failures.map(\.property) == ["price"])
        book["price"] = Decimal(3)
        book["title"] = "Loud!"
        let pattern = try #require(throws: ValidationError.self) { try context.save() }
        #expect(pattern.failures.map(\.property) == ["title"])
        #expect(pattern.failures.first?.rule == .stringPatternMatching)
        book["title"] = nil
        let missing = try #require(throws: ValidationError.self) { try context.save() }
        #expect(missing.failures.first?.rule == .missingMandatoryProperty)
        book["title"] = "Fine again"
        try context.save()
        #expect(try store.strings(["title"], of: "Book", everyTypeModel()) == [["Fine again"]])
        #expect(try store.values("price", as: Decimal.self, of: "Book", everyTypeModel()) == [3])
    }

    /// String lengths count characters, not bytes, whichever shortcut decides them.
    @Test func stringLengthRulesCountCharacters() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let author = try context.insertObject(forEntityName: "Author")  // name: 1…20 characters
        author["name"] = String(repeating: "é", count: 20)  // 40 bytes, 20 characters
        try context.save()
        author["name"] = String(repeating: "e\u{301}", count: 21)  // 21 characters, 63 bytes
        let long = try #require(throws: ValidationError.self) { try context.save() }
        #expect(long.failures.map(\.rule) == [.stringTooLong])
        #expect(long.failures.first?.value.hasSuffix("(21 characters)") == true)
        author["name"] = ""
        let short = try #require(throws: ValidationError.self) { try context.save() }
        #expect(short.failures.map(\.rule) == [.stringTooShort])
        author["name"] = "Ann"
        try context.save()
    }

    /// An update taking an unchanged object's unique value is refused, naming the changed
    /// object, and writes nothing; in a save with an insert the in-memory check still sees
    /// every object.
    @Test func anUpdateToAnotherObjectsUniqueValueIsRefused() throws {
        let store = TemporaryStore()
        let context = try context(store)
        let first = try context.insertObject(forEntityName: "Item")
        first["code"] = "a"
        let second = try context.insertObject(forEntityName: "Item")
        second["code"] = "b"
        try context.save()
        second["code"] = "a"
        first["str"] = "touched"
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.object == second.objectID.description)
        #expect(error.values == ["\"a\""])
        #expect(try store.strings(["code", "str"], of: "Item", everyTypeModel()) == [["a", nil], ["b", nil]])
        let third = try context.insertObject(forEntityName: "Item")
        third["code"] = "c"
        let mixed = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(mixed.keys == ["code"])
        second["code"] = "b"
        try context.save()
        #expect(try store.strings(["code"], of: "Item", everyTypeModel()) == [["a"], ["b"], ["c"]])
    }

    /// An update writes the changed columns only: a column changed behind the context's
    /// back since the fetch keeps its value.
    @Test func anUpdateWritesOnlyTheChangedColumns() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let item = try context.insertObject(forEntityName: "Item")
        item["str"] = "a"
        item["i64"] = Int64(1)
        try context.save()
        try store.file.write("UPDATE Item SET i64 = 99")
        item["str"] = "b"
        try context.save()
        #expect(try store.strings(["str"], of: "Item", everyTypeModel()) == [["b"]])
        #expect(try store.values("i64", as: Int64.self, of: "Item", everyTypeModel()) == [99], "the column written behind the context's back kept its value")
    }
}
