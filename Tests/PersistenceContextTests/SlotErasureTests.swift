import Foundation
import Testing

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// The unsafe casts of the slots: `SlotErasure.swift`'s (a `PropertySlot` of any class has
/// the layout of a `StoredSlot`, every case survives the trip through the storage with its
/// references, which are retained and released exactly as they should be, and reads as
/// itself in the storage's own type) and `SlotKind`'s (a descriptor's byte is its kind). CI
/// runs this suite under AddressSanitizer too.
@Suite struct SlotErasureTests {
    final class Plain {}
    final class Wide { var a = 0, b = 0.0, c = "", d: [Int] = [] }
    class Base {}
    final class Derived: Base {}
    final class Generic<T> { var value: T? }

    /// The layout of a slot of `Object` against a stored slot's.
    private func sameLayout<Object: AnyObject>(_: Object.Type) -> Bool {
        MemoryLayout<PropertySlot<Object>>.size == MemoryLayout<StoredSlot>.size
            && MemoryLayout<PropertySlot<Object>>.stride == MemoryLayout<StoredSlot>.stride
            && MemoryLayout<PropertySlot<Object>>.alignment == MemoryLayout<StoredSlot>.alignment
    }

    @Test func slotsOfEveryKindOfClassAreLaidOutAsStoredSlots() {
        #expect(sameLayout(Plain.self))
        #expect(sameLayout(Wide.self))
        #expect(sameLayout(Base.self))
        #expect(sameLayout(Derived.self))
        #expect(sameLayout(Generic<String>.self))
        #expect(sameLayout(ManagedObject.self))
        #expect(sameLayout(NSObject.self))
    }

    @Test func everyCaseComesBackAsItWent() throws {
        let one = Plain()
        let many = [Plain(), Plain(), Plain()]
        let id = ObjectID(entityName: "Book", rootName: "Book", storeIdentifier: "S", key: .permanent(42))
        let slots: [PropertySlot<Plain>] = [
            .value(.null), .value(.string("Solaris")), .value(.integer(.min)), .value(.decimal(Decimal(string: "12.30")!)),
            .toOneFault(nil), .toOneFault(id), .toOne(nil), .toOne(one), .toManyFault, .toMany([]), .toMany(many),
        ]
        for slot in slots {
            let back = slot.erased.typed(as: Plain.self)
            switch (slot, back) {
            case (.value(let a), .value(let b)): #expect(a.description == b.description)
            case (.toOneFault(let a), .toOneFault(let b)): #expect(a == b)
            case (.toOne(let a), .toOne(let b)): #expect(a === b)
            case (.toManyFault, .toManyFault): break
            case (.toMany(let a), .toMany(let b)): #expect(a.count == b.count && zip(a, b).allSatisfy { $0 === $1 })
            default: Issue.record("\(slot) came back as \(back)")
            }
        }
        // Through the storage itself, as an object's slots keep them.
        var stored = PropertySlots<Plain>(slots)
        #expect(stored.count == slots.count)
        if case .toOne(let object?) = stored[7] { #expect(object === one) } else { Issue.record("to-one lost") }
        if case .toMany(let objects) = stored[10] { #expect(objects.count == 3 && objects[2] === many[2]) } else {
            Issue.record("to-many lost")
        }
        stored[7] = .toOne(many[0])
        if case .toOne(let object?) = stored[7] { #expect(object === many[0]) } else { Issue.record("to-one not replaced") }
    }

    /// The erased slot read in its own type (`StoredSlot`), not only cast back: a layout that
    /// differed between the two types but round-tripped would still fail here.
    @Test func anErasedSlotReadsAsTheSameCaseInTheStoragesOwnType() {
        let one = Plain()
        let many = [Plain(), Plain()]
        let id = ObjectID(entityName: "Book", rootName: "Book", storeIdentifier: "S", key: .temporary(7))
        func address(_ object: AnyObject) -> UnsafeMutableRawPointer { Unmanaged.passUnretained(object).toOpaque() }
        let stored = [
            PropertySlot<Plain>.value(.string("Solaris")).erased, PropertySlot<Plain>.toOne(one).erased,
            PropertySlot<Plain>.toMany(many).erased, PropertySlot<Plain>.toOneFault(id).erased,
            PropertySlot<Plain>.toOne(nil).erased, PropertySlot<Plain>.toManyFault.erased,
        ]
        guard case .value(.string("Solaris")) = stored[0] else { Issue.record("a value came out as \(stored[0])"); return }
        // The references are compared by address only: a `NoObject` is never called.
        guard case .toOne(let object?) = stored[1], address(object) == address(one) else {
            Issue.record("a to-one came out as \(stored[1])"); return
        }
        guard case .toMany(let objects) = stored[2], objects.map(address) == many.map(address) else {
            Issue.record("a to-many came out as \(stored[2])"); return
        }
        guard case .toOneFault(id?) = stored[3] else { Issue.record("a fault came out as \(stored[3])"); return }
        guard case .toOne(nil) = stored[4] else { Issue.record("an empty to-one came out as \(stored[4])"); return }
        guard case .toManyFault = stored[5] else { Issue.record("a to-many fault came out as \(stored[5])"); return }
    }

    /// `SlotKind(validRawValue:)` casts a descriptor's byte to a kind: exact only while the raw
    /// values are the implicit ones and the enum is one byte. Fails if either changes.
    @Test func everySlotKindsRawValueIsItsOwnRepresentation() {
        #expect(MemoryLayout<SlotKind>.size == MemoryLayout<UInt8>.size)
        for (index, kind) in SlotKind.allCases.enumerated() {
            #expect(kind.rawValue == UInt8(index), "\(kind)'s raw value is not its declaration index")
            #expect(withUnsafeBytes(of: kind) { $0.load(as: UInt8.self) } == kind.rawValue, "\(kind)")
            #expect(SlotKind(validRawValue: kind.rawValue) == kind)
        }
    }

    @Test func referencesKeptInTheStorageAreReleasedWithIt() {
        weak var gone: Plain?
        weak var goneFromArray: Plain?
        do {
            let one = Plain()
            let other = Plain()
            gone = one
            goneFromArray = other
            var slots = PropertySlots<Plain>([.toOne(one), .toMany([other]), .value(.null)])
            slots[2] = .value(.string("kept"))
            #expect(gone != nil && goneFromArray != nil)
        }
        #expect(gone == nil, "the storage kept a to-one's object alive")
        #expect(goneFromArray == nil, "the storage kept a to-many's object alive")
    }
}
