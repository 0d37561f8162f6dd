import Foundation
import PersistenceModel

/// Which case a stored slot holds, and so which type its payload's bytes are in `SlotStorage`.
@usableFromInline package enum SlotKind: UInt8, CaseIterable {
    case null, integer, double, decimal, bool, string, date, uuid, url, data, transformable
    /// A string read from a store, kept as its UTF-8 bytes (see `SlotPayload.store(utf8:)`):
    /// a 4-byte count and the bytes, in whole words. Read, it is a `.string`.
    case utf8
    /// `.toOneFault(nil)`, and a to-one fault's destination by its kind of key.
    case toOneFaultNone, toOneFaultPermanent, toOneFaultTemporary
    case toOne, toManyFault, toMany
    /// A `Decimal` whose bytes past its first eight are all zero (a mantissa under 2^32 in
    /// Foundation's layout: every price), kept as those eight bytes; read, it is a `.decimal`
    /// with exactly the bits it was stored with (see `SlotPayload.store(decimal:)`).
    case compactDecimal

    /// The kind whose raw value a descriptor holds: one `SlotStorage` wrote, so valid.
    ///
    /// An unsafe cast, argued: it runs for every value read, where `init(rawValue:)` would
    /// add a range check and an optional to unwrap. It is exact because the raw values are
    /// the implicit ones (0, 1, 2, … in declaration order; none is written out) and Swift
    /// represents a payload-free enum of fewer than 256 cases as one byte holding the case's
    /// declaration index, so a kind's raw value and its bits are the same byte. The byte comes
    /// only from `setDescriptor(at:kind:offset:)`, which stores a kind's `rawValue`, never
    /// from a file. Debug builds check it (the `assert`); `SlotErasureTests` fails if a raw
    /// value is ever written out or the enum stops being one byte.
    @inlinable @inline(__always)
    init(validRawValue rawValue: UInt8) {
        assert(SlotKind(rawValue: rawValue) != nil, "a slot descriptor holds no kind")
        self = unsafeBitCast(rawValue, to: SlotKind.self)
    }

    /// The bytes the widest kind's payload takes, but `.utf8`'s: any `PropertySlot` fits.
    @inlinable static var widestPayloadSize: Int {
        Swift.max(transformable.payloadSize, decimal.payloadSize, url.payloadSize, data.payloadSize, 16)
    }

    /// Whether a payload of this kind is plain bytes, copied as they are and ended with
    /// nothing to release.
    @inlinable var isTrivial: Bool {
        switch self {
        case .null, .integer, .double, .decimal, .compactDecimal, .bool, .date, .uuid, .utf8, .toOneFaultNone,
            .toManyFault:
            true
        case .string, .url, .data, .transformable, .toOneFaultPermanent, .toOneFaultTemporary, .toOne, .toMany:
            false
        }
    }

    /// The bytes a payload of this kind takes: its type's size, in whole words. A `.utf8`
    /// payload's size depends on its bytes (`SlotLayout.payloadSize(of:at:)`); this is its
    /// count's word.
    @inlinable var payloadSize: Int {
        switch self {
        case .null, .toOneFaultNone, .toManyFault: 0
        case .integer, .double, .bool, .date, .toOne, .toMany, .utf8, .compactDecimal: 8
        case .string, .uuid, .toOneFaultPermanent, .toOneFaultTemporary: 16
        case .decimal: SlotStorage.wordAligned(MemoryLayout<Decimal>.size)
        case .url: SlotStorage.wordAligned(MemoryLayout<URL>.size)
        case .data: SlotStorage.wordAligned(MemoryLayout<Data>.size)
        case .transformable: SlotStorage.wordAligned(MemoryLayout<any Sendable>.size)
        }
    }
}

extension PropertySlot {
    /// The kind of payload this slot is stored as.
    @inlinable var kind: SlotKind {
        switch self {
        case .value(let value): value.slotKind
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

extension AttributeValue {
    /// The kind of payload this value is stored as.
    @inlinable var slotKind: SlotKind {
        switch self {
        case .null: .null
        case .integer: .integer
        case .double: .double
        case .decimal(let value): SlotPayload.compactBits(of: value) == nil ? .decimal : .compactDecimal
        case .bool: .bool
        case .string: .string
        case .date: .date
        case .uuid: .uuid
        case .url: .url
        case .data: .data
        case .transformable: .transformable
        }
    }
}
