import PersistenceModel

/// An object's slots, one per property position of its entity, that keep no storage for a
/// NULL attribute value.
///
/// A collection of `count` slots in position order, read and written by position like an
/// array; a position without a stored slot reads as `.value(.null)`. The catalogue's `Book`
/// has sixteen properties, and a fetched book typically leaves half of them NULL. Here a bit
/// per position (for the first 56) says whether the position has a stored slot, and the
/// stored slots sit in one `SlotStorage`, in position order, each taking the bytes its value
/// needs: a position's index among them is the number of stored positions before it.
/// Positions from 56 on always have a stored slot.
///
/// Storing `.value(.null)` where a slot is stored keeps it stored, with its room; storing it
/// where none is changes nothing. A value that fits the room of the slot it replaces goes in
/// place when the storage is not shared; any other change rebuilds the storage. So a store
/// keeps a slot, with room for a string, for each transient attribute, NULL or not
/// (`init(_:storingNullsAt:)` with the schema's `transientAttributePositions`): transients are
/// set while the object lives (a computed one at its first read), and a rebuild per object
/// would cost an allocation and a copy of its values; and an inserted object's slots each
/// have room for any value (`init(storingEach:)`).
@usableFromInline package struct PropertySlots<Object: AnyObject> {
    /// Bits 0..<56: the positions with a stored slot. Bits 56..<64: the number of positions
    /// when under 56, else 56 (the count is then 56 plus the stored slots past the bits).
    @usableFromInline var shape: UInt64
    /// The stored slots, in position order, each inline by its kind (see `SlotStorage`).
    @usableFromInline var storage: SlotStorage

    /// The positions that have a stored slot only when it is not NULL: the first 56.
    @inlinable package static var storageBitCount: Int { 56 }
    @usableFromInline static var presenceMask: UInt64 { (1 << 56) - 1 }
    /// The room a NULL kept where asked gets: a string's, the usual transient's value, so
    /// that setting it goes in place.
    @usableFromInline static var keptNullRoom: Int { 16 }

    @inlinable
    init(shape: UInt64, storage: SlotStorage) {
        self.shape = shape
        self.storage = storage
    }

    /// `count` positions whose slots are `storage`'s: those below 56 that have a bit in
    /// `presence`, and every one from 56 on.
    @inlinable
    init(count: Int, presence: UInt64, storage: SlotStorage) {
        self.init(shape: presence | UInt64(Swift.min(count, Self.storageBitCount)) << 56, storage: storage)
    }

    /// No slots.
    @inlinable
    package init() {
        self.init(shape: 0, storage: .empty)
    }

    /// `count` positions whose `storedCount` stored slots `decode` writes in position order,
    /// for the index among the stored slots it is given: those below 56 that have a bit in
    /// `presence`, and every one from 56 on. A NULL at a position of `keptNulls` gets room
    /// for a string, the usual transient. A store decoding a row writes each value straight
    /// into the object's storage this way.
    @inlinable
    package init(
        count: Int, presence: UInt64, storedCount: Int, keptNulls: UInt64,
        decoding decode: (_ index: Int, _ payload: SlotPayload) throws -> SlotKind
    ) rethrows {
        self.init(
            count: count, presence: presence,
            storage: try SlotStorage.packing(
                count: storedCount, presence: presence, keptNulls: keptNulls, nullRoom: Self.keptNullRoom, decode))
    }

    /// `count` positions whose slots are copies of `array`'s elements where `isStored`.
    init(
        count: Int, presence: UInt64, copying array: [PropertySlot<Object>], where isStored: (Int) -> Bool,
        keptNulls: UInt64, nullRoom: Int
    ) {
        var position = 0
        let storage = SlotStorage.packing(
            count: array.indices.lazy.filter(isStored).count, presence: presence, keptNulls: keptNulls,
            nullRoom: nullRoom
        ) { _, payload in
            while !isStored(position) { position += 1 }
            defer { position += 1 }
            return payload.store(array[position].erased)
        }
        self.init(count: count, presence: presence, storage: storage)
    }

    /// `count` NULL values, with no storage below position 56: a fault's slots.
    package init(nullCount count: Int) {
        let stored = Swift.max(count - Self.storageBitCount, 0)
        let storage = SlotStorage.packing(count: stored, presence: 0, keptNulls: 0, nullRoom: 0) { _, payload in
            payload.store(.value(.null))
        }
        self.init(count: count, presence: 0, storage: storage)
    }

    /// The slots of `array`, in its order, NULL values not stored except at the positions
    /// of `keptNulls` (a bit per position).
    package init(_ array: [PropertySlot<Object>], storingNullsAt keptNulls: UInt64 = 0) {
        func isStored(at position: Int) -> Bool {
            guard position < Self.storageBitCount, case .value(.null) = array[position] else { return true }
            return keptNulls & 1 << UInt64(position) != 0
        }
        var presence: UInt64 = 0
        for position in array.indices.prefix(Self.storageBitCount) where isStored(at: position) {
            presence |= 1 << UInt64(position)
        }
        self.init(
            count: array.count, presence: presence, copying: array, where: isStored, keptNulls: keptNulls,
            nullRoom: Self.keptNullRoom)
    }

    /// The slots of `array`, each stored, NULL values too, those of the first 56 positions
    /// with room for any value: for an object about to be filled in (an inserted one), whose
    /// every later value then goes in place.
    package init(storingEach array: [PropertySlot<Object>]) {
        let bits = Swift.min(array.count, Self.storageBitCount)
        let presence: UInt64 = (1 << UInt64(bits)) - 1
        self.init(
            count: array.count, presence: presence, copying: array, where: { _ in true }, keptNulls: presence,
            nullRoom: SlotKind.widestPayloadSize)
    }

    /// The same slots in storage of their own, with the same rooms: an inserted object's
    /// slots copied from its entity's template (`init(storingEach:)` made once), which costs
    /// one allocation rather than an array of slots and their packing per object.
    @inlinable
    package func duplicated() -> PropertySlots {
        PropertySlots(shape: shape, storage: storage.duplicate())
    }

    /// The number of positions below 56 that have a stored slot.
    @inlinable
    var storedWithBits: Int { (shape & Self.presenceMask).nonzeroBitCount }

    /// The number of stored slots.
    package var storedCount: Int { storage.count }

    /// The bytes allocated for the stored slots, their storage's header included.
    package var storageByteCount: Int { storage.allocatedByteCount }

    /// The number of positions (stored or not).
    @inlinable
    package var count: Int {
        let bits = Int(shape >> 56)
        return bits < Self.storageBitCount ? bits : Self.storageBitCount + storage.count - storedWithBits
    }

    /// Where `position`'s slot is among the stored ones, or nil when it has none.
    @inlinable @inline(__always)
    func storedIndex(of position: Int) -> Int? {
        guard position < Self.storageBitCount else { return storedWithBits + position - Self.storageBitCount }
        let bit: UInt64 = 1 << UInt64(position)
        guard shape & bit != 0 else { return nil }
        return (shape & (bit - 1)).nonzeroBitCount
    }

    /// The app value of the transformable attribute value at `position`; nil for any other
    /// slot. Unlike reading the slot, it boxes nothing.
    package func transformableValue(at position: Int) -> (any Sendable)? {
        guard let index = storedIndex(of: position) else { return nil }
        return storage.transformableValue(at: index)
    }

    /// Whether both hold the same storage (neither has been changed since one was copied
    /// from the other).
    @inlinable
    package func sharesStorage(with other: PropertySlots) -> Bool {
        storage === other.storage
    }

    /// Whether both are the same slots: the same positions over the same storage (so, the
    /// same values).
    @inlinable
    package func isIdentical(to other: PropertySlots) -> Bool {
        shape == other.shape && storage === other.storage
    }
}

extension PropertySlots: RandomAccessCollection, MutableCollection {
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }

    /// The slot at `position`; `.value(.null)` where none is stored.
    ///
    /// The storage reads and writes slots as `StoredSlot`s whatever `Object` is (see
    /// `SlotErasure.swift` for why the two are the same bits).
    @inlinable
    package subscript(position: Int) -> PropertySlot<Object> {
        @inline(__always) get {
            guard let index = storedIndex(of: position) else { return .value(.null) }
            return storage.slot(at: index).typed(as: Object.self)
        }
        set {
            let slot = newValue.erased
            if let index = storedIndex(of: position) {
                let isUnique = isKnownUniquelyReferenced(&storage)
                if isUnique, slot.kind.payloadSize <= storage.layout.room(at: index) {
                    storage.replace(at: index, with: slot)
                } else {
                    storage = SlotStorage.rebuilt(
                        from: storage, moving: isUnique, putting: slot, at: index, inserting: false)
                }
                return
            }
            if case .value(.null) = slot { return }
            let index = (shape & ((1 << UInt64(position)) - 1)).nonzeroBitCount
            // The shared empty storage is never held once, so it is never moved from.
            let isUnique = isKnownUniquelyReferenced(&storage)
            storage = SlotStorage.rebuilt(from: storage, moving: isUnique, putting: slot, at: index, inserting: true)
            shape |= 1 << UInt64(position)
        }
    }
}

extension PropertySlots {
    /// Puts `value` at `position`, as `self[position] = .value(value)` does; written straight
    /// into its place, with no slot made around it, when the storage is held here alone and
    /// has room for it (a computed transient's value in a fetched object, say).
    @inlinable
    package mutating func setValue(_ value: consuming AttributeValue, at position: Int) {
        if let index = storedIndex(of: position), isKnownUniquelyReferenced(&storage) {
            let layout = storage.layout
            if value.slotKind.payloadSize <= layout.room(at: index) {
                layout.destroyPayload(at: index)
                let offset = layout.descriptor(at: index).offset
                let payload = SlotPayload(address: layout.payloads + offset, room: SlotKind.widestPayloadSize)
                layout.setDescriptor(at: index, kind: payload.store(value), offset: offset)
                return
            }
        }
        self[position] = .value(value)
    }
}

/// A store's slots (see `StoredSlot`).
package typealias StoredSlots = PropertySlots<NoObject>

extension PropertySlots where Object == NoObject {
    /// The same slots typed for a context's objects, sharing this storage.
    ///
    /// Sound because the storage does not depend on the object type: it keeps a to-one's
    /// object or a to-many's array as a reference whatever its class (and a store's slots
    /// hold none: `NoObject` has no instances).
    @inlinable
    package func adopted<Other: AnyObject>(by objectType: Other.Type) -> PropertySlots<Other> {
        PropertySlots<Other>(shape: shape, storage: storage)
    }
}
