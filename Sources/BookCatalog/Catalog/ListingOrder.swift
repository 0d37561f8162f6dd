import Foundation
import Persistence

/// The order of a listing: `books list --sort title|author|date|price|added|series
/// [--reverse]`.
///
/// Each key has the direction people expect first: titles and authors A to Z (by their
/// canonical form, so case and accents do not split "Émile" from "Emma"; by the first
/// author, through the byline that begins with it), dates and dates added newest first,
/// prices lowest first, series A to Z and then by number. Books whose value of the key is
/// unknown (no date, no price, no series) come after all the others, in either direction. Ties fall by title, then by UUID, so that two
/// runs over the same books always print them in the same order (titles compare as people
/// read them, except in the default order by date, which keeps earlier releases' order). `reversed` turns the
/// whole order around, tie-breakers included: the same list, backwards.
///
/// With a ``collation`` (the user's locale's, see ``UserEnvironment/collation``), titles,
/// authors and series sort as the user's language orders them, leading articles of titles
/// and series skipped ("The Hobbit" under H in English): see ``TextCollation``. Without one
/// (the C locale) text sorts by its canonical form's bytes, in the store. Ties of the other
/// keys fall by the canonical title in either case.
public struct ListingOrder: Sendable, Equatable {
    /// What a listing sorts by.
    public enum Key: String, CaseIterable, Sendable {
        case title, author, date, price, added, series
    }

    /// The key sorted on first.
    public var key: Key
    /// Whether the order is turned around.
    public var reversed: Bool
    /// How text is ordered: nil for the store's order (the C locale).
    public var collation: TextCollation?

    /// The order of `key`, turned around when `reversed`, text collated by `collation`; by
    /// default, today's listing order (newest first, then by title).
    public init(key: Key = .date, reversed: Bool = false, collation: TextCollation? = nil) {
        self.key = key
        self.reversed = reversed
        self.collation = collation
    }

    /// The collation a listing by this key sorts its text with in memory: nil when the
    /// store's order is the listing's (no collation, or a key that is not text).
    var textCollation: TextCollation? {
        CollatedListingRow.collatedKeys.contains(key) ? collation : nil
    }

    /// The sort keys a fetch uses: the key in its direction, then the tie-breakers.
    var sortKeys: [SortKey] {
        let keys: [SortKey]
        switch key {
        // A listing by date keeps the order of earlier releases: ties by the title's text.
        case .date: keys = [SortKey("publishDate", ascending: false), SortKey("title")]
        case .title: keys = Self.byTitle
        case .author: keys = [SortKey("canonicalByline")] + Self.byTitle
        case .price: keys = [SortKey("price")] + Self.byTitle
        case .added: keys = [SortKey("dateAdded", ascending: false)] + Self.byTitle
        case .series: keys = [SortKey("series"), SortKey("seriesNumber")] + Self.byTitle
        }
        let all = keys + [SortKey("uuid")]
        return reversed ? all.map { SortKey($0.keyPath, ascending: !$0.ascending) } : all
    }

    /// The attribute whose unknown values come last: the key's own, when it can be nil.
    var unknownLastKeyPath: String? {
        switch key {
        case .title: nil
        case .author: "canonicalByline"
        case .date: "publishDate"
        case .price: "price"
        case .added: "dateAdded"
        case .series: "series"
        }
    }

    /// The predicates of a listing's fetches, in turn: `predicate` over the books whose key is
    /// known, then over those whose key is unknown (stores sort nil first, as SQLite does).
    func parts(of predicate: FetchPredicate?) -> [FetchPredicate?] {
        guard let keyPath = unknownLastKeyPath else { return [predicate] }
        let known = PredicateKey.key(keyPath) != nil
        let unknown = PredicateKey.key(keyPath) == nil
        return [predicate.map { $0 && known } ?? known, predicate.map { $0 && unknown } ?? unknown]
    }

    /// Titles as people sort them (case and accents aside), then as typed.
    private static let byTitle = [SortKey("canonicalTitle"), SortKey("title")]

    /// The order of months in a listing by month: newest first, unless the books are
    /// sorted by date and reversed (oldest first).
    var monthsAscending: Bool { key == .date && reversed }

    /// Sorts the books of one month in memory as ``parts(of:)`` and ``sortKeys`` sort them
    /// in SQL: an unknown key last, then nil first when ascending, text by its UTF-8 bytes
    /// (SQLite's BINARY collation), numbers and dates by value.
    func sort(_ books: inout [Book]) {
        let unknownLast = unknownLastKeyPath
        if let collation = textCollation {
            // Books whose key is unknown last, then the collated order of each group.
            var groups: [[Book]] = [[], []]
            for book in books {
                let unknown = unknownLast.map { book.value(forKey: $0) == nil } ?? false
                groups[unknown ? 1 : 0].append(book)
            }
            books = []
            for group in groups {
                var bytes: [UInt8] = []
                var ends: [Int] = []
                for book in group {
                    CollatedListingRow.key(of: book, for: key, collation: collation, into: &bytes)
                    ends.append(bytes.count)
                }
                books += CollatedListingRow.sortedPositions(bytes: bytes, ends: ends, reversed: reversed).map { group[$0] }
            }
            return
        }
        let keys = sortKeys
        books.sort { a, b in
            if let keyPath = unknownLast {
                let (aUnknown, bUnknown) = (a.value(forKey: keyPath) == nil, b.value(forKey: keyPath) == nil)
                if aUnknown != bUnknown { return bUnknown }
            }
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
        case "canonicalByline": return text(a.canonicalByline, b.canonicalByline)
        case "series": return text(a.series, b.series)
        case "seriesNumber": return value(a.seriesNumber, b.seriesNumber)
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
