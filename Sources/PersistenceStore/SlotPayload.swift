import Foundation
import PersistenceModel

/// Where one slot's payload goes while a `SlotStorage` is packed: a store decoding a row
/// writes each value here, with no `StoredSlot` in between for a transformable value (whose
/// case would box it).
@usableFromInline package struct SlotPayload {
    @usableFromInline let address: UnsafeMutableRawPointer
    /// The bytes the payload may take: at least the widest kind's, more for a string's UTF-8
    /// while the row's share of extra room lasts (see `SlotStorage.packing`).
    @usableFromInline let room: Int

    @inlinable
    init(address: UnsafeMutableRawPointer, room: Int) {
        self.address = address
        self.room = room
    }

    /// The most bytes a string's UTF-8 takes inline: its payload, with the count, then fits
    /// the byte that records a slot's room while packing.
    @inlinable static var longestInlineUTF8: Int { 244 }

    /// Stores a string attribute's value read from a store as its UTF-8 bytes: inline, as
    /// `.utf8`, when it is longer than a `String` holds without an allocation of its own
    /// (15 bytes) and fits (`longestInlineUTF8`, and the room left); as a `String`
    /// otherwise. A title of 30 bytes takes 40 bytes here instead of a `String`'s 16 and a
    /// heap allocation of 80. It reads as `String(decoding:as: UTF8.self)` of the bytes, as the
    /// store's `String` would have been made, invalid sequences repaired the same way.
    @inlinable
    package func store(utf8 bytes: UnsafeRawBufferPointer) -> SlotKind {
        let count = bytes.count
        guard count > 15, count <= Self.longestInlineUTF8, SlotStorage.wordAligned(4 + count) <= room else {
            address.initializeMemory(as: String.self, to: String(decoding: bytes, as: UTF8.self))
            return .string
        }
        address.storeBytes(of: UInt32(count), as: UInt32.self)
        (address + 4).copyMemory(from: bytes.baseAddress!, byteCount: count)
        return .utf8
    }

    /// Stores a transformable attribute's app value.
    @inlinable
    package func store(transformable value: consuming any Sendable) -> SlotKind {
        address.initializeMemory(as: (any Sendable).self, to: value)
        return .transformable
    }

    /// Stores a value whose payload type is `T`, as slots of `kind` keep it (an integer's
    /// `Int64`, a date's `Date`, …): each case of `store(_: AttributeValue)`.
    @inlinable @inline(__always)
    func store<T>(_ value: T, as kind: SlotKind) -> SlotKind {
        assert(MemoryLayout<T>.size <= kind.payloadSize, "a \(T.self) is no \(kind) payload")
        address.initializeMemory(as: T.self, to: value)
        return kind
    }

    /// Stores a `Decimal`: as its first eight bytes (`.compactDecimal`) when the other twelve
    /// are zero, else whole (`.decimal`, three words).
    ///
    /// Foundation's `Decimal` is twenty bytes of plain integers (exponent, length and flags,
    /// then eight 16-bit mantissa words): bytes past the eighth are the mantissa's words from
    /// the third on, zero for any mantissa under 2^32 — every price, and most decimals an app
    /// stores. The test is on the bytes themselves, so whatever the layout, a value kept
    /// compact reads back with exactly its bits (`compactDecimal(at:)`); one that is not is
    /// kept whole. A price takes one word instead of three.
    @inlinable
    func store(decimal value: Decimal) -> SlotKind {
        guard let compact = Self.compactBits(of: value) else { return store(value, as: .decimal) }
        address.storeBytes(of: compact, as: UInt64.self)
        return .compactDecimal
    }

    /// The first eight bytes of `value` when the rest are zero; nil when they are not.
    @inlinable @inline(__always)
    static func compactBits(of value: Decimal) -> UInt64? {
        withUnsafeBytes(of: value) { bytes in
            guard bytes.count == 20, bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == 0,
                bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self) == 0
            else { return nil }
            return bytes.loadUnaligned(as: UInt64.self)
        }
    }

    /// The `Decimal` a `.compactDecimal` payload at `payload` holds: its eight bytes, then
    /// zeros.
    @inlinable
    static func compactDecimal(at payload: UnsafeRawPointer) -> Decimal {
        var value = Decimal()
        withUnsafeMutableBytes(of: &value) { bytes in
            for index in bytes.indices { bytes[index] = 0 }
            bytes.storeBytes(of: payload.load(as: UInt64.self), as: UInt64.self)
        }
        return value
    }

    /// Stores an unloaded to-one whose destination is the saved row `key` of `scope`'s entity.
    @inlinable
    package func store(destinationKey key: Int64, in scope: ObjectID.Scope) -> SlotKind {
        address.initializeMemory(as: ObjectID.Scope.self, to: scope)
        (address + 8).initializeMemory(as: Int64.self, to: key)
        return .toOneFaultPermanent
    }

    /// Moves `slot`'s payload here and tells its kind: one switch over the slot for both.
    @inlinable @inline(__always)
    package func store(_ slot: consuming PropertySlot<NoObject>) -> SlotKind {
        let payload = address
        switch consume slot {
        case .value(let value): return store(value)
        case .toOneFault(.none): return .toOneFaultNone
        case .toOneFault(.some(let id)):
            switch id.key {
            case .permanent(let key):
                return store(destinationKey: key, in: id.scope)
            case .temporary(let number):
                payload.initializeMemory(as: ObjectID.Scope.self, to: id.scope)
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

    /// Moves an attribute value's payload here and tells its kind.
    @inlinable @inline(__always)
    package func store(_ value: consuming AttributeValue) -> SlotKind {
        switch consume value {
        case .null: return .null
        case .integer(let value): return store(value, as: .integer)
        case .double(let value): return store(value, as: .double)
        case .decimal(let value): return store(decimal: value)
        case .bool(let value): return store(value, as: .bool)
        case .string(let value): return store(value, as: .string)
        case .date(let value): return store(value, as: .date)
        case .uuid(let value): return store(value, as: .uuid)
        case .url(let value): return store(value, as: .url)
        case .data(let value): return store(value, as: .data)
        case .transformable(let value): return store(transformable: value)
        }
    }
}
