import Foundation

/// The order sort keys put values in, as SQLite orders the SQLite store's columns: nil first,
/// then numbers (exact across Decimal, integer and Double; NaN after them), then strings by
/// code point, UUIDs and URLs by their text, then data bytewise.
///
/// One order for every place that sorts in memory: a context sorting unsaved objects into a
/// store's answer, and stores that sort rows themselves (Core Data's, PostgreSQL's), so that
/// every store answers a sorted fetch in the same order.
package enum SortValueOrder {
    /// SQLite's storage classes in its order: NULL < numbers < text (and NaN) < blob.
    private static func rank(_ value: PredicateValue) -> Int {
        switch value {
        case .null: 0
        case .bool, .integer, .decimal, .date: 1
        case .double(let d): d.isNaN ? 2 : 1
        case .string, .uuid, .url: 2
        case .data: 3
        case .object, .collection: 4
        }
    }

    /// How `l` sorts against `r` in ascending order.
    package static func compare(_ l: PredicateValue, _ r: PredicateValue) -> ComparisonResult {
        let (rl, rr) = (rank(l), rank(r))
        if rl != rr { return rl < rr ? .orderedAscending : .orderedDescending }
        switch (l, r) {
        case (.string(let a), .string(let b)): return PredicateEvaluator.compareBytes(a.utf8, b.utf8)
        case (.date(let a), .date(let b)): return PredicateEvaluator.compare(a, b)
        case (.uuid(let a), .uuid(let b)): return PredicateEvaluator.compare(a.uuidString, b.uuidString)
        case (.url(let a), .url(let b)): return PredicateEvaluator.compareBytes(a.absoluteString.utf8, b.absoluteString.utf8)
        case (.data(let a), .data(let b)): return PredicateEvaluator.compareBytes(a, b)
        default:
            if let a = Number(l), let b = Number(r) { return Number.compare(a, b) ?? .orderedSame }
            return .orderedSame
        }
    }
}
