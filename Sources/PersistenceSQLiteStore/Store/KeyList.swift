import PersistenceSQLite

/// Lists of row keys for `"_id" IN (…)`, as statements the connection can cache: at most
/// `maximumLength` keys each (a power of two), padded to a power of two by repeating a key
/// (which finds its row once), so that a query prepares and caches one statement text per
/// power of two up to the maximum (ten for 512), not one per list length.
enum KeyList {
    /// The most keys in one list, unless a caller says otherwise.
    static let maximumLength = 512

    /// `keys` in lists: each as its `?` marks and the values to bind to them.
    static func chunks(of keys: [Int64], maximumLength: Int = maximumLength) -> [(marks: String, arguments: [SQLiteValue])] {
        var chunks: [(String, [SQLiteValue])] = []
        var start = keys.startIndex
        while start < keys.endIndex {
            let chunk = keys[start..<min(keys.endIndex, start + maximumLength)]
            start = chunk.endIndex
            var width = 1
            while width < chunk.count { width *= 2 }
            let arguments = chunk.map(SQLiteValue.integer)
                + Array(repeating: SQLiteValue.integer(chunk[chunk.startIndex]), count: width - chunk.count)
            chunks.append((Array(repeating: "?", count: width).joined(separator: ", "), arguments))
        }
        return chunks
    }

    /// The positions of `count` rows split into runs whose lengths are powers of two, each at
    /// most `maximumLength` (a power of two), longest first: how a multi-row INSERT writes
    /// rows that cannot be padded, with one cached statement text per power of two, not one
    /// per leftover length.
    static func runs(count: Int, maximumLength: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        var length = max(1, maximumLength)
        while start < count {
            while length > count - start { length /= 2 }
            runs.append(start..<start + length)
            start += length
        }
        return runs
    }

    /// The largest power of two not above `limit` (1 for a limit below 2).
    static func powerOfTwo(atMost limit: Int) -> Int {
        var length = 1
        while length * 2 <= limit { length *= 2 }
        return length
    }
}
