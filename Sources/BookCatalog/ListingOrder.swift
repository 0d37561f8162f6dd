import Foundation
import Persistence

/// The order of a listing: `books list --sort title|author|date|price|added [--reverse]`.
///
/// Each key has the direction people expect first: titles and authors A to Z (by their
/// canonical form, so case and accents do not split "Émile" from "Emma"), dates and dates
/// added newest first, prices lowest first. Ties fall by title, then by UUID, so that two
/// runs over the same books always print them in the same order (titles compare as people
/// read them, except in the default order by date, which keeps earlier releases' order). `reversed` turns the
/// whole order around, tie-breakers included: the same list, backwards.
public struct ListingOrder: Sendable, Equatable {
    /// What a listing sorts by.
    public enum Key: String, CaseIterable, Sendable {
        case title, author, date, price, added
    }

    /// The key sorted on first.
    public var key: Key
    /// Whether the order is turned around.
    public var reversed: Bool

    /// The order of `key`, turned around when `reversed`; by default, today's listing order
    /// (newest first, then by title).
    public init(key: Key = .date, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }

    /// The sort keys a fetch uses: the key in its direction, then the tie-breakers.
    var sortKeys: [SortKey] {
        let keys: [SortKey]
        switch key {
        // A listing by date keeps the order of earlier releases: ties by the title's text.
        case .date: keys = [SortKey("publishDate", ascending: false), SortKey("title")]
        case .title: keys = Self.byTitle
        case .author: keys = [SortKey("author.canonicalName")] + Self.byTitle
        case .price: keys = [SortKey("price")] + Self.byTitle
        case .added: keys = [SortKey("dateAdded", ascending: false)] + Self.byTitle
        }
        let all = keys + [SortKey("uuid")]
        return reversed ? all.map { SortKey($0.keyPath, ascending: !$0.ascending) } : all
    }

    /// Titles as people sort them (case and accents aside), then as typed.
    private static let byTitle = [SortKey("canonicalTitle"), SortKey("title")]

    /// The order of months in a listing by month: newest first, unless the books are
    /// sorted by date and reversed (oldest first).
    var monthsAscending: Bool { key == .date && reversed }

    /// Sorts the books of one month in memory as ``sortKeys`` sort them in SQL: nil first
    /// when ascending, text by its UTF-8 bytes (SQLite's BINARY collation), numbers and
    /// dates by value.
    func sort(_ books: inout [Book]) {
        let keys = sortKeys
        books.sort { a, b in
            for sortKey in keys {
                let order = Self.compare(a, b, keyPath: sortKey.keyPath)
                if order != .orderedSame { return (order == .orderedAscending) == sortKey.ascending }
            }
            return false
        }
    }

    private static func compare(_ a: Book, _ b: Book, keyPath: String) -> ComparisonResult {
        switch keyPath {
        case "canonicalTitle": return text(a.canonicalTitle, b.canonicalTitle)
        case "title": return text(a.title, b.title)
        case "author.canonicalName": return text(a.author?.canonicalName, b.author?.canonicalName)
        case "publishDate": return value(a.publishDate, b.publishDate)
        case "price": return value(a.price, b.price)
        case "dateAdded": return value(a.dateAdded, b.dateAdded)
        default: return text(a.uuid.uuidString, b.uuid.uuidString)
        }
    }

    private static func text(_ a: String?, _ b: String?) -> ComparisonResult {
        switch (a, b) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let a?, let b?):
            if a.utf8.elementsEqual(b.utf8) { return .orderedSame }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : .orderedDescending
        }
    }

    private static func value<T: Comparable>(_ a: T?, _ b: T?) -> ComparisonResult {
        switch (a, b) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let a?, let b?): return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        }
    }
}
