import Foundation
import Persistence
import PersistenceModel

/// A seeded generator of pseudo-random numbers (SplitMix64): the same seed gives the same
/// data, predicates and sorts on every machine, so that a failing case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }

    /// True with probability `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool { Int(next() % 100) < percent }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
}

/// The model and the random objects of the differential fuzz test: an entity with an
/// attribute of every type a predicate compares (`Item`), a sub-entity (`Gadget`), a to-one
/// (`Item.owner`), a to-many read through its inverse (`Person.items`) and a many-to-many
/// (`Item.tags`).
///
/// Every object has `n`, unique in its hierarchy: the name of the same object in the store
/// under test and among the unsaved objects the in-memory evaluator answers over.
enum FuzzLibrary {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Person") {
                Attribute("n", .integer64)
                Attribute("name", .string, indexedBySpotlight: true)
                Attribute("age", .integer16)
                Relationship("items", to: "Item", inverse: "owner", toMany: true)
            }
            Entity("Item") {
                Attribute("n", .integer64)
                Attribute("i16", .integer16)
                Attribute("i32", .integer32)
                Attribute("i64", .integer64)
                Attribute("dbl", .double)
                Attribute("flt", .float)
                Attribute("dec", .decimal)
                Attribute("str", .string, indexedBySpotlight: true)
                Attribute("alt", .string, indexedBySpotlight: true)
                Attribute("flag", .boolean)
                Attribute("when", .date)
                Attribute("id", .uuid)
                Attribute("link", .uri)
                Attribute("bytes", .binaryData)
                Relationship("owner", to: "Person", inverse: "items")
                Relationship("tags", to: "Tag", inverse: "items", toMany: true)
            }
            Entity("Gadget", parent: "Item") {
                Attribute("watts", .double)
            }
            Entity("Tag") {
                Attribute("n", .integer64)
                Attribute("name", .string)
                Attribute("weight", .integer32)
                Relationship("items", to: "Item", inverse: "tags", toMany: true)
            }
        }
    }

    // MARK: - Values

    /// The values each attribute type takes, nil aside: extremes, ties, case and diacritic
    /// pairs, wildcard characters, unicode beyond the BMP.
    static let int16s: [Int64] = [0, 1, -1, 7, 7, Int64(Int16.max), Int64(Int16.min)]
    static let int32s: [Int64] = [0, 42, -42, 1961, 1961, Int64(Int32.max), Int64(Int32.min)]
    static let int64s: [Int64] = [0, 1, -1, 1 << 53, (1 << 53) + 1, Int64.max, Int64.min, 1961]
    static let doubles: [Double] = [
        0, -0.0, 1.5, -2.25, 0.1, 3, 1e300, -1e300, 5e-324, .infinity, -.infinity, .nan, 1961,
    ]
    static let floats: [Double] = [0, 0.5, -1.25, 3, 1024, 1961]
    /// Decimals a Double holds exactly (every store keeps these).
    static let exactDecimals = ["0", "10.5", "10.50", "-0.25", "3", "1024.125", "-99999.5", "1961"]
    /// Decimals only a store keeping every digit keeps.
    static let longDecimals = ["-0.01", "123456.789", "12345678901234567890.123456789", "0.1"]
    static let strings = [
        "", "a", "A", "apple", "Apple", "APPLE", "école", "École", "ecole", "ÉCOLE", "naïve", "naive",
        "Zebra", "zebra", "日本語", "😀 smile", "a%b_c", "x*y?[z]", "Light", " light", "straße", "Ringworld",
        "The Lord of the Rings", "O'Hara", "e\u{301}cole",
    ]
    static let dates: [Date] = [
        Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 0),
        Date(timeIntervalSinceReferenceDate: 1_000_000_000.5), Date(timeIntervalSinceReferenceDate: -60_000_000_000),
        Date(timeIntervalSinceReferenceDate: 4_000_000_000), Date(timeIntervalSinceReferenceDate: 1234.25),
    ]
    static let uuids: [UUID] = [
        "00000000-0000-0000-0000-000000000000", "7D444840-9DC0-11D1-B245-5FFDCE74FAD2",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "12345678-1234-5678-9ABC-DEF012345678",
    ].compactMap(UUID.init(uuidString:))
    static let urls: [URL] = [
        "https://example.com/a", "https://example.com/b", "mailto:someone@example.com", "file:///tmp/x",
    ].compactMap(URL.init(string:))
    static let datas: [Data] = [Data(), Data([0]), Data([0, 1]), Data([255]), Data([1, 2, 3])]
    static let names = ["Ana", "ana", "Émile", "Bo", "", "Zoë", "Olga"]
    static let tagNames = ["sf", "SF", "classic", "poetry", "", "ünïcode"]

    static func decimals(keepsEveryDigit: Bool) -> [Decimal] {
        (exactDecimals + (keepsEveryDigit ? longDecimals : [])).compactMap { try? DecimalText.parse($0) }
    }

    // MARK: - Objects

    /// The objects of one insertion, by kind.
    struct Objects {
        var people: [ManagedObject] = []
        var items: [ManagedObject] = []
        var tags: [ManagedObject] = []
    }

    /// Inserts a random library into `context` (without saving): the same objects for the
    /// same seed. `keepsEveryDecimalDigit` leaves out decimals a Double cannot hold.
    @discardableResult
    static func insert(seed: UInt64, keepsEveryDecimalDigit: Bool, into context: ManagedObjectContext) throws -> Objects {
        var random = SeededGenerator(seed: seed)
        var objects = Objects()
        let decimals = decimals(keepsEveryDigit: keepsEveryDecimalDigit)
        func maybe<T>(_ values: [T]) -> T? { random.chance(15) ? nil : random.pick(values) }
        for n in 0..<random.int(3...7) {
            let person = try context.insertObject(forEntityName: "Person")
            try person.setValue(Int64(n), forKey: "n")
            try person.setValue(maybe(names), forKey: "name")
            try person.setValue(maybe(int16s), forKey: "age")
            objects.people.append(person)
        }
        for n in 0..<random.int(3...6) {
            let tag = try context.insertObject(forEntityName: "Tag")
            try tag.setValue(Int64(n), forKey: "n")
            try tag.setValue(maybe(tagNames), forKey: "name")
            try tag.setValue(maybe([Int64(0), 1, 2, 5, -3]), forKey: "weight")
            objects.tags.append(tag)
        }
        for n in 0..<random.int(15...30) {
            let isGadget = random.chance(30)
            let item = try context.insertObject(forEntityName: isGadget ? "Gadget" : "Item")
            try item.setValue(Int64(n), forKey: "n")
            try item.setValue(maybe(int16s), forKey: "i16")
            try item.setValue(maybe(int32s), forKey: "i32")
            try item.setValue(maybe(int64s), forKey: "i64")
            try item.setValue(maybe(doubles), forKey: "dbl")
            try item.setValue(maybe(floats).map { Float($0) }, forKey: "flt")
            try item.setValue(maybe(decimals), forKey: "dec")
            try item.setValue(maybe(strings), forKey: "str")
            try item.setValue(maybe(strings), forKey: "alt")
            try item.setValue(maybe([true, false]), forKey: "flag")
            try item.setValue(maybe(dates), forKey: "when")
            try item.setValue(maybe(uuids), forKey: "id")
            try item.setValue(maybe(urls), forKey: "link")
            try item.setValue(maybe(datas), forKey: "bytes")
            if isGadget { try item.setValue(maybe(doubles), forKey: "watts") }
            if !random.chance(20) { item.setObject(random.pick(objects.people), forKey: "owner") }
            for tag in objects.tags where random.chance(30) { item.addObject(tag, forKey: "tags") }
            objects.items.append(item)
        }
        return objects
    }
}
