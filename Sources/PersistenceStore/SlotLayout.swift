import Foundation
import PersistenceModel

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

    /// The bytes a payload of `kind` at `payload` takes: its kind's size, or for `.utf8` its
    /// count's 4 bytes and its bytes, in whole words.
    @inlinable
    static func payloadSize(of kind: SlotKind, at payload: UnsafeRawPointer) -> Int {
        guard kind == .utf8 else { return kind.payloadSize }
        return SlotStorage.wordAligned(4 + Int(payload.load(as: UInt32.self)))
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
        case .compactDecimal: return .value(.decimal(SlotPayload.compactDecimal(at: payload)))
        case .bool: return .value(.bool(payload.load(as: Bool.self)))
        case .string: return .value(.string(payload.load(as: String.self)))
        case .utf8:
            let bytes = UnsafeRawBufferPointer(start: payload + 4, count: Int(payload.load(as: UInt32.self)))
            return .value(.string(String(decoding: bytes, as: UTF8.self)))
        case .date: return .value(.date(payload.load(as: Date.self)))
        case .uuid: return .value(.uuid(payload.load(as: UUID.self)))
        case .url: return .value(.url(payload.load(as: URL.self)))
        case .data: return .value(.data(payload.load(as: Data.self)))
        case .transformable: return .value(.transformable(payload.load(as: (any Sendable).self)))
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
    func transformableValue(at index: Int) -> (any Sendable)? {
        let (kind, offset) = descriptor(at: index)
        guard kind == .transformable else { return nil }
        return UnsafeRawPointer(payloads + offset).load(as: (any Sendable).self)
    }

    /// Initializes slot `index` at `offset` with `slot`, which must fit its room.
    @inlinable
    func initialize(at index: Int, offset: Int, with slot: consuming PropertySlot<NoObject>) {
        // A slot's payload is never a `.utf8` one, so no wider than the widest kind's.
        let kind = SlotPayload(address: payloads + offset, room: SlotKind.widestPayloadSize).store(slot)
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
        case .null, .integer, .double, .decimal, .compactDecimal, .bool, .date, .uuid, .utf8, .toOneFaultNone,
            .toManyFault:
            break
        case .string: payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case .url: payload.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
        case .data: payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case .transformable: payload.assumingMemoryBound(to: (any Sendable).self).deinitialize(count: 1)
        case .toOneFaultPermanent, .toOneFaultTemporary:
            payload.assumingMemoryBound(to: ObjectID.Scope.self).deinitialize(count: 1)
        case .toOne: payload.assumingMemoryBound(to: NoObject?.self).deinitialize(count: 1)
        case .toMany: payload.assumingMemoryBound(to: [NoObject].self).deinitialize(count: 1)
        }
    }
}
