import PersistenceModel

/// An object's slots, one per property position of its entity, that keep no storage for a
/// NULL attribute value.
///
/// A collection of `count` slots in position order, read and written by position like an
/// array; a position without a stored slot reads as `.value(.null)`. The catalogue's `Book`
/// has sixteen properties, and a fetched book typically leaves half of them NULL: an array
/// of every slot was the larger part of the memory a fetched object takes, and tearing it
/// down destroyed every slot. Here a bit per position (for the first 56) says whether the
/// position has a stored slot, and the stored slots sit in an array of exactly their number,
/// in position order: a position's index among them is the number of stored positions
/// before it. Positions from 56 on always have a stored slot.
///
/// Storing `.value(.null)` where a slot is stored keeps it stored (a later value then needs
/// no insertion); storing it where none is changes nothing. Storing any other slot where
/// none is inserts it, growing the storage by exactly one. So a store keeps a slot for each
/// transient attribute, NULL or not (`init(_:storingNullsAt:)` with the schema's
/// `transientAttributePositions`): transients are set while the object lives (a computed
/// one at its first read), and an insertion per object would cost an allocation and a copy
/// of the slots each.
@usableFromInline package struct PropertySlots<Object: AnyObject> {
    /// Bits 0..<56: the positions with a stored slot. Bits 56..<64: the number of positions
    /// when under 56, else 56 (the count is then 56 plus the stored slots past the bits).
    @usableFromInline var shape: UInt64
    /// The stored slots, in position order.
    @usableFromInline var stored: [PropertySlot<Object>]

    /// The positions that have a stored slot only when it is not NULL: the first 56.
    @inlinable package static var storageBitCount: Int { 56 }
    @usableFromInline static var presenceMask: UInt64 { (1 << 56) - 1 }

    @inlinable
    init(shape: UInt64, stored: [PropertySlot<Object>]) {
        self.shape = shape
        self.stored = stored
    }

    /// No slots.
    @inlinable
    package init() {
        self.init(shape: 0, stored: [])
    }

    /// `count` positions whose slots are `stored`: those below 56 that have a bit in
    /// `presence`, and every one from 56 on.
    @inlinable
    package init(count: Int, presence: UInt64, stored: [PropertySlot<Object>]) {
        self.init(shape: presence | UInt64(Swift.min(count, Self.storageBitCount)) << 56, stored: stored)
    }

    /// `count` NULL values, with no storage below position 56: a fault's slots.
    package init(nullCount count: Int) {
        let bits = Swift.min(count, Self.storageBitCount)
        self.init(shape: UInt64(bits) << 56, stored: Array(repeating: .value(.null), count: count - bits))
    }

    /// The slots of `array`, in its order, NULL values not stored except at the positions
    /// of `keptNulls` (a bit per position).
    package init(_ array: [PropertySlot<Object>], storingNullsAt keptNulls: UInt64 = 0) {
        func isStored(at position: Int) -> Bool {
            guard position < Self.storageBitCount, case .value(.null) = array[position] else { return true }
            return keptNulls & 1 << UInt64(position) != 0
        }
        var stored: [PropertySlot<Object>] = []
        stored.reserveCapacity(array.indices.lazy.filter(isStored).count)
        var presence: UInt64 = 0
        for (position, slot) in array.enumerated() where isStored(at: position) {
            if position < Self.storageBitCount { presence |= 1 << UInt64(position) }
            stored.append(slot)
        }
        self.init(count: array.count, presence: presence, stored: stored)
    }

    /// The slots of `array`, each stored, NULL values too: for an object about to be filled
    /// in (an inserted one), whose every later value then goes in place.
    package init(storingEach array: [PropertySlot<Object>]) {
        let bits = Swift.min(array.count, Self.storageBitCount)
        self.init(shape: (1 << UInt64(bits)) - 1 | UInt64(bits) << 56, stored: array)
    }

    /// The number of positions below 56 that have a stored slot.
    @inlinable
    var storedWithBits: Int { (shape & Self.presenceMask).nonzeroBitCount }

    /// The number of positions (stored or not).
    @inlinable
    package var count: Int {
        let bits = Int(shape >> 56)
        return bits < Self.storageBitCount ? bits : Self.storageBitCount + stored.count - storedWithBits
    }

    /// Where `position`'s slot is among the stored ones, or nil when it has none.
    @inlinable @inline(__always)
    func storedIndex(of position: Int) -> Int? {
        guard position < Self.storageBitCount else { return storedWithBits + position - Self.storageBitCount }
        let bit: UInt64 = 1 << UInt64(position)
        guard shape & bit != 0 else { return nil }
        return (shape & (bit - 1)).nonzeroBitCount
    }

    /// Whether both hold the same storage (neither has been changed since one was copied
    /// from the other).
    @inlinable
    package func sharesStorage(with other: PropertySlots) -> Bool {
        stored.withUnsafeBufferPointer { mine in
            other.stored.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
    }
}

extension PropertySlots: RandomAccessCollection, MutableCollection {
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }

    /// The slot at `position`; `.value(.null)` where none is stored.
    @inlinable
    package subscript(position: Int) -> PropertySlot<Object> {
        @inline(__always) get {
            guard let index = storedIndex(of: position) else { return .value(.null) }
            return stored[index]
        }
        set {
            if let index = storedIndex(of: position) {
                stored[index] = newValue
                return
            }
            if case .value(.null) = newValue { return }
            let index = (shape & ((1 << UInt64(position)) - 1)).nonzeroBitCount
            // Exactly one more: a doubled capacity would take back what not storing NULLs saves.
            if stored.count == stored.capacity { stored.reserveCapacity(stored.count + 1) }
            stored.insert(newValue, at: index)
            shape |= 1 << UInt64(position)
        }
    }
}

/// A store's slots (see `StoredSlot`).
package typealias StoredSlots = PropertySlots<NoObject>

extension PropertySlots where Object == NoObject {
    /// The same slots typed for a context's objects, sharing this storage.
    ///
    /// Sound because a `StoredSlot` never holds an object (`NoObject` has no instances) and
    /// `PropertySlot`'s layout does not depend on which class `Object` is (see
    /// `Array.adopted(by:)`); `PropertySlots` adds only a word of bits.
    @inlinable
    package func adopted<Other: AnyObject>(by objectType: Other.Type) -> PropertySlots<Other> {
        PropertySlots<Other>(shape: shape, stored: stored.adopted(by: objectType))
    }
}
