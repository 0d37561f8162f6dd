import Foundation

/// One book's place in a listing sorted by text (`--sort title|author|series`) under the
/// user's ``TextCollation``: one key of bytes, computed once, that compares as bytes in the
/// listing's order.
///
/// The order is the store's order for these keys, with text collated: the key's text (the
/// title, its leading article skipped; the byline; the series, its article skipped), for a
/// series its number, then the title collated, then the title as typed (case and all, by its
/// UTF-8 bytes), then the UUID. Reversing the comparison turns all of it around,
/// tie-breakers included.
///
/// The parts are joined into one key so that sorting compares bytes (`memcmp`) and moves
/// nothing but positions: each part's zero bytes are written as 0x00 0x01 and each part ends
/// with 0x00 0x00, which sorts before anything that continues it.
struct CollatedListingRow {
    /// The keys listings by text sort on; the others keep the store's order.
    static let collatedKeys: Set<ListingOrder.Key> = [.title, .author, .series]

    /// The bytes of the row's key.
    static func key(
        for key: ListingOrder.Key, collation: TextCollation, uuid: UUID, title: String, byline: String?,
        series: String?, seriesNumber: Decimal?, into bytes: inout [UInt8]
    ) {
        switch key {
        case .author:
            append(collation.sortKey(byline ?? ""), to: &bytes)
            append(collation.sortKey(title: title), to: &bytes)
        case .series:
            append(collation.sortKey(title: series ?? ""), to: &bytes)
            append(number: seriesNumber, to: &bytes)
            append(collation.sortKey(title: title), to: &bytes)
        default:
            append(collation.sortKey(title: title), to: &bytes)
        }
        append(title.utf8, to: &bytes)
        append(uuid.uuidString.utf8, to: &bytes)
    }

    /// The key of a book.
    static func key(of book: Book, for key: ListingOrder.Key, collation: TextCollation, into bytes: inout [UInt8]) {
        self.key(
            for: key, collation: collation, uuid: book.uuid, title: book.title, byline: book.byline,
            series: book.series, seriesNumber: book.seriesNumber, into: &bytes)
    }

    /// The positions of `count` rows whose keys lie one after another in `bytes` (row `i`
    /// from `ends[i - 1]`, or 0, to `ends[i]`), in the order of their keys: ascending, or
    /// descending when `reversed`. Equal keys (never two books: the UUID is in the key) keep
    /// their order.
    static func sortedPositions(bytes: [UInt8], ends: [Int], reversed: Bool) -> [Int] {
        var positions = Array(ends.indices)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            ends.withUnsafeBufferPointer { ends in
                func compare(_ a: Int, _ b: Int) -> Int {
                    let aStart = a == 0 ? 0 : ends[a - 1], bStart = b == 0 ? 0 : ends[b - 1]
                    let aCount = ends[a] - aStart, bCount = ends[b] - bStart
                    let order = memcmp(base + aStart, base + bStart, min(aCount, bCount))
                    return order != 0 ? Int(order) : aCount - bCount
                }
                positions.sort { a, b in
                    let order = compare(a, b)
                    return reversed ? order > 0 : order < 0
                }
            }
        }
        return positions
    }

    // MARK: - Internals

    /// Appends one part of a key: its zero bytes escaped, then the terminator.
    private static func append<C: Sequence<UInt8>>(_ part: C, to bytes: inout [UInt8]) {
        for byte in part {
            bytes.append(byte)
            if byte == 0 { bytes.append(1) }
        }
        bytes.append(0)
        bytes.append(0)
    }

    /// Appends a series number: none first (as SQL sorts nil first), then numbers in order
    /// (as a Double, its bits arranged so that they compare as bytes).
    private static func append(number: Decimal?, to bytes: inout [UInt8]) {
        guard let number else { return append([0], to: &bytes) }
        let value = NSDecimalNumber(decimal: number).doubleValue
        let bits = value.bitPattern
        let ordered = value.sign == .minus ? ~bits : bits | (1 << 63)
        append([1] + (0..<8).map { UInt8(truncatingIfNeeded: ordered >> (56 - 8 * $0)) }, to: &bytes)
    }
}
