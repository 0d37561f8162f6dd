import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// The fast paths (UUID text, stored slots, in-memory uniqueness, unloaded inverses,
/// streaming) answer exactly what the plain ways of doing the same work answer.
@Suite struct FastPathEquivalenceTests {
    @Test func uuidTextParsesTheCanonicalFormInEitherCase() throws {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
        #expect(
            UUIDText.parse("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
                == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    }

    /// Every byte value at every position of a canonical UUID: the word-at-a-time parse
    /// accepts exactly what a reading digit by digit accepts, and reads the same bytes.
    @Test func uuidTextAgreesWithADigitByDigitReadingForEveryByteAtEveryPosition() {
        func digitByDigit(_ text: [UInt8]) -> [UInt8]? {
            var digits: [UInt8] = []
            for (index, byte) in text.enumerated() {
                if [8, 13, 18, 23].contains(index) {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digits.append(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
            }
            return stride(from: 0, to: 32, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
        }
        let canonical = Array("01234567-89aB-CdEf-0123-456789AbCdEf".utf8)
        var disagreements: [String] = []
        for position in canonical.indices {
            for byte in UInt8.min...UInt8.max {
                var text = canonical
                text[position] = byte
                let parsed = text.withUnsafeBytes { UUIDText.parseCanonical($0) }.map { uuid in
                    withUnsafeBytes(of: uuid.uuid) { Array($0) }
                }
                if parsed != digitByDigit(text) { disagreements.append("byte \(byte) at \(position)") }
            }
        }
        #expect(disagreements.isEmpty)
        #expect(canonical.withUnsafeBytes { UUIDText.parseCanonical($0) } == UUID(uuidString: String(decoding: canonical, as: UTF8.self)))
    }

    @Test func uuidTextFormatsAsFoundationDoes() {
        let fixed = UUID(uuid: (0x00, 0x01, 0x0A, 0x0F, 0x10, 0x9F, 0xA0, 0xFF, 0x5A, 0xE6, 0x21, 0xC3, 0x6C, 0x49, 0xFE, 0xED))
        #expect(UUIDText.format(fixed) == "00010A0F-109F-A0FF-5AE6-21C36C49FEED")
        #expect(UUIDText.format(fixed) == fixed.uuidString)
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUIDText.format(uuid) == uuid.uuidString)
            #expect(UUIDText.parse(UUIDText.format(uuid)) == uuid)
        }
    }

    @Test(arguments: [
        "", "not a uuid", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
        "E621E1F8XC36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", "{E621E1F8-C36C-495A-93FC-0C247A3E6E}",
        // Bytes next to the digits' and letters' ranges, and a non-ASCII one (36 bytes in all).
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5:", "/621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5@",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5`", "E621E1F8-C36C-495A-93FC-0C247A3E6E5g", "E621E1F8-C36C-495A-93FC-0C247A3E6Eé",
    ])
    func uuidTextRefusesWhatFoundationRefuses(_ text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    /// A row's slots become an object's without a copy, which is sound only while a slot's
    /// layout does not depend on its object class: every case a store makes (and the object
    /// cases with no object) reads back through the conversion as it was made.
    @Test func storedSlotsReadTheSameAsAnObjectsSlots() {
        #expect(MemoryLayout<StoredSlot>.size == MemoryLayout<Slot>.size)
        #expect(MemoryLayout<StoredSlot>.stride == MemoryLayout<Slot>.stride)
        #expect(MemoryLayout<StoredSlot>.alignment == MemoryLayout<Slot>.alignment)
        let id = ObjectID(entityName: "Book", rootName: "Book", storeIdentifier: "S", key: .permanent(42))
        let values: [AttributeValue] = [
            .null, .integer(-7), .double(2.5), .decimal(Decimal(string: "-12.345")!), .bool(true),
            .string("a title longer than fifteen bytes"), .string("short"), .date(Date(timeIntervalSince1970: 1e9)),
            .uuid(UUID()), .url(URL(string: "https://example.com/a")!), .data(Data([1, 2, 3])),
            .transformable([1, 2, 3] as [Int]),
        ]
        let stored: [StoredSlot] =
            values.map { .value($0) } + [.toOneFault(nil), .toOneFault(id), .toManyFault, .toOne(nil), .toMany([])]
        let adopted = StoredSlots(storingEach: stored).adopted(by: ManagedObject.self)
        #expect(adopted.count == stored.count)
        for (index, value) in values.enumerated() {
            guard case .value(let read) = adopted[index] else {
                Issue.record("slot \(index) is not a value")
                continue
            }
            #expect(read == value, "slot \(index)")
        }
        let rest = adopted[values.count...]
        let first = rest.startIndex
        guard rest.count == 5, case .toOneFault(nil) = rest[first], case .toOneFault(let read?) = rest[first + 1],
            case .toManyFault = rest[first + 2], case .toOne(nil) = rest[first + 3], case .toMany(let objects) = rest[first + 4]
        else {
            Issue.record("the relationship slots read back as \(Array(rest))")
            return
        }
        #expect(read == id)
        #expect(objects.isEmpty)
    }

    /// Transformable values are equal when hashable and equal, or the same class instance;
    /// any other pair counts as different, so a save writes it.
    @Test func transformableValuesCompareByValueOrIdentity() {
        final class Box: Sendable {}
        struct Opaque { var n: Int }
        let box = Box()
        #expect(AttributeValue.transformable(box) == .transformable(box))
        #expect(AttributeValue.transformable(Box()) != .transformable(Box()))
        #expect(AttributeValue.transformable([1, 2]) == .transformable([1, 2]))
        #expect(AttributeValue.transformable([1, 2]) != .transformable([2, 1]))
        #expect(AttributeValue.transformable(Opaque(n: 1)) != .transformable(Opaque(n: 1)))
        #expect(AttributeValue.transformable(box) != .transformable(Opaque(n: 1)))
    }

    @Test func sqlIdentifierQuotesAndDoublesEmbeddedQuotes() {
        #expect(sqlIdentifier("title") == "\"title\"")
        #expect(sqlIdentifier("a\"b") == "\"a\"\"b\"")
        #expect(sqlIdentifier("") == "\"\"")
    }

    @Test func twoNewObjectsWithOneUniqueValueConflictBeforeTheStoreIsTouched() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        try context.insertObject(forEntityName: "Item")["code"] = "y"
        try context.insertObject(forEntityName: "Item")["code"] = "x"
        let error = try #require(throws: ConstraintConflictError.self) { try context.save() }
        #expect(error.keys == ["code"])
        #expect(error.values == ["\"x\""])
        #expect(try store.count("Item", everyTypeModel()) == 0)
    }

    @Test func distinctUniqueValuesSaveTogether() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        for code in ["x", "y", "X", "x "] { try context.insertObject(forEntityName: "Item")["code"] = code }
        try context.save()
        #expect(try store.count("Item", everyTypeModel()) == 4)
    }

    /// Authors with a to-many `books` whose count rules are given.
    private func shelfModel(optional: Bool, maxCount: Int) -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Shelf") {
                Attribute("name", .string)
                Relationship("books", to: "Volume", inverse: "shelf", toMany: true, optional: optional, maxCount: maxCount)
            }
            Entity("Volume") {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
        }
    }

    @Test func countRulesOnAToManyStillFailASave() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: shelfModel(optional: false, maxCount: 1), storeURL: store.url)
        let context = container.viewContext
        let empty = try context.insertObject(forEntityName: "Shelf")
        empty["name"] = "empty"
        let full = try context.insertObject(forEntityName: "Shelf")
        full["name"] = "full"
        for title in ["a", "b"] {
            let volume = try context.insertObject(forEntityName: "Volume")
            volume["title"] = title
            volume["shelf"] = full
        }
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(Set(error.failures.map(\.rule)) == [.missingMandatoryProperty, .relationshipExceedsMaximumCount])
    }

    @Test func deletingOneOfManyLeavesTheInverseToManyUnloaded() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: shelfModel(optional: true, maxCount: 0), storeURL: store.url)
            let context = container.viewContext
            let shelf = try context.insertObject(forEntityName: "Shelf")
            for title in ["a", "b", "c"] {
                let volume = try context.insertObject(forEntityName: "Volume")
                volume["title"] = title
                volume["shelf"] = shelf
            }
            try context.save()
        }
        let container = try PersistentContainer(model: shelfModel(optional: true, maxCount: 0), storeURL: store.url)
        let context = container.viewContext
        let volumes = try context.fetch(FetchRequest(entityName: "Volume", predicate: try FetchPredicate("title == 'a'")))
        let volume = try #require(volumes.first)
        let shelf = try #require(volume["shelf"] as? ManagedObject)
        let position = try #require(shelf.schema.propertyIndex["books"])
        context.delete(volume)
        try context.save()
        guard case .toManyFault = shelf.slots[position] else {
            Issue.record("saving the delete loaded the shelf's books")
            return
        }
        #expect((shelf["books"] as? [ManagedObject])?.count == 2)
    }

    @Test func streamingAFetchDoesNotKeepAnEntryPerRow() throws {
        let store = TemporaryStore()
        let count = 10_000
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            for i in 0..<count { try container.viewContext.insertObject(forEntityName: "Item")["code"] = "c\(i)" }
            try container.viewContext.save()
        }
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        var seen = 0
        var kept: ManagedObject?
        try context.forEach(FetchRequest(entityName: "Item")) { object in
            if seen == 0 { kept = object }
            seen += 1
            return true
        }
        #expect(seen == count)
        // Only the object kept is still registered: the others removed their entries as they went.
        #expect(context.registry.count == 1)
        // A live object stays registered: fetching it again gives the same instance.
        let first = try #require(kept)
        #expect(try context.object(with: first.objectID) === first)
    }
}
