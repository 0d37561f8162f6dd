import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// A subclass that sets a transient through the public setter while awaking, as Core Data
/// allows: the value counts as fetched, not as a change.
final class AwakeningBook: ManagedObject {
    override func awakeFromFetch() {
        self["monthID"] = "pages:\((self["pages"] as? Int64).map(String.init) ?? "none")"
    }
}

/// Fetched rows become objects through `RowDecodePlan` (issue #9): the same values, faults
/// and errors as decoding each column through `RowCodec`.
@Suite struct FetchDecodeTests {
    /// The fixture's store, reset so that every object is read back from its row.
    private func fetchedBooks(classes: [String: ManagedObject.Type] = [:]) throws -> (ManagedObjectContext, [ManagedObject]) {
        let (container, context) = try BookFixture.make()
        context.reset()
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [.init("uuid")]))
        _ = container
        return (context, books)
    }

    @Test func fetchedValuesMatchWhatWasSaved() throws {
        let (context, books) = try fetchedBooks()
        #expect(books.count == 12)
        let hobbit = try #require(books.first { $0["title"] as? String == "The Hobbit" })
        #expect(hobbit["price"] as? Decimal == (try DecimalText.parse("19.99")))
        #expect(hobbit["publishDate"] as? Date == Date(timeIntervalSince1970: 2 * 86_400 * 40))
        #expect(hobbit["pages"] as? Int64 == 74)
        #expect(hobbit["rating"] as? Double == 1)
        #expect(hobbit["available"] as? Bool == true)
        #expect(hobbit["uuid"] as? UUID == UUID(uuidString: String(format: "%08X-0000-0000-0000-000000000000", 2 * 7919)))
        // A transient starts from its default (none); a to-one is a fault until read.
        #expect(hobbit["monthID"] == nil)
        let author = try #require(hobbit.object(forKey: "author"))
        #expect(author["name"] as? String == "Gabriel García Márquez")
        #expect(author.objectID.entityName == "Author")
        // NaN, nil and missing values survive the inline decoders.
        let nan = try #require(books.first { $0["title"] as? String == "star*wars?" })
        #expect((nan["rating"] as? Double)?.isNaN == true)
        let orphan = try #require(books.first { $0["title"] as? String == "Ørsted" })
        #expect(orphan.object(forKey: "author") == nil)
        #expect(orphan["price"] == nil)
        #expect(!context.hasChanges)
    }

    /// A value stays three words (a transformable's own value is boxed); a fetched object
    /// stores slots only for what its row holds and its transients, in storage of exactly
    /// their number (no slot for a NULL value, see `PropertySlots`); and one that is only
    /// read makes none of the state kept in `LazyObjectState`.
    @Test func fetchedObjectsStayCompact() throws {
        #expect(MemoryLayout<AttributeValue>.stride == 24)
        #expect(MemoryLayout<Slot>.stride == 24)
        struct Wide: Equatable { var a, b, c, d, e: Int }
        guard case .transformable(let boxed) = AttributeValue.transformable(Wide(a: 1, b: 2, c: 3, d: 4, e: 5)) else {
            Issue.record("a transformable value came back as another case")
            return
        }
        #expect(boxed as? Wide == Wide(a: 1, b: 2, c: 3, d: 4, e: 5))

        let (context, books) = try fetchedBooks()
        #expect(books.contains { $0.slots.storedCount < $0.slots.count }, "the fixture's books leave some values NULL")
        for book in books {
            // A transient's slot is stored even while NULL: it is set while the object lives.
            let kept = book.slots.indices.filter { position in
                if case .attribute(let attribute) = book.schema.properties[position], attribute.isTransient { return true }
                if case .value(.null) = book.slots[position] { return false }
                return true
            }.count
            #expect(book.slots.storedCount == kept)
            // Each stored value takes its own size (a NULL transient a string's room), beside
            // a 2-byte descriptor each and one for the end, after the storage's 20-byte
            // object header and count. glibc's malloc hands out up to 47 bytes more than asked
            // for (a 16-byte multiple, and rather than split off a remainder too small to use).
            let payloads = book.slots.indices.reduce(0) { total, position in
                if case .attribute(let attribute) = book.schema.properties[position], attribute.isTransient,
                    case .value(.null) = book.slots[position]
                {
                    return total + 16
                }
                // A string longer than 15 bytes, up to 244, is kept as its bytes and their count.
                if case .value(.string(let text)) = book.slots[position], (16...244).contains(text.utf8.count) {
                    return total + (4 + text.utf8.count + 7) / 8 * 8
                }
                return total + book.slots[position].kind.payloadSize
            }
            #expect(book.slots.storageByteCount <= (20 + (kept + 1) * 2 + 7) / 8 * 8 + payloads + 47)
        }
        for book in books { _ = (book["title"], book["price"], book.object(forKey: "author")) }
        #expect(books.allSatisfy { $0.extras == nil })
        // Using that state makes the extras; letting it go keeps them, empty.
        let first = try #require(books.first)
        first.savingKey = 7
        #expect(first.extras?.savingKey == 7)
        first.savingKey = nil
        #expect(first.savingKey == nil)
        #expect(!context.hasChanges)
    }

    @Test func valuesWrittenByHandInOtherFormsStillDecode() throws {
        let (container, context) = try BookFixture.make()
        try context.storeConnection.execute(
            "UPDATE Book SET pages = '42', rating = 3, publishDate = 86400, price = 7 WHERE title = 'The Hobbit'")
        context.reset()
        let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == 'The Hobbit'"))
        let hobbit = try #require(try context.fetch(request).first)
        #expect(hobbit["pages"] as? Int64 == 42)
        #expect(hobbit["rating"] as? Double == 3)
        #expect(hobbit["publishDate"] as? Date == Date(timeIntervalSince1970: 86_400))
        #expect(hobbit["price"] as? Decimal == Decimal(7))
        _ = container
    }

    @Test func aValueOfTheWrongTypeIsReportedWithEntityAndAttribute() throws {
        let (container, context) = try BookFixture.make()
        try context.storeConnection.execute("UPDATE Book SET uuid = 'not a uuid' WHERE title = 'The Hobbit'")
        context.reset()
        #expect {
            _ = try context.fetch(FetchRequest(entityName: "Book"))
        } throws: { error in
            guard case StoreError.corruptValue(let entity, let attribute, let found) = error else { return false }
            return entity == "Book" && attribute == "uuid" && found == "TEXT"
        }
        _ = container
    }

    /// A price is parsed from SQLite's text in place: an exponent form still reads, and text
    /// that is no number is reported, not read as nil or zero.
    @Test func aPriceIsParsedFromItsStoredTextOrReported() throws {
        let (container, context) = try BookFixture.make()
        let hobbit = FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == 'The Hobbit'"))
        try context.storeConnection.execute("UPDATE Book SET price = '1.5e1' WHERE title = 'The Hobbit'")
        context.reset()
        #expect(try context.fetch(hobbit).first?["price"] as? Decimal == Decimal(15))

        try context.storeConnection.execute("UPDATE Book SET price = 'twelve' WHERE title = 'The Hobbit'")
        context.reset()
        #expect {
            _ = try context.fetch(hobbit)
        } throws: { error in
            guard case StoreError.corruptValue(let entity, let attribute, _) = error else { return false }
            return entity == "Book" && attribute == "price"
        }
        _ = container
    }

    /// Binary data is copied from SQLite's buffer as it is read (issue #47): every size reads
    /// back exactly (none, empty, five bytes, 64 KiB), and a column holding text instead of
    /// bytes is still reported, not read as data.
    @Test func binaryDataIsReadFromItsBlobOrReported() throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Swatch",
                attributes: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "bytes", type: .binaryData),
                ])
        ])
        let container = try PersistentContainer(model: model, storeURL: nil)
        let context = container.viewContext
        let values: [String: Data?] = [
            "none": nil, "empty": Data(), "five": Data([1, 0xC3, 0xF7, 0, 0xFF]),
            "large": Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
        ]
        for (name, bytes) in values {
            let swatch = try context.insertObject(forEntityName: "Swatch")
            swatch["name"] = name
            swatch["bytes"] = bytes
        }
        try context.save()
        context.reset()
        let fetched = try context.fetch(FetchRequest(entityName: "Swatch"))
        #expect(fetched.count == values.count)
        for swatch in fetched {
            let name = try #require(swatch["name"] as? String)
            #expect(swatch["bytes"] as? Data == values[name] ?? nil, "\(name)")
        }

        try context.storeConnection.execute("UPDATE Swatch SET bytes = 'not bytes' WHERE name = 'five'")
        context.reset()
        #expect {
            _ = try context.fetch(FetchRequest(entityName: "Swatch"))
        } throws: { error in
            guard case StoreError.corruptValue(let entity, let attribute, let found) = error else { return false }
            return entity == "Swatch" && attribute == "bytes" && found == "TEXT"
        }
    }

    @Test func whatAwakeFromFetchSetsIsNotAChange() throws {
        let container = try PersistentContainer(
            model: BookFixture.model(), storeURL: nil, classes: ["Book": AwakeningBook.self])
        let context = container.viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["pages"] = Int64(412)
        try context.save()
        context.reset()
        let fetched = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        #expect(fetched["monthID"] as? String == "pages:412")
        #expect(!fetched.hasChanges)
        #expect(!context.hasChanges)
        #expect(fetched.committedValues(forKeys: ["monthID"])["monthID"] as? String == "pages:412")
        // A change after waking is one.
        fetched["monthID"] = "other"
        #expect(fetched.hasChanges)
    }

    @Test func objectsLeaveTheRegistryWhenTheyGo() throws {
        let (_, context) = try BookFixture.make()
        context.reset()
        #expect(context.registry.isEmpty)
        do {
            let books = try context.fetch(FetchRequest(entityName: "Book"))
            #expect(books.count == 12)
            #expect(context.registry.count == 12)
        }
        #expect(context.registry.isEmpty)
    }

    @Test func sectionsMergeObjectsOfOneKeyEvenWhenNotSortedByIt() throws {
        let (_, context) = try BookFixture.make()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [.init("title")])
        let sections = try context.fetchSections(request, sectionKeyPath: "author.name")
        #expect(Set(sections.map(\.name)) == ["", "Gabriel García Márquez", "J. R. R. Tolkien"])
        #expect(sections.count == 3)
        #expect(sections.reduce(0) { $0 + $1.count } == 12)
        for section in sections {
            let titles = section.objects.map(\.debugTitle)
            let inOrder = try context.fetch(request).filter {
                (($0.object(forKey: "author")?["name"] as? String) ?? "") == section.name
            }.map(\.debugTitle)
            #expect(titles == inOrder)
        }
        #expect(throws: (any Error).self) {
            _ = try context.fetchSections(request, sectionKeyPath: "title.name")
        }
    }

    /// A one-key section path is read by position (the usual `publishMonthID`): objects of
    /// sub-entities, which share their parent's positions, get the same names as the key-path
    /// walk gives, and a key the entity lacks is still refused.
    @Test func oneKeySectionsOfSubEntitiesMatchTheKeyPathWalk() throws {
        let model = ManagedObjectModel {
            Entity("Media") {
                Attribute("kind", .string, optional: true)
                Attribute("made", .date, optional: true)
            }
            Entity("Photo", parent: "Media") { Attribute("width", .integer32, optional: true) }
            Entity("Recording", parent: "Media") { Attribute("seconds", .integer32, optional: true) }
        }
        let context = try PersistentContainer(model: model, storeURL: nil).viewContext
        for (entity, kind) in [("Photo", "still"), ("Recording", "sound"), ("Photo", nil), ("Media", "still")] {
            let object = try context.insertObject(forEntityName: entity)
            object["kind"] = kind
            object["made"] = kind.map { _ in Date(timeIntervalSince1970: 86_400) }
        }
        try context.save()
        context.reset()
        let request = FetchRequest(entityName: "Media", sortDescriptors: [.init("kind")])
        let sections = try context.fetchSections(request, sectionKeyPath: "kind")
        #expect(sections.map(\.name) == ["", "sound", "still"])
        #expect(sections.map { $0.objects.map(\.entityName).sorted() } == [["Photo"], ["Recording"], ["Media", "Photo"]])
        let walker = PredicateEvaluator(.alwaysTrue)
        for key in ["kind", "made"] {
            for section in try context.fetchSections(request, sectionKeyPath: key) {
                for object in section.objects {
                    #expect(try walker.walk(.object(object), [key]).sectionName == section.name)
                }
            }
        }
        #expect(throws: (any Error).self) { _ = try context.fetchSections(request, sectionKeyPath: "width") }
    }
}
