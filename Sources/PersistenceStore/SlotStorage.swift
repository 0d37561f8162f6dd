import Foundation
import PersistenceModel

/// The stored slots of one `PropertySlots`, each kept inline by its kind in one allocation.
///
/// A slot as an enum takes 24 bytes whatever it holds (its widest payload, a `Decimal`, and
/// a tag), and a transformable value needs a box of its own on top (the enum's case is
/// indirect, to keep the enum at three words). Here each stored slot takes what its value
/// needs, in whole words: nothing for a NULL or an unloaded to-many, one word for a date or an
/// integer, two for a string, a UUID or an unloaded to-one, three for a decimal, four for a
/// transformable's value held inline; a string read from a store, its UTF-8 bytes and their
/// count. A descriptor per slot gives its kind and where its payload starts; a slot's room is
/// up to the next one's start, so that a new value no larger than the old goes in place.
///
/// Layout after a 4-byte header (the count): the descriptors (a `UInt16` each — kind in the
/// low 5 bits, the payload's offset in words in the high 11 — or, when the payloads exceed
/// what 11 bits reach, a `UInt32` each with the kind in the low 8 bits), one more whose offset
/// is the payloads' end, then the payloads from the next word boundary.
/// Every payload type is bitwise movable (strings, data, URLs, existentials and references
/// are), so a rebuilt storage moves a uniquely held one's payloads with a byte copy; and
/// copies a shared one's plain ones (numbers, dates, a string's UTF-8) the same way.
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
    ///
    /// `nonisolated(unsafe)`, argued: `SlotStorage` is not Sendable (a uniquely held one is
    /// changed in place), but this one never is, for the reason above, and it has no slots to
    /// read; threads share it only to retain and release it, which is atomic.
    /// `ConcurrencyStressTests` makes and reads empty slots on several queues at once.
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
        // `create` is a class method that allocates an instance of the class it is called on
        // (`Self`, here `SlotStorage`), typed as its base `ManagedBuffer`: the downcast is
        // the idiom `ManagedBuffer`'s documentation gives, and debug builds check it.
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
    func transformableValue(at index: Int) -> (any Sendable)? {
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

extension SlotStorage {
    /// The bytes past the widest payload per slot that a row's strings kept as UTF-8 share
    /// while it is packed: past them, a string is kept as a `String`.
    @inlinable static var extraTextRoom: Int { 256 }

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
        // Scratch: room for the widest payload of each slot and `extraTextRoom` bytes more that
        // the row's strings kept as UTF-8 share, then a byte each for a slot's kind and for the
        // room it was given. Small enough for the stack for a row of up to 20 stored slots.
        let payloadArea = count * widest + extraTextRoom
        return try withUnsafeTemporaryAllocation(byteCount: payloadArea + count * 2, alignment: 8) { scratch in
            let payloads = scratch.baseAddress!
            let kinds = payloads + payloadArea
            let rooms = kinds + count
            var payloadSize = 0
            var written = 0
            defer {
                // Only after a throw: each payload written so far is released.
                if written < count {
                    var offset = 0
                    for index in 0..<written {
                        let kind = SlotKind(validRawValue: kinds.load(fromByteOffset: index, as: UInt8.self))
                        SlotLayout.destroyPayload(of: kind, at: payloads + offset)
                        offset += Int(rooms.load(fromByteOffset: index, as: UInt8.self))
                    }
                }
            }
            // `positions` holds the positions of the slots not yet written: the lowest is the
            // next slot's (none past the bits).
            var positions = presence
            for index in 0..<count {
                let payload = payloads + payloadSize
                // What the slots before left, less the widest payload for each slot after.
                let available = payloadArea - payloadSize - (count - index - 1) * widest
                let kind = try write(index, SlotPayload(address: payload, room: available))
                let position = positions.trailingZeroBitCount
                positions &= positions &- 1
                let keepsRoom = kind == .null && position < 64 && keptNulls & 1 << UInt64(position) != 0
                let room = keepsRoom ? nullRoom : SlotLayout.payloadSize(of: kind, at: payload)
                kinds.storeBytes(of: kind.rawValue, toByteOffset: index, as: UInt8.self)
                rooms.storeBytes(of: UInt8(room), toByteOffset: index, as: UInt8.self)
                written += 1
                payloadSize += room
            }
            let storage = make(count: count, payloadSize: payloadSize)
            let layout = storage.layout
            layout.payloads.copyMemory(from: payloads, byteCount: payloadSize)
            var offset = 0
            for index in 0..<count {
                let kind = SlotKind(validRawValue: kinds.load(fromByteOffset: index, as: UInt8.self))
                layout.setDescriptor(at: index, kind: kind, offset: offset)
                offset += Int(rooms.load(fromByteOffset: index, as: UInt8.self))
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
                if moving || kind.isTrivial {
                    let payload = old.payloads + oldOffset
                    new.setDescriptor(at: newIndex, kind: kind, offset: offset)
                    (new.payloads + offset).copyMemory(
                        from: payload, byteCount: SlotLayout.payloadSize(of: kind, at: payload))
                } else {
                    new.initialize(at: newIndex, offset: offset, with: old.slot(at: from))
                }
            }
            offset += size(newIndex)
        }
        // Moved out: the source keeps no slots (its count goes to zero, its width stays).
        if moving { source.withUnsafeMutablePointerToHeader { $0.pointee.bits &= 0x8000_0000 } }
        withExtendedLifetime(source) {}
        return storage
    }

    /// A copy of the storage held by the caller alone: each slot with the same kind, offset
    /// and room, plain payloads copied as bytes and the others copied as values (retained).
    /// The empty storage, which is shared and never changed, is its own copy.
    @usableFromInline
    func duplicate() -> SlotStorage {
        let old = layout
        guard old.count > 0 else { return self }
        let storage = Self.make(count: old.count, payloadSize: old.payloadSize)
        let new = storage.layout
        for index in 0..<old.count {
            let (kind, offset) = old.descriptor(at: index)
            if kind.isTrivial {
                let payload = old.payloads + offset
                new.setDescriptor(at: index, kind: kind, offset: offset)
                (new.payloads + offset).copyMemory(from: payload, byteCount: SlotLayout.payloadSize(of: kind, at: payload))
            } else {
                new.initialize(at: index, offset: offset, with: old.slot(at: index))
            }
        }
        withExtendedLifetime(self) {}
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
