import Foundation
import PersistenceModel
import PersistenceSQLite

/// The order of a fetch's rows worked out in memory, exactly as the fetch's ORDER BY would
/// order them in SQLite.
///
/// An unlimited sorted fetch whose caller keeps every row (`forEachRowForArray`) is read
/// without ORDER BY; each row's sort-key columns are copied here as SQLite holds them, before
/// the row is decoded, and compared by SQLite's own rules: NULL before numbers, numbers
/// (integers and reals compared exactly with each other) before text, text before blobs;
/// text by its bytes (BINARY) or by `DecimalText.compare` (the DECIMAL collation of a
/// Decimal column); blobs by their bytes; ties by primary key, as the SQL's last term. So
/// the rows come out in the same order, whatever the columns hold.
///
/// Why: SQLite's sorter copies each selected row, whole, into a record, compares records
/// by decoding their fields, and decodes each row once more on the way out. Sorting the
/// keys alone, already decoded, skips all three (measured in `Benchmarks/RESULTS.md`).
struct InMemoryOrdering {
    /// One sort key: its column, and how it compares.
    struct Key {
        /// The column's index among its table's columns.
        let column: Int32
        let ascending: Bool
        /// Whether text compares by the DECIMAL collation rather than by bytes.
        let isDecimal: Bool
    }

    /// A value as SQLite holds it. Text and blobs are offsets into `bytes`.
    private struct Cell {
        /// An integer's or a real's bits, or the offset of text or a blob in `bytes`.
        var bits: UInt64
        /// The byte count of text or a blob.
        var count: UInt32
        var kind: Kind
    }

    /// SQLite's storage classes, in the order ORDER BY puts them.
    private enum Kind: UInt8 {
        case null, integer, real, text, blob

        /// Integers and reals share a rank: they compare by value.
        var rank: UInt8 { self == .real ? Kind.integer.rawValue : rawValue }
    }

    let keys: [Key]
    /// `keys.count` cells per row, row after row.
    private var cells: [Cell] = []
    private var primaryKeys: [Int64] = []
    private var bytes: [UInt8] = []

    /// The ordering of `request`, compiled as `query`, read from `mapping`'s table; nil when
    /// SQL must order it: a limit or offset (SQLite keeps only the rows it returns), a
    /// search's rank, or a sort key that is not a stored attribute of the entity itself (a
    /// key path through a relationship needs its join's column).
    init?(_ request: FetchRequest, _ query: StoreQuery, _ mapping: EntityMapping) {
        guard !request.sortDescriptors.isEmpty, query.limit == nil, query.offset == 0, !query.sortsComputedRank else {
            return nil
        }
        var keys: [Key] = []
        for sortKey in request.sortDescriptors {
            guard let position = mapping.schema.propertyIndex[sortKey.keyPath],
                case .attribute(let attribute) = mapping.schema.properties[position],
                let column = mapping.columnIndex[position]
            else { return nil }
            keys.append(
                Key(column: Int32(column), ascending: sortKey.ascending, isDecimal: attribute.type == .decimal))
        }
        self.keys = keys
    }

    /// Copies the current row's sort-key columns as the row was loaded, before anything reads
    /// them as a type: such a read converts a value in place, after which SQLite no longer
    /// reports the class it was stored in.
    mutating func collect(_ columns: borrowing RowColumns, primaryKey: Int64) {
        primaryKeys.append(primaryKey)
        for key in keys {
            let value = columns[key.column]
            switch columns.storageClass(key.column) {
            case .null:
                cells.append(Cell(bits: 0, count: 0, kind: .null))
            case .integer:
                cells.append(Cell(bits: UInt64(bitPattern: value.int64), count: 0, kind: .integer))
            case .real:
                cells.append(Cell(bits: value.double.bitPattern, count: 0, kind: .real))
            case .text:
                value.withText { append($0, kind: .text) }
            case .blob:
                value.withBlob { append($0, kind: .blob) }
            }
        }
    }

    private mutating func append(_ value: UnsafeRawBufferPointer, kind: Kind) {
        cells.append(Cell(bits: UInt64(bytes.count), count: UInt32(value.count), kind: kind))
        bytes.append(contentsOf: value)
    }

    /// The collected rows' indices, in order.
    ///
    /// Each row gets a word first: its first key's value made into an unsigned number whose
    /// order never contradicts SQLite's (`prefix(of:)`). The rows are sorted by their words
    /// (`sortByPrefix`), and only runs of rows whose words are equal are then compared key
    /// by key.
    func sortedIndices() -> [Int] {
        let width = keys.count
        var entries = [Entry]()
        entries.reserveCapacity(primaryKeys.count)
        let first = keys[0]
        for row in primaryKeys.indices {
            let prefix = Self.prefix(of: cells[row * width], isDecimal: first.isDecimal, bytes: bytes)
            entries.append(Entry(prefix: first.ascending ? prefix : ~prefix, row: row))
        }
        Self.sortByPrefix(&entries)
        keys.withUnsafeBufferPointer { keys in
            cells.withUnsafeBufferPointer { cells in
                primaryKeys.withUnsafeBufferPointer { primaryKeys in
                    bytes.withUnsafeBytes { bytes in
                        var start = 0
                        while start < entries.count {
                            var end = start + 1
                            while end < entries.count, entries[end].prefix == entries[start].prefix { end += 1 }
                            if end - start > 1 {
                                entries[start..<end].sort { a, b in
                                    let (a, b) = (a.row, b.row)
                                    for k in 0..<width {
                                        let key = keys[k]
                                        let order = Self.compare(
                                            cells[a * width + k], cells[b * width + k], key.isDecimal, bytes)
                                        if order != 0 { return key.ascending == (order < 0) }
                                    }
                                    return primaryKeys[a] < primaryKeys[b]
                                }
                            }
                            start = end
                        }
                    }
                }
            }
        }
        return entries.map(\.row)
    }

    /// Sorts `entries` by their words: a least-significant-digit radix sort, a byte a pass,
    /// skipping a byte all the words share (one counting pass finds them all). A word is a
    /// fixed-width integer, so a pass per byte puts n rows in order in about 8n steps, where
    /// comparing them takes n log n comparisons of two entries each.
    private static func sortByPrefix(_ entries: inout [Entry]) {
        let count = entries.count
        guard count > 64 else { return entries.sort { $0.prefix < $1.prefix } }
        var counts = [Int](repeating: 0, count: 8 * 256)
        var other = [Entry](repeating: Entry(prefix: 0, row: 0), count: count)
        counts.withUnsafeMutableBufferPointer { counts in
            for entry in entries {
                for byte in 0..<8 { counts[byte << 8 | Int(truncatingIfNeeded: entry.prefix >> UInt64(byte * 8)) & 0xFF] += 1 }
            }
            for byte in 0..<8 {
                let shift = UInt64(byte * 8)
                let histogram = UnsafeMutableBufferPointer(rebasing: counts[byte << 8..<(byte + 1) << 8])
                if histogram[Int(truncatingIfNeeded: entries[0].prefix >> shift) & 0xFF] == count { continue }
                var offset = 0
                for digit in 0..<256 {
                    let digitCount = histogram[digit]
                    histogram[digit] = offset
                    offset += digitCount
                }
                entries.withUnsafeBufferPointer { from in
                    other.withUnsafeMutableBufferPointer { to in
                        for entry in from {
                            let digit = Int(truncatingIfNeeded: entry.prefix >> shift) & 0xFF
                            to[histogram[digit]] = entry
                            histogram[digit] += 1
                        }
                    }
                }
                swap(&entries, &other)
            }
        }
    }

    /// A row and its first key's prefix.
    private struct Entry {
        var prefix: UInt64
        var row: Int
    }

    /// A word that orders like `cell` wherever it differs: `a` before `b` by SQLite's rules
    /// implies `prefix(a) <= prefix(b)`. The storage class in the top two bits, then a
    /// number's value as a Double (a conversion that keeps order, though it may make
    /// neighbours equal) in the order of its bits, or text's first seven bytes; equal words
    /// are settled by `compare`. Decimal text and blobs get their class alone.
    private static func prefix(of cell: Cell, isDecimal: Bool, bytes: [UInt8]) -> UInt64 {
        switch cell.kind {
        case .null:
            return 0
        case .integer, .real:
            var value = cell.kind == .integer ? Double(Int64(bitPattern: cell.bits)) : Double(bitPattern: cell.bits)
            if value == 0 { value = 0 }  // -0.0 equals 0.0 in SQL
            let bits = value.bitPattern
            let ordered = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            return 1 << 62 | ordered >> 2
        case .text where !isDecimal:
            var word: UInt64 = 0
            let start = Int(cell.bits)
            for i in 0..<7 { word = word << 8 | UInt64(i < Int(cell.count) ? bytes[start + i] : 0) }
            return 2 << 62 | word
        case .text:
            return 2 << 62
        case .blob:
            return 3 << 62
        }
    }

    /// Negative, zero or positive as SQLite's ORDER BY puts `a` before, level with or after `b`.
    private static func compare(_ a: Cell, _ b: Cell, _ isDecimal: Bool, _ bytes: UnsafeRawBufferPointer) -> Int {
        switch (a.kind, b.kind) {
        case (.integer, .integer):
            let (x, y) = (Int64(bitPattern: a.bits), Int64(bitPattern: b.bits))
            return x < y ? -1 : x == y ? 0 : 1
        case (.real, .real):
            let (x, y) = (Double(bitPattern: a.bits), Double(bitPattern: b.bits))
            return x < y ? -1 : x == y ? 0 : 1
        case (.integer, .real):
            return compare(Int64(bitPattern: a.bits), Double(bitPattern: b.bits))
        case (.real, .integer):
            return -compare(Int64(bitPattern: b.bits), Double(bitPattern: a.bits))
        case (.text, .text) where isDecimal:
            return Int(DecimalText.compare(slice(a, bytes), slice(b, bytes)))
        case (.text, .text), (.blob, .blob):
            let (x, y) = (slice(a, bytes), slice(b, bytes))
            let shared = min(x.count, y.count)
            let order = shared == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, shared)
            return order != 0 ? Int(order) : x.count - y.count
        default:
            return Int(a.kind.rank) - Int(b.kind.rank)
        }
    }

    private static func slice(_ cell: Cell, _ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(cell.bits)..<Int(cell.bits) + Int(cell.count)])
    }

    /// An integer against a real, exactly, as SQLite compares them (`sqlite3IntFloatCompare`):
    /// a real outside Int64's range is beyond every integer; otherwise the integer parts
    /// first, then the integer as a real against the real.
    private static func compare(_ i: Int64, _ r: Double) -> Int {
        if r < -9_223_372_036_854_775_808.0 { return 1 }
        if r >= 9_223_372_036_854_775_808.0 { return -1 }
        let y = Int64(r)
        if i != y { return i < y ? -1 : 1 }
        let s = Double(i)
        return s < r ? -1 : s > r ? 1 : 0
    }
}
