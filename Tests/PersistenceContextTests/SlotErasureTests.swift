import Foundation
import Testing

@testable import Persistence
@testable import PersistenceContext
@testable import PersistenceStore

/// The one unsafe cast of the slots (`SlotErasure.swift`): a `PropertySlot` of any class has
/// the layout of a `StoredSlot`, and every case survives the trip through the storage with
/// its references, which are retained and released exactly as they should be.
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
