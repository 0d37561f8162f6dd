import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// An object's slots keep no storage for NULL values and read, write and count as one slot
/// per position whatever is stored.
@Suite struct PropertySlotsTests {
    /// The slot at each position as the slots' own case name and value, comparable.
    private func described(_ slots: StoredSlots) -> [String] {
        slots.map { slot in
            switch slot {
            case .value(let value): return "value \(value)"
            case .toOneFault(let id):
                return "toOneFault \(id.map(String.init(describing:)) ?? "nil")"
            case .toOne: return "toOne"
            case .toManyFault: return "toManyFault"
            case .toMany: return "toMany"
            }
        }
    }

    /// Random slots for `count` positions: NULL values at about two in five.
    private func randomSlots(_ count: Int, using generator: inout SystemRandomNumberGenerator)
        -> [StoredSlot]
    {
        (0..<count).map { randomSlot(at: $0, using: &generator) }
    }

    /// A random slot of any kind for `position` (NULL ten times in 24).
    private func randomSlot(at position: Int, using generator: inout SystemRandomNumberGenerator)
        -> StoredSlot
    {
        switch Int.random(in: 0..<24, using: &generator) {
        case 0..<10: return .value(.null)
        case 10: return .value(.integer(Int64(position)))
        case 11: return .toManyFault
        case 12: return .value(.double(Double(position) / 3))
        case 13: return .value(.decimal(Decimal(string: "12345678901234567890.\(position)")!))
        case 14: return .value(.bool(position % 2 == 0))
        case 15: return .value(.date(Date(timeIntervalSince1970: Double(position))))
        case 16: return .value(.uuid(UUID()))
        case 17: return .value(.url(URL(string: "https://example.com/\(position)")!))
        case 18: return .value(.data(Data(repeating: UInt8(position % 256), count: position % 40)))
        case 19: return .value(.transformable([position, position + 1]))
        case 20: return .toOneFault(nil)
        case 21:
            return .toOneFault(
                ObjectID(
                    entityName: "E", rootName: "E", storeIdentifier: "S",
                    key: .permanent(Int64(position))))
        case 22:
            return .toOneFault(
                ObjectID(
                    entityName: "E", rootName: "E", storeIdentifier: "S",
                    key: .temporary(UInt64(position))))
        default: return .value(.string("value at \(position), longer than fifteen bytes"))
        }
    }

    /// The slots of `array` as a store decodes a row: each NULL below position 56 left out,
    /// each string written as its UTF-8 bytes (inline when they fit), the rest as slots.
    private func decoded(_ array: [StoredSlot]) -> StoredSlots {
        func isStored(_ position: Int) -> Bool {
            guard position < StoredSlots.storageBitCount, case .value(.null) = array[position] else { return true }
            return false
        }
        var presence: UInt64 = 0
        for position in array.indices.prefix(StoredSlots.storageBitCount) where isStored(position) {
            presence |= 1 << UInt64(position)
        }
        let stored = array.indices.filter(isStored)
        return StoredSlots(count: array.count, presence: presence, storedCount: stored.count, keptNulls: 0) {
            index, payload in
            let slot = array[stored[index]]
            guard case .value(.string(var text)) = slot else { return payload.store(slot) }
            return text.withUTF8 { payload.store(utf8: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The kind slot `position` is stored as.
    private func storedKind(_ slots: StoredSlots, at position: Int) -> SlotKind? {
        slots.storedIndex(of: position).map { slots.storage.layout.descriptor(at: $0).kind }
    }

    @Test(arguments: [0, 1, 16, 55, 56, 57, 64, 130])
    func everyWayOfMakingSlotsReadsAsTheArrayItWasMadeFrom(count: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let array = randomSlots(count, using: &generator)
            let expected = described(StoredSlots(storingEach: array))
            #expect(expected.count == count)
            #expect(StoredSlots(array).count == count)
            #expect(described(StoredSlots(array)) == expected)
            #expect(described(decoded(array)) == expected)
            // Only the first 56 positions leave NULLs unstored.
            let stored = array.enumerated().filter { position, slot in
                if position >= 56 { return true }
                if case .value(.null) = slot { return false }
                return true
            }.count
            #expect(StoredSlots(array).storedCount == stored)
        }
    }

    @Test(arguments: [3, 56, 80])
    func writesInAnyOrderLandAtTheirPositions(count: Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var slots = StoredSlots(nullCount: count)
            var array = [StoredSlot](repeating: .value(.null), count: count)
            #expect(described(slots) == described(StoredSlots(storingEach: array)))
            for _ in 0..<(count * 2) {
                let position = Int.random(in: 0..<count, using: &generator)
                let slot = randomSlot(at: position, using: &generator)
                slots[position] = slot
                array[position] = slot
                #expect(slots.count == count)
            }
            #expect(described(slots) == described(StoredSlots(storingEach: array)))
        }
        // The same from slots as a store decodes them (strings as bytes), held once and shared;
        // a value set through `setValue(_:at:)` half the time, which must write what the
        // subscript writes.
        for _ in 0..<20 {
            var array = randomSlots(count, using: &generator)
            var slots = decoded(array)
            var (shared, sharedArray) = (slots, array)
            for _ in 0..<(count * 2) {
                let position = Int.random(in: 0..<count, using: &generator)
                let slot = randomSlot(at: position, using: &generator)
                if case .value(let value) = slot, Bool.random(using: &generator) {
                    slots.setValue(value, at: position)
                } else {
                    slots[position] = slot
                }
                array[position] = slot
                if Bool.random(using: &generator) { (shared, sharedArray) = (slots, array) }
            }
            #expect(described(slots) == described(StoredSlots(storingEach: array)))
            #expect(described(shared) == described(StoredSlots(storingEach: sharedArray)))
        }
    }

    /// `setValue(_:at:)` puts a value that fits its room in place (random values:
    /// `writesInAnyOrderLandAtTheirPositions`).
    @Test func settingAValueThatFitsWritesItInPlace() {
        var slots = StoredSlots([.value(.string("a string longer than fifteen bytes")), .value(.integer(1))])
        let original = ObjectIdentifier(slots.storage)
        slots.setValue(.date(Date(timeIntervalSince1970: 86_400)), at: 1)
        slots.setValue(.string("short"), at: 0)
        #expect(ObjectIdentifier(slots.storage) == original)
        #expect(described(slots) == ["value \"short\"", "value 1970-01-02 00:00:00 +0000"])
    }

    /// A string a store reads is kept as its UTF-8 bytes when longer than a `String` holds
    /// inline and short enough to fit, and reads back as `String(decoding:as:)` of them:
    /// empty, ASCII, multi-byte, an embedded NUL and invalid bytes (repaired) alike.
    @Test func aStringReadFromAStoreIsKeptAsItsBytesAndReadsBackTheSame() {
        let texts: [[UInt8]] = [
            [], Array("fifteen bytes!!".utf8), Array("sixteen bytes!!!".utf8),
            Array("Ærø Dvořák Łąka Straße 12345".utf8), Array(repeating: 0x61, count: 244),
            Array(repeating: 0x62, count: 245), Array("a NUL inside, then more".utf8) + [0] + Array("tail".utf8),
            [0x66, 0x6F, 0xFF, 0xFE, 0x80] + Array("invalid bytes before this".utf8),
        ]
        for bytes in texts {
            let slots = StoredSlots(count: 1, presence: 1, storedCount: 1, keptNulls: 0) { _, payload in
                bytes.withUnsafeBytes { payload.store(utf8: $0) }
            }
            guard case .value(.string(let read)) = slots[0] else {
                Issue.record("\(bytes.count) bytes read as \(slots[0])")
                continue
            }
            #expect(read == String(decoding: bytes, as: UTF8.self))
            let inline = bytes.count > 15 && bytes.count <= 244
            #expect(storedKind(slots, at: 0) == (inline ? .utf8 : .string), "\(bytes.count) bytes")
        }
    }

    /// A row's strings share a bounded room past the widest payload each: once it is used,
    /// the rest are kept as `String`s, and every one reads back the same.
    @Test func aRowsLongStringsShareABoundedRoom() {
        let texts = (0..<10).map { String(repeating: Character(UnicodeScalar(UInt8(97 + $0))), count: 100) }
        let slots = StoredSlots(count: texts.count, presence: (1 << 10) - 1, storedCount: texts.count, keptNulls: 0) {
            index, payload in
            var text = texts[index]
            return text.withUTF8 { payload.store(utf8: UnsafeRawBufferPointer($0)) }
        }
        #expect(described(slots) == texts.map { "value \"\($0)\"" })
        let kinds = texts.indices.map { storedKind(slots, at: $0) }
        #expect(kinds.first == .utf8)
        #expect(kinds.last == .string)
        let scratch = texts.count * SlotKind.widestPayloadSize + SlotStorage.extraTextRoom
        #expect(slots.storage.layout.payloadSize <= scratch)
    }

    /// A value written over a string kept as bytes goes in place when it fits; a copy of
    /// shared storage keeps the others as bytes.
    @Test func aStringKeptAsBytesIsReplacedInPlaceAndCopiedAsBytes() {
        let title = "Ærø Dvořák Łąka Straße 12345"
        var slots = decoded([.value(.string(title)), .value(.integer(1)), .value(.string("another one, long enough"))])
        #expect(storedKind(slots, at: 0) == .utf8)
        let original = ObjectIdentifier(slots.storage)
        slots[0] = .value(.string("changed"))
        #expect(ObjectIdentifier(slots.storage) == original)
        #expect(storedKind(slots, at: 0) == .string)

        let shared = slots
        slots[1] = .value(.integer(2))
        #expect(!slots.sharesStorage(with: shared))
        #expect(storedKind(slots, at: 2) == .utf8)
        #expect(described(slots) == ["value \"changed\"", "value 2", "value \"another one, long enough\""])
        #expect(described(shared) == ["value \"changed\"", "value 1", "value \"another one, long enough\""])
    }

    @Test func aCopyIsIndependentAndSharesStorageUntilWritten() {
        var slots = StoredSlots([.value(.integer(1)), .value(.null), .toManyFault])
        let copy = slots
        #expect(slots.sharesStorage(with: copy))
        slots[1] = .value(.string("now set"))
        #expect(!slots.sharesStorage(with: copy))
        #expect(described(copy) == ["value 1", "value nil", "toManyFault"])
        #expect(described(slots) == ["value 1", "value \"now set\"", "toManyFault"])
        // Storing NULL where nothing is stored changes nothing, shares what it shared.
        var same = copy
        same[1] = .value(.null)
        #expect(same.sharesStorage(with: copy))
    }

    /// A value no larger than the one it replaces goes in place when nothing else holds the
    /// storage; a larger one, or any change to shared storage, makes new storage.
    @Test func aValueThatFitsGoesInPlaceUnlessTheStorageIsShared() {
        var slots = StoredSlots([
            .value(.string("a string longer than fifteen bytes")), .value(.integer(1)),
            .toManyFault,
        ])
        let original = ObjectIdentifier(slots.storage)
        slots[0] = .value(.string("another string, also longer than fifteen"))
        slots[1] = .value(.date(Date(timeIntervalSince1970: 86_400)))
        slots[1] = .value(.null)
        #expect(ObjectIdentifier(slots.storage) == original)
        #expect(
            described(slots) == [
                "value \"another string, also longer than fifteen\"", "value nil", "toManyFault",
            ])

        // A NULL keeps its room: a value of that size goes back in place.
        slots[1] = .value(.double(2.5))
        #expect(ObjectIdentifier(slots.storage) == original)

        let shared = slots
        slots[1] = .value(.integer(3))
        #expect(!slots.sharesStorage(with: shared))
        #expect(
            described(shared) == [
                "value \"another string, also longer than fifteen\"", "value 2.5", "toManyFault",
            ])

        // Larger than its room (a transformable's existential is four words): rebuilt, the
        // other values moved over intact.
        let before = ObjectIdentifier(slots.storage)
        slots[2] = .value(.transformable(["a", "b"]))
        #expect(ObjectIdentifier(slots.storage) != before)
        #expect(slots[2].kind == .transformable)
        guard case .value(.transformable(let value)) = slots[2], value as? [String] == ["a", "b"]
        else {
            Issue.record("the transformable value read back differently")
            return
        }
        #expect(
            described(slots).prefix(2) == [
                "value \"another string, also longer than fifteen\"", "value 3",
            ])
    }

    /// The storage's descriptors start where its layout expects `ManagedBuffer` to put its
    /// elements, so that its size is worked out right.
    @Test func theDescriptorsStartWhereTheStorageExpects() {
        let storage = StoredSlots([.value(.integer(1))]).storage
        let offset = storage.withUnsafeMutablePointerToElements { UnsafeRawPointer($0) }
            - UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
        #expect(offset == SlotStorage.elementsOffset)
        #expect(storage.layout.payloads.alignedUp(toMultipleOf: 8) == storage.layout.payloads)
    }

    /// Every kind's payload fits the widest room (a NULL's room in an inserted object), and
    /// each kind's raw value reads back as the kind.
    @Test func everyKindFitsTheWidestRoom() {
        for kind in SlotKind.allCases {
            #expect(kind.payloadSize <= SlotKind.widestPayloadSize, "\(kind)")
            #expect(kind.payloadSize % 8 == 0, "\(kind)")
            #expect(SlotKind(validRawValue: kind.rawValue) == kind)
        }
    }

    /// Payloads past what 2-byte descriptors address (over 16 KiB of values in one object)
    /// switch the storage to 4-byte descriptors, read and written the same way.
    @Test func slotsPastSixteenKibibytesReadAndWriteAsAnyOther() {
        let count = 600
        var array = (0..<count).map { StoredSlot.value(.transformable($0)) }
        var slots = StoredSlots(array)
        #expect(slots.storage.layout.isWide)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<(count * 3) {
            let position = Int.random(in: 0..<count, using: &generator)
            let slot = randomSlot(at: position, using: &generator)
            slots[position] = slot
            array[position] = slot
        }
        #expect(described(slots) == described(StoredSlots(storingEach: array)))
        #expect(described(StoredSlots(array)) == described(StoredSlots(storingEach: array)))
    }

    @Test func nullsAreStoredWhereAskedSoThatSettingThemInsertsNothing() {
        var slots = StoredSlots([.value(.null), .value(.null)], storingNullsAt: 0b01)
        #expect(slots.count == 2)
        #expect(slots.storedCount == 1)
        let before = slots
        slots[0] = .value(.string("computed"))
        #expect(slots.storedCount == 1)
        #expect(described(slots) == ["value \"computed\"", "value nil"])
        #expect(described(before) == ["value nil", "value nil"])
    }

    /// An entity wider than the 56 positions that leave NULLs unstored: values on both
    /// sides of that line are saved, fetched, changed from and to NULL, and fetched again.
    @Test func aWideEntitysValuesRoundTripOnBothSidesOfTheStoredBits() throws {
        let names = (0..<70).map { String(format: "a%02d", $0) }
        let wide = EntityDescription(
            name: "Wide", attributes: names.map { AttributeDescription(name: $0, type: .integer64) }
        )
        let store = TemporaryStore()
        let container = try PersistentContainer(
            model: ManagedObjectModel(entities: [wide]), storeURL: store.url)
        let context = container.viewContext
        let object = try context.insertObject(forEntityName: "Wide")
        var expected: [Int64?] = names.indices.map { $0 % 3 == 0 ? Int64($0) : nil }
        for (name, value) in zip(names, expected) { object[name] = value }
        try context.save()

        func fetched() throws -> ManagedObject {
            context.reset()
            return try #require(try context.fetch(FetchRequest(entityName: "Wide")).first)
        }
        var read = try fetched()
        #expect(names.map { read[$0] as? Int64 } == expected)
        #expect(!read.hasChanges)

        // From NULL to a value and back, below position 56 and past it.
        for position in [1, 3, 55, 56, 57, 60, 69] {
            expected[position] = expected[position] == nil ? Int64(1000 + position) : nil
            read[names[position]] = expected[position]
        }
        #expect(
            Set(read.changedValues().keys)
                == Set(["a01", "a03", "a55", "a56", "a57", "a60", "a69"]))
        #expect(names.map { read[$0] as? Int64 } == expected)
        try context.save()
        read = try fetched()
        #expect(names.map { read[$0] as? Int64 } == expected)
    }

    /// A value that cannot be decoded in the middle of a row (a transformer that refuses
    /// its bytes) is reported; what the row's earlier columns decoded is released with it,
    /// and the other rows read as they should.
    @Test func aValueThatFailsMidRowIsReportedAndTheOtherRowsRead() throws {
        struct Picky: ValueTransforming {
            func transformedValue(_ value: any Sendable) throws -> Data { Data((value as? String ?? "").utf8) }
            func reverseTransformedValue(_ data: Data) throws -> any Sendable {
                let text = String(decoding: data, as: UTF8.self)
                guard text != "refused" else { throw CocoaError(.coderReadCorrupt) }
                return text
            }
        }
        let name = "PickyTransformer-\(UUID().uuidString)"
        ValueTransformers.register(Picky(), forName: name)
        defer { ValueTransformers.unregister(name: name) }
        let entity = EntityDescription(
            name: "Note",
            attributes: [
                AttributeDescription(name: "a", type: .string),
                AttributeDescription(name: "b", type: .transformable, valueTransformerName: name),
                AttributeDescription(name: "c", type: .string),
            ])
        let store = TemporaryStore()
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [entity]), storeURL: store.url)
        let context = container.viewContext
        for value in ["kept", "refused"] {
            let note = try context.insertObject(forEntityName: "Note")
            note["a"] = "a string long enough to live on the heap, \(value)"
            note["b"] = value
            note["c"] = "after"
        }
        try context.save()
        context.reset()
        #expect(throws: (any Error).self) { try context.fetch(FetchRequest(entityName: "Note")) }
        var request = FetchRequest(entityName: "Note")
        request.predicate = try FetchPredicate("a ENDSWITH %@", "kept")
        let kept = try context.fetch(request)
        #expect(kept.count == 1)
        #expect(kept.first?.transformedValue(at: 1, forKey: "b", as: String.self) == "kept")
        #expect(kept.first?["c"] as? String == "after")
    }

    @Test func aFetchedObjectStoresOnlyItsNonNullValues() throws {
        let id = ObjectID(
            entityName: "Book", rootName: "Book", storeIdentifier: "S", key: .permanent(7))
        let slots = StoredSlots([
            .value(.null), .value(.string("title")), .value(.null), .toOneFault(id), .toManyFault,
        ])
        #expect(slots.count == 5)
        #expect(slots.storedCount == 3)
        let adopted = slots.adopted(by: ManagedObject.self)
        #expect(adopted.count == 5)
        guard case .toOneFault(let read?) = adopted[3], case .value(.string("title")) = adopted[1],
            case .value(.null) = adopted[2]
        else {
            Issue.record("the adopted slots read back differently")
            return
        }
        #expect(read == id)
    }

    /// Decimals whose bytes past the eighth are zero (every price) are kept in one word, the
    /// rest in three, and every one reads back with exactly its bits.
    @Test func aDecimalIsKeptInOneWordWhenItFitsAndReadsBackBitForBit() throws {
        let compact: [Decimal] = [
            0, 1, -1, try DecimalText.parse("12.99"), try DecimalText.parse("-0.0001"),
            Decimal(UInt32.max), Decimal(string: "4294967295e-20")!, .nan,
        ]
        let whole: [Decimal] = [
            Decimal(UInt64(UInt32.max) + 1), Decimal(string: "123456789012345678901234567890")!,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        ]
        func bytes(_ value: Decimal) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
        for (values, kind) in [(compact, SlotKind.compactDecimal), (whole, .decimal)] {
            for value in values {
                let slots = StoredSlots([.value(.decimal(value)), .value(.integer(1))])
                let stored = slots.storage.layout.descriptor(at: 0)
                #expect(stored.kind == kind, "\(value)")
                #expect(slots.storage.layout.descriptor(at: 1).offset == kind.payloadSize, "\(value)")
                guard case .value(.decimal(let read)) = slots[0] else {
                    Issue.record("\(value) read back as \(slots[0])")
                    continue
                }
                #expect(bytes(read) == bytes(value), "\(value)")
            }
        }
        #expect(SlotKind.compactDecimal.payloadSize == 8)

        // A price written over a price goes in place; a wide value over it makes new storage.
        var slots = StoredSlots([.value(.decimal(try DecimalText.parse("12.99"))), .value(.integer(1))])
        let original = ObjectIdentifier(slots.storage)
        slots[0] = .value(.decimal(try DecimalText.parse("7.50")))
        #expect(ObjectIdentifier(slots.storage) == original)
        slots[0] = .value(.decimal(.greatestFiniteMagnitude))
        #expect(ObjectIdentifier(slots.storage) != original)
        guard case .value(.decimal(let wide)) = slots[0], case .value(.integer(1)) = slots[1] else {
            Issue.record("the values read back differently: \(Array(slots))")
            return
        }
        #expect(bytes(wide) == bytes(.greatestFiniteMagnitude))
    }
}
