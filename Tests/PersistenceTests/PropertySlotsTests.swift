import Foundation
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
            case .toOneFault(let id): return "toOneFault \(id.map(String.init(describing:)) ?? "nil")"
            case .toOne: return "toOne"
            case .toManyFault: return "toManyFault"
            case .toMany: return "toMany"
            }
        }
    }

    /// Random slots for `count` positions: NULL values at about half of them.
    private func randomSlots(_ count: Int, using generator: inout SystemRandomNumberGenerator) -> [StoredSlot] {
        (0..<count).map { position in
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1, 2: return .value(.null)
            case 3: return .value(.integer(Int64(position)))
            case 4: return .toManyFault
            default: return .value(.string("value at \(position), longer than fifteen bytes"))
            }
        }
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
            // Only the first 56 positions leave NULLs unstored.
            let stored = array.enumerated().filter { position, slot in
                if position >= 56 { return true }
                if case .value(.null) = slot { return false }
                return true
            }.count
            #expect(StoredSlots(array).stored.count == stored)
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
                let slot = randomSlots(1, using: &generator)[0]
                slots[position] = slot
                array[position] = slot
                #expect(slots.count == count)
            }
            #expect(described(slots) == described(StoredSlots(storingEach: array)))
        }
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

    @Test func nullsAreStoredWhereAskedSoThatSettingThemInsertsNothing() {
        var slots = StoredSlots([.value(.null), .value(.null)], storingNullsAt: 0b01)
        #expect(slots.count == 2)
        #expect(slots.stored.count == 1)
        let before = slots
        slots[0] = .value(.string("computed"))
        #expect(slots.stored.count == 1)
        #expect(described(slots) == ["value \"computed\"", "value nil"])
        #expect(described(before) == ["value nil", "value nil"])
    }

    /// An entity wider than the 56 positions that leave NULLs unstored: values on both
    /// sides of that line are saved, fetched, changed from and to NULL, and fetched again.
    @Test func aWideEntitysValuesRoundTripOnBothSidesOfTheStoredBits() throws {
        let names = (0..<70).map { String(format: "a%02d", $0) }
        let wide = EntityDescription(
            name: "Wide", attributes: names.map { AttributeDescription(name: $0, type: .integer64) })
        let store = TemporaryStore()
        let container = try PersistentContainer(model: ManagedObjectModel(entities: [wide]), storeURL: store.url)
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
        #expect(Set(read.changedValues().keys) == Set(["a01", "a03", "a55", "a56", "a57", "a60", "a69"]))
        #expect(names.map { read[$0] as? Int64 } == expected)
        try context.save()
        read = try fetched()
        #expect(names.map { read[$0] as? Int64 } == expected)
    }

    @Test func aFetchedObjectStoresOnlyItsNonNullValues() throws {
        let id = ObjectID(entityName: "Book", rootName: "Book", storeIdentifier: "S", key: .permanent(7))
        let slots = StoredSlots([.value(.null), .value(.string("title")), .value(.null), .toOneFault(id), .toManyFault])
        #expect(slots.count == 5)
        #expect(slots.stored.count == 3)
        let adopted = slots.adopted(by: ManagedObject.self)
        #expect(adopted.count == 5)
        guard case .toOneFault(let read?) = adopted[3], case .value(.string("title")) = adopted[1], case .value(.null) = adopted[2]
        else {
            Issue.record("the adopted slots read back differently")
            return
        }
        #expect(read == id)
    }
}
