import Foundation
import Persistence
import RawSQLite

/// The raw side's canonical folding: the same function Persistence uses, called from C
/// for each title inside the timed work (as an SQL function or a derived value would be).
let rawFold: raw_fold_fn = { text, length in
    guard let text else { return nil }
    let folded = CanonicalText.fold(utf8: UnsafeRawBufferPointer(start: text, count: Int(length)))
    return strdup(folded)
}

/// An error from the raw side, with SQLite's message.
struct RawError: Error, CustomStringConvertible {
    var description: String
    init(_ what: String, code: Int32) {
        description = "Raw SQLite \(what) failed with code \(code): \(String(cString: raw_last_error()))."
    }
}

/// Swift wrappers over the RawSQLite C functions.
enum RawSide {
    static func check(_ code: Int32, _ what: String) throws {
        if code != 0 { throw RawError(what, code: code) }
    }

    static func searchShape(of path: String) throws -> raw_search_shape {
        var shape = raw_search_shape()
        try check(raw_probe_search(path, &shape), "probing \(path)")
        return shape
    }

    /// Inserts the books into a new store (create) or an existing Persistence store.
    static func insert(_ values: CBookValues, path: String, create: Bool, shape: raw_search_shape) throws {
        let code = values.authors.withUnsafeBufferPointer { authors in
            values.books.withUnsafeBufferPointer { books in
                raw_insert(path, create ? 1 : 0, shape, authors.baseAddress, Int32(authors.count),
                           books.baseAddress, Int32(books.count), rawFold)
            }
        }
        try check(code, "insert into \(path)")
    }

    static func fetchAll(path: String) throws -> Int64 {
        var rows: Int64 = 0
        var checksum: Int64 = 0
        try check(raw_fetch_all(path, &rows, &checksum), "fetch from \(path)")
        return rows
    }

    /// Workload 2 keeping every value, as a C program that keeps the books would.
    static func fetchAllKept(path: String) throws -> Int64 {
        var rows: Int64 = 0
        var checksum: Int64 = 0
        try check(raw_fetch_all_kept(path, &rows, &checksum), "fetch from \(path)")
        return rows
    }

    static func fetchMonths(path: String) throws -> (sections: Int64, rows: Int64) {
        var sections: Int64 = 0
        var rows: Int64 = 0
        try check(raw_fetch_months(path, &sections, &rows), "sorted fetch from \(path)")
        return (sections, rows)
    }

    static func update(path: String, shape: raw_search_shape, keys: [Int64], titles: [String], prices: [String]) throws {
        let titleCopies = titles.map { UnsafePointer(strdup($0)) }
        let priceCopies = prices.map { UnsafePointer(strdup($0)) }
        defer { (titleCopies + priceCopies).forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        let code = raw_update(path, shape, keys, titleCopies, priceCopies, Int32(keys.count), rawFold)
        try check(code, "update in \(path)")
    }

    static func delete(path: String, shape: raw_search_shape, keys: [Int64]) throws {
        try check(raw_delete(path, shape, keys, Int32(keys.count)), "delete in \(path)")
    }
}
