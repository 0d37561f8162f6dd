import Foundation
import PersistenceModel

/// Which case a stored slot holds, and so which type its payload's bytes are in `SlotStorage`.
@usableFromInline package enum SlotKind: UInt8, CaseIterable {
    case null, integer, double, decimal, bool, string, date, uuid, url, data, transformable
    /// `.toOneFault(nil)`, and a to-one fault's destination by its kind of key.
    case toOneFaultNone, toOneFaultPermanent, toOneFaultTemporary
    case toOne, toManyFault, toMany

    /// The kind whose raw value a descriptor holds: one `SlotStorage` wrote, so valid.
    @inlinable @inline(__always)
    init(validRawValue rawValue: UInt8) {
        assert(SlotKind(rawValue: rawValue) != nil, "a slot descriptor holds no kind")
        // A case's raw value is its declaration index, which is how it is represented.
        self = unsafeBitCast(rawValue, to: SlotKind.self)
    }

    /// The bytes the widest kind's payload takes.
    @inlinable static var widestPayloadSize: Int {
        Swift.max(transformable.payloadSize, decimal.payloadSize, url.payloadSize, data.payloadSize, 16)
    }

    /// The bytes a payload of this kind takes: its type's size, in whole words.
    @inlinable var payloadSize: Int {
        switch self {
        case .null, .toOneFaultNone, .toManyFault: 0
        case .integer, .double, .bool, .date, .toOne, .toMany: 8
        case .string, .uuid, .toOneFaultPermanent, .toOneFaultTemporary: 16
        case .decimal: SlotStorage.wordAligned(MemoryLayout<Decimal>.size)
        case .url: SlotStorage.wordAligned(MemoryLayout<URL>.size)
        case .data: SlotStorage.wordAligned(MemoryLayout<Data>.size)
        case .transformable: SlotStorage.wordAligned(MemoryLayout<Any>.size)
        }
    }
}

extension PropertySlot {
    /// The kind of payload this slot is stored as.
    @inlinable var kind: SlotKind {
        switch self {
        case .value(.null): .null
        case .value(.integer): .integer
        case .value(.double): .double
        case .value(.decimal): .decimal
        case .value(.bool): .bool
        case .value(.string): .string
        case .value(.date): .date
        case .value(.uuid): .uuid
        case .value(.url): .url
        case .value(.data): .data
        case .value(.transformable): .transformable
        case .toOneFault(.none): .toOneFaultNone
        case .toOneFault(.some(let id)):
            switch id.key {
            case .permanent: .toOneFaultPermanent
            case .temporary: .toOneFaultTemporary
            }
        case .toOne: .toOne
        case .toManyFault: .toManyFault
        case .toMany: .toMany
        }
    }
}

/// The stored slots of one `PropertySlots`, each kept inline by its kind in one allocation.
///
/// A slot as an enum takes 24 bytes whatever it holds (its widest payload, a `Decimal`, and
/// a tag), and a transformable value needs a box of its own on top (the enum's case is
/// indirect, to keep the enum at three words). Here each stored slot takes what its value
/// needs, in whole words: nothing for a NULL or an unloaded to-many, one word for a date or an
/// integer, two for a string, a UUID or an unloaded to-one, three for a decimal, four for a
/// transformable's value held inline. A descriptor per slot gives its kind and where its
/// payload starts; a slot's room is up to the next one's start, so that a new value no
/// larger than the old goes in place.
///
/// Layout after a 4-byte header (the count): the descriptors (a `UInt16` each — kind in the
/// low 5 bits, the payload's offset in words in the high 11 — or, when the payloads exceed
/// what 11 bits reach, a `UInt32` each with the kind in the low 8 bits), one more whose offset
/// is the payloads' end, then the payloads from the next word boundary.
/// Every payload type is bitwise movable (strings, data, URLs, existentials and references
/// are), so a rebuilt storage moves a uniquely held one's payloads with a byte copy.
@usableFromInline final class SlotStorage: ManagedBuffer<SlotStorage.Header, UInt16> {
    @usableFromInline struct Header {
        /// Bits 0..<31: the number of stored slots. Bit 31: whether descriptors take 4 bytes.
        @usableFromInline var bits: UInt32

        @inlinable var count: Int { Int(bits & 0x7FFF_FFFF) }
        @inlinable var isWide: Bool { bits & 0x8000_0000 != 0 }
    }

    /// The largest payload size that 11-bit word offsets can address.
    @inlinable static var narrowPayloadLimit: Int { 2047 * 8 }

    @inlinable static func wordAligned(_ bytes: Int) -> Int { (bytes + 7) & ~7 }

    /// Where the descriptors start, from the storage's address: past the object's two words
    /// and the 4-byte header, as `ManagedBuffer` lays its elements out. The payloads then
    /// start at the first word boundary past the descriptors, so a small header and 2-byte
    /// elements leave no word unused before them.
    @inlinable static var elementsOffset: Int {
        let header = (2 * MemoryLayout<UnsafeRawPointer>.size + MemoryLayout<Header>.alignment - 1)
            & ~(MemoryLayout<Header>.alignment - 1)
        return (header + MemoryLayout<Header>.size + 1) & ~1
    }

    /// Storage with no slots, shared by every empty `PropertySlots`. Never changed: this
    /// reference keeps it from being uniquely held, which every change in place requires.
    @usableFromInline nonisolated(unsafe) static let empty = SlotStorage.make(count: 0, payloadSize: 0)

    /// New storage for `count` slots and `payloadSize` bytes of payload, descriptors unset
    /// but for the one past the last, which marks where the payloads end.
    @usableFromInline static func make(count: Int, payloadSize: Int) -> SlotStorage {
        precondition(payloadSize < 1 << 27, "an object's values take more than 128 MiB inline")
        let isWide = payloadSize > narrowPayloadLimit
        let descriptorEnd = elementsOffset + (count + 1) * (isWide ? 4 : 2)
        let byteCount = wordAligned(descriptorEnd) + payloadSize - elementsOffset
        let buffer = create(minimumCapacity: (byteCount + 1) / 2) { _ in
            Header(bits: UInt32(count) | (isWide ? 0x8000_0000 : 0))
        }
        let storage = unsafeDowncast(buffer, to: SlotStorage.self)
        assert(
            storage.withUnsafeMutablePointerToElements { UnsafeRawPointer($0) }
                - UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque()) == elementsOffset,
            "ManagedBuffer laid the elements out elsewhere")
        storage.layout.setDescriptor(at: count, kind: .null, offset: payloadSize)
        return storage
    }

    deinit {
        let layout = self.layout
        for index in 0..<layout.count { layout.destroyPayload(at: index) }
    }

    /// The slots' layout, valid while the storage lives.
    ///
    /// The header is read through its pointer: `header`, a class's stored property, would
    /// cost a run-time exclusivity check on every read of a value.
    @inlinable var layout: SlotLayout {
        withUnsafeMutablePointers { header, words in SlotLayout(words, header.pointee) }
    }

    /// The number of stored slots.
    @inlinable var count: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.count) } }

    /// The value of slot `index` when it is a transformable one (a copy).
    @usableFromInline
    func transformableValue(at index: Int) -> Any? {
        let value = layout.transformableValue(at: index)
        withExtendedLifetime(self) {}
        return value
    }

    /// The bytes allocated for the storage, its object's header included.
    var allocatedByteCount: Int { Self.elementsOffset + capacity * 2 }

    /// The slot at `index` (a copy).
    @inlinable @inline(__always)
    func slot(at index: Int) -> PropertySlot<NoObject> {
        let slot = layout.slot(at: index)
        withExtendedLifetime(self) {}
        return slot
    }
}

/// Where a `SlotStorage`'s descriptors and payloads are.
@usableFromInline struct SlotLayout {
    /// The descriptors: one per slot, and one past the last whose offset is where the
    /// payloads end.
    @usableFromInline let base: UnsafeMutableRawPointer
    @usableFromInline let count: Int
    @usableFromInline let isWide: Bool

    @inlinable
    init(_ elements: UnsafeMutablePointer<UInt16>, _ header: SlotStorage.Header) {
        base = UnsafeMutableRawPointer(elements)
        count = header.count
        isWide = header.isWide
    }

    /// Where the payloads start: the first word boundary past the descriptors.
    @inlinable var payloads: UnsafeMutableRawPointer {
        (base + (count + 1) * (isWide ? 4 : 2)).alignedUp(toMultipleOf: 8)
    }

    /// The payloads' bytes, the room kept past some included.
    @inlinable var payloadSize: Int { descriptor(at: count).offset }

    /// The kind of slot `index`, and its payload's offset from `payloads`.
    @inlinable @inline(__always)
    func descriptor(at index: Int) -> (kind: SlotKind, offset: Int) {
        if isWide {
            let bits = base.load(fromByteOffset: index * 4, as: UInt32.self)
            return (SlotKind(validRawValue: UInt8(truncatingIfNeeded: bits)), Int(bits >> 8) * 8)
        }
        let bits = base.load(fromByteOffset: index * 2, as: UInt16.self)
        return (SlotKind(validRawValue: UInt8(truncatingIfNeeded: bits & 31)), Int(bits >> 5) * 8)
    }

    @inlinable
    func setDescriptor(at index: Int, kind: SlotKind, offset: Int) {
        if isWide {
            base.storeBytes(of: UInt32(kind.rawValue) | UInt32(offset / 8) << 8, toByteOffset: index * 4, as: UInt32.self)
        } else {
            base.storeBytes(of: UInt16(kind.rawValue) | UInt16(offset / 8) << 5, toByteOffset: index * 2, as: UInt16.self)
        }
    }

    /// The bytes slot `index` may use: up to the next slot's payload (or the end).
    @inlinable
    func room(at index: Int) -> Int {
        descriptor(at: index + 1).offset - descriptor(at: index).offset
    }

    /// The slot at `index` (a copy).
    @inlinable @inline(__always)
    func slot(at index: Int) -> PropertySlot<NoObject> {
        let (kind, offset) = descriptor(at: index)
        let payload = UnsafeRawPointer(payloads + offset)
        switch kind {
        case .null: return .value(.null)
        case .integer: return .value(.integer(payload.load(as: Int64.self)))
        case .double: return .value(.double(payload.load(as: Double.self)))
        case .decimal: return .value(.decimal(payload.load(as: Decimal.self)))
        case .bool: return .value(.bool(payload.load(as: Bool.self)))
        case .string: return .value(.string(payload.load(as: String.self)))
        case .date: return .value(.date(payload.load(as: Date.self)))
        case .uuid: return .value(.uuid(payload.load(as: UUID.self)))
        case .url: return .value(.url(payload.load(as: URL.self)))
        case .data: return .value(.data(payload.load(as: Data.self)))
        case .transformable: return .value(.transformable(payload.load(as: Any.self)))
        case .toOneFaultNone: return .toOneFault(nil)
        case .toOneFaultPermanent:
            let key = payload.load(fromByteOffset: 8, as: Int64.self)
            return .toOneFault(ObjectID(scope: payload.load(as: ObjectID.Scope.self), key: .permanent(key)))
        case .toOneFaultTemporary:
            let number = payload.load(fromByteOffset: 8, as: UInt64.self)
            return .toOneFault(ObjectID(scope: payload.load(as: ObjectID.Scope.self), key: .temporary(number)))
        case .toOne: return .toOne(payload.load(as: NoObject?.self))
        case .toManyFault: return .toManyFault
        case .toMany: return .toMany(payload.load(as: [NoObject].self))
        }
    }

    /// The value of slot `index` when it is a transformable one.
    @inlinable
    func transformableValue(at index: Int) -> Any? {
        let (kind, offset) = descriptor(at: index)
        guard kind == .transformable else { return nil }
        return UnsafeRawPointer(payloads + offset).load(as: Any.self)
    }

    /// Initializes slot `index` at `offset` with `slot`, which must fit its room.
    @inlinable
    func initialize(at index: Int, offset: Int, with slot: consuming PropertySlot<NoObject>) {
        let kind = SlotPayload(address: payloads + offset).store(slot)
        setDescriptor(at: index, kind: kind, offset: offset)
    }

    /// Ends the life of slot `index`'s payload (its descriptor stays, no longer valid).
    @usableFromInline
    func destroyPayload(at index: Int) {
        let (kind, offset) = descriptor(at: index)
        Self.destroyPayload(of: kind, at: payloads + offset)
    }

    /// Ends the life of a payload of `kind` at `payload`.
    @usableFromInline
    static func destroyPayload(of kind: SlotKind, at payload: UnsafeMutableRawPointer) {
        switch kind {
        case .null, .integer, .double, .decimal, .bool, .date, .uuid, .toOneFaultNone, .toManyFault: break
        case .string: payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case .url: payload.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
        case .data: payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case .transformable: payload.assumingMemoryBound(to: Any.self).deinitialize(count: 1)
        case .toOneFaultPermanent, .toOneFaultTemporary:
            payload.assumingMemoryBound(to: ObjectID.Scope.self).deinitialize(count: 1)
        case .toOne: payload.assumingMemoryBound(to: NoObject?.self).deinitialize(count: 1)
        case .toMany: payload.assumingMemoryBound(to: [NoObject].self).deinitialize(count: 1)
        }
    }
}

extension SlotStorage {
    /// Storage for `count` slots whose payloads `write` puts in place one at a time, in
    /// order, the slots of the positions that have a bit in `presence` (and then of every
    /// position past the bits). A NULL at a position with a bit in `keptNulls` gets
    /// `nullRoom` bytes, so that a value set there later goes in place. When `write` throws,
    /// what it wrote before is released and the error passed on.
    ///
    /// Each payload is written into scratch space as its kind is found, then the payloads,
    /// sized at last, are copied into the storage as bytes: every payload type is bitwise
    /// movable.
    @usableFromInline
    static func packing(
        count: Int, presence: UInt64, keptNulls: UInt64, nullRoom: Int,
        _ write: (_ index: Int, _ payload: SlotPayload) throws -> SlotKind
    ) rethrows -> SlotStorage {
        if count == 0 { return empty }
        let widest = SlotKind.widestPayloadSize
        assert(nullRoom <= widest, "a NULL's room is wider than any value")
        return try withUnsafeTemporaryAllocation(byteCount: count * (widest + 1), alignment: 8) { scratch in
            let payloads = scratch.baseAddress!
            let kinds = payloads + count * widest
            // The room of slot `index` of `kind`, `positions` holding the positions of the
            // slots not yet sized (the lowest is this slot's; none past the bits).
            func size(of kind: SlotKind, positions: inout UInt64) -> Int {
                let position = positions.trailingZeroBitCount
                positions &= positions &- 1
                let keepsRoom = kind == .null && position < 64 && keptNulls & 1 << UInt64(position) != 0
                return keepsRoom ? nullRoom : kind.payloadSize
            }
            var payloadSize = 0
            var written = 0
            defer {
                // Only after a throw: a payload written so far is released.
                var offset = 0
                var positions = presence
                for index in 0..<written where written < count {
                    let kind = SlotKind(validRawValue: kinds.load(fromByteOffset: index, as: UInt8.self))
                    SlotLayout.destroyPayload(of: kind, at: payloads + offset)
                    offset += size(of: kind, positions: &positions)
                }
            }
            var positions = presence
            for index in 0..<count {
                let kind = try write(index, SlotPayload(address: payloads + payloadSize))
                kinds.storeBytes(of: kind.rawValue, toByteOffset: index, as: UInt8.self)
                written += 1
                payloadSize += size(of: kind, positions: &positions)
            }
            let storage = make(count: count, payloadSize: payloadSize)
            let layout = storage.layout
            layout.payloads.copyMemory(from: payloads, byteCount: payloadSize)
            var offset = 0
            positions = presence
            for index in 0..<count {
                let kind = SlotKind(validRawValue: kinds.load(fromByteOffset: index, as: UInt8.self))
                layout.setDescriptor(at: index, kind: kind, offset: offset)
                offset += size(of: kind, positions: &positions)
            }
            return storage
        }
    }

    /// Storage for the slots of `source` (a copy of each, or with `moving`, each moved out and
    /// `source` left with none), with `slot` inserted at `index` (with `inserting`) or put in
    /// place of the slot there.
    @usableFromInline
    static func rebuilt(
        from source: SlotStorage, moving: Bool, putting slot: consuming PropertySlot<NoObject>, at index: Int,
        inserting: Bool
    ) -> SlotStorage {
        let old = source.layout
        let count = old.count + (inserting ? 1 : 0)
        let newKind = slot.kind
        // Each old slot keeps its room; the new one gets its own size, or the room it replaces.
        func oldIndex(_ newIndex: Int) -> Int { inserting && newIndex > index ? newIndex - 1 : newIndex }
        func size(_ newIndex: Int) -> Int {
            if newIndex == index { return max(newKind.payloadSize, inserting ? 0 : old.room(at: index)) }
            return old.room(at: oldIndex(newIndex))
        }
        var payloadSize = 0
        for newIndex in 0..<count { payloadSize += size(newIndex) }
        let storage = make(count: count, payloadSize: payloadSize)
        let new = storage.layout
        var offset = 0
        var slot = Optional(slot)
        for newIndex in 0..<count {
            if newIndex == index {
                if !inserting, moving { old.destroyPayload(at: index) }
                new.initialize(at: newIndex, offset: offset, with: slot.take()!)
            } else {
                let from = oldIndex(newIndex)
                let (kind, oldOffset) = old.descriptor(at: from)
                if moving {
                    new.setDescriptor(at: newIndex, kind: kind, offset: offset)
                    (new.payloads + offset).copyMemory(from: old.payloads + oldOffset, byteCount: kind.payloadSize)
                } else {
                    new.initialize(at: newIndex, offset: offset, with: old.slot(at: from))
                }
            }
            offset += size(newIndex)
        }
        if moving { source.withUnsafeMutablePointerToHeader { $0.pointee.bits &= 0x8000_0000 } }
        withExtendedLifetime(source) {}
        return storage
    }

    /// Puts `slot` in place of slot `index`, whose room it fits; the storage must be held
    /// only by the caller.
    @usableFromInline
    func replace(at index: Int, with slot: consuming PropertySlot<NoObject>) {
        let layout = self.layout
        layout.destroyPayload(at: index)
        layout.initialize(at: index, offset: layout.descriptor(at: index).offset, with: slot)
    }
}

/// Where one slot's payload goes while a `SlotStorage` is packed: a store decoding a row
/// writes each value here, with no `StoredSlot` in between for a transformable value (whose
/// case would box it).
@usableFromInline package struct SlotPayload {
    @usableFromInline let address: UnsafeMutableRawPointer

    @inlinable
    init(address: UnsafeMutableRawPointer) {
        self.address = address
    }

    /// Stores a transformable attribute's app value.
    @inlinable
    package func store(transformable value: consuming Any) -> SlotKind {
        address.initializeMemory(as: Any.self, to: value)
        return .transformable
    }

    /// Moves `slot`'s payload here and tells its kind: one switch over the slot for both.
    @inlinable @inline(__always)
    package func store(_ slot: consuming PropertySlot<NoObject>) -> SlotKind {
        let payload = address
        switch consume slot {
        case .value(.null): return .null
        case .value(.integer(let value)):
            payload.initializeMemory(as: Int64.self, to: value)
            return .integer
        case .value(.double(let value)):
            payload.initializeMemory(as: Double.self, to: value)
            return .double
        case .value(.decimal(let value)):
            payload.initializeMemory(as: Decimal.self, to: value)
            return .decimal
        case .value(.bool(let value)):
            payload.initializeMemory(as: Bool.self, to: value)
            return .bool
        case .value(.string(let value)):
            payload.initializeMemory(as: String.self, to: value)
            return .string
        case .value(.date(let value)):
            payload.initializeMemory(as: Date.self, to: value)
            return .date
        case .value(.uuid(let value)):
            payload.initializeMemory(as: UUID.self, to: value)
            return .uuid
        case .value(.url(let value)):
            payload.initializeMemory(as: URL.self, to: value)
            return .url
        case .value(.data(let value)):
            payload.initializeMemory(as: Data.self, to: value)
            return .data
        case .value(.transformable(let value)): return store(transformable: value)
        case .toOneFault(.none): return .toOneFaultNone
        case .toOneFault(.some(let id)):
            payload.initializeMemory(as: ObjectID.Scope.self, to: id.scope)
            switch id.key {
            case .permanent(let key):
                (payload + 8).initializeMemory(as: Int64.self, to: key)
                return .toOneFaultPermanent
            case .temporary(let number):
                (payload + 8).initializeMemory(as: UInt64.self, to: number)
                return .toOneFaultTemporary
            }
        case .toOne(let object):
            payload.initializeMemory(as: NoObject?.self, to: object)
            return .toOne
        case .toManyFault: return .toManyFault
        case .toMany(let objects):
            payload.initializeMemory(as: [NoObject].self, to: objects)
            return .toMany
        }
    }
}
