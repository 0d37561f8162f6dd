import Foundation
import Persistence

/// What `books stats` shows: the catalogue's books counted by the year they were read, the
/// decade they were published, status, rating, author and series.
///
/// Made by ``Catalog/stats(top:)`` with memory that does not grow with the number of
/// books: the books are read as dictionaries of the few stored values counted (no object
/// per book), a series is counted from a pass ordered by series (so one series at a time is
/// held), and an author from the IDs of their books (so one author at a time).
///
/// The rules, which `books help stats` repeats:
/// - a book counts as **read** in the year (UTC) of its `dateRead`, once, whatever its
///   `readCount` (a re-read has no date of its own); a book with status `read` but no date
///   read is counted by status only;
/// - **pages read** in a year are the sum of the `pages` of the books read that year (a book
///   without pages adds none);
/// - a **decade** is that of `publishDate` (1960 for 1960–1969); a book without one counts
///   as unknown;
/// - a book with several authors counts for each of them.
public struct CatalogStats: Sendable, Equatable {
    /// The books read in one year, and their pages.
    public struct ReadYear: Sendable, Equatable {
        /// The year of the books' `dateRead`, in UTC.
        public var year: Int
        /// How many books were read that year.
        public var books: Int
        /// The sum of their `pages`.
        public var pages: Int
    }

    /// The books published in one decade.
    public struct Decade: Sendable, Equatable {
        /// The decade's first year (1960 for the 1960s); nil for books without a date.
        public var decade: Int?
        /// How many books.
        public var books: Int
    }

    /// The books of one reading status.
    public struct StatusCount: Sendable, Equatable {
        /// The stored status (`to-read`, `reading`, `read`, or a value another program
        /// wrote); nil for books without one.
        public var status: String?
        /// How many books.
        public var books: Int
    }

    /// The books of one rating.
    public struct RatingCount: Sendable, Equatable {
        /// The rating, 0 to 5; nil for unrated books.
        public var rating: Int?
        /// How many books.
        public var books: Int
    }

    /// An author or series and how many books it has.
    public struct NamedCount: Sendable, Equatable {
        /// The author's name or the series, as stored.
        public var name: String
        /// How many books.
        public var books: Int
    }

    /// How many books the catalogue holds.
    public var bookCount = 0
    /// The years in which books were read, oldest first; years without any are left out.
    public var readYears: [ReadYear] = []
    /// The publication decades, oldest first, unknown last; decades without books are left out.
    public var decades: [Decade] = []
    /// `to-read`, `reading` and `read` (always, zero or not), then any other stored value by
    /// name, then books without a status (nil; always).
    public var statuses: [StatusCount] = []
    /// Ratings 5 down to 0, then unrated (nil); every one, zero or not.
    public var ratings: [RatingCount] = []
    /// The authors with the most books, most first, ties by name (case and accents
    /// ignored); authors without books are left out.
    public var topAuthors: [NamedCount] = []
    /// The series with the most books, ordered as ``topAuthors``.
    public var topSeries: [NamedCount] = []

    /// Creates empty statistics (no books).
    public init() {}

    /// Whether `a` comes before `b` in a top list: more books first, then by name ignoring
    /// case and accents, then by the name's exact text, so that the order is total.
    public static func ranksBefore(_ a: NamedCount, _ b: NamedCount) -> Bool {
        if a.books != b.books { return a.books > b.books }
        let folded = a.name.compare(b.name, options: [.caseInsensitive, .diacriticInsensitive])
        if folded != .orderedSame { return folded == .orderedAscending }
        return a.name < b.name
    }
}

extension Catalog {
    /// How many authors and series ``stats(top:)`` lists unless told otherwise.
    public static let defaultStatsTopCount = 10

    /// The catalogue's statistics (see ``CatalogStats``): the top `top` authors and series.
    ///
    /// Reads only; saved books only (the catalogue's context has no unsaved changes when a
    /// command asks).
    ///
    /// - Throws: the store's failure when it cannot be read.
    public func stats(top: Int = Catalog.defaultStatsTopCount) throws -> CatalogStats {
        var stats = CatalogStats()
        try countBooks(into: &stats)
        stats.topSeries = try topSeries(top)
        stats.topAuthors = try topAuthors(top)
        return stats
    }

    // MARK: - Internals

    /// One pass over every book's stored date read, publication date, status, rating and
    /// pages, as dictionaries: no object is made.
    private func countBooks(into stats: inout CatalogStats) throws {
        var years: [Int: (books: Int, pages: Int)] = [:]
        var decades: [Int: Int] = [:]
        var unknownDecade = 0
        var statuses: [String: Int] = [:]
        var noStatus = 0
        var ratings = [Int](repeating: 0, count: 6)
        var unrated = 0
        let zone = Self.calendarTimeZone
        let request = FetchRequest(entityName: "Book")
        let keys = ["dateRead", "publishDate", "status", "rating", "pages"]
        try context.forEachDictionary(request, properties: keys) { row in
            stats.bookCount += 1
            if let read = row["dateRead"] as? Date {
                let year = DateText.yearMonth(of: read, timeZone: zone).year
                let pages = Self.integer(row["pages"]) ?? 0
                let sum = years[year, default: (0, 0)]
                years[year] = (sum.books + 1, sum.pages + max(pages, 0))
            }
            if let published = row["publishDate"] as? Date {
                let year = DateText.yearMonth(of: published, timeZone: zone).year
                // Floored, so that the decade of year -5 is -10 (-10 to -1), as 1965's is 1960.
                decades[Int((Double(year) / 10).rounded(.down)) * 10, default: 0] += 1
            } else {
                unknownDecade += 1
            }
            if let status = row["status"] as? String { statuses[status, default: 0] += 1 } else { noStatus += 1 }
            if let rating = Self.integer(row["rating"]), ratings.indices.contains(rating) {
                ratings[rating] += 1
            } else {
                unrated += 1
            }
            return true
        }
        stats.readYears = years.keys.sorted().map { year in
            CatalogStats.ReadYear(year: year, books: years[year]?.books ?? 0, pages: years[year]?.pages ?? 0)
        }
        stats.decades = decades.keys.sorted().map { CatalogStats.Decade(decade: $0, books: decades[$0] ?? 0) }
        if unknownDecade > 0 { stats.decades.append(CatalogStats.Decade(decade: nil, books: unknownDecade)) }
        let known = ReadingStatus.allCases.map(\.rawValue)
        stats.statuses = known.map { CatalogStats.StatusCount(status: $0, books: statuses[$0] ?? 0) }
            + statuses.keys.filter { !known.contains($0) }.sorted().map {
                CatalogStats.StatusCount(status: $0, books: statuses[$0] ?? 0)
            }
            + [CatalogStats.StatusCount(status: nil, books: noStatus)]
        stats.ratings = (0...5).reversed().map { CatalogStats.RatingCount(rating: $0, books: ratings[$0]) }
            + [CatalogStats.RatingCount(rating: nil, books: unrated)]
    }

    /// The series with the most books: the books with a series, ordered by it (the column is
    /// indexed), each run of one series counted as it passes.
    private func topSeries(_ top: Int) throws -> [CatalogStats.NamedCount] {
        var list = TopList(capacity: top)
        var current: CatalogStats.NamedCount?
        let request = FetchRequest(
            entityName: "Book", predicate: try FetchPredicate("series != nil"), sortDescriptors: [SortKey("series")])
        try context.forEachDictionary(request, properties: ["series"]) { row in
            guard let series = row["series"] as? String else { return true }
            if current?.name == series {
                current?.books += 1
            } else {
                if let current { list.offer(current) }
                current = CatalogStats.NamedCount(name: series, books: 1)
            }
            return true
        }
        if let current { list.offer(current) }
        return list.items
    }

    /// The authors with the most books: each author in turn, counting the IDs of their books
    /// (read from the store without making the books).
    private func topAuthors(_ top: Int) throws -> [CatalogStats.NamedCount] {
        var list = TopList(capacity: top)
        try context.forEach(FetchRequest(entityName: "Author")) { object in
            guard let author = object as? Author else { return true }
            let books = author.objectIDs(forRelationshipNamed: "books").count
            if books > 0 { list.offer(CatalogStats.NamedCount(name: author.name, books: books)) }
            return true
        }
        return list.items
    }

    /// A stored integer as a dictionary result gives it.
    private static func integer(_ value: Any?) -> Int? {
        switch value {
        case let value as Int: value
        case let value as Int64: Int(exactly: value)
        case let value as Int32: Int(value)
        case let value as Int16: Int(value)
        default: nil
        }
    }
}

/// The best `capacity` counts offered, in ``CatalogStats/ranksBefore(_:_:)`` order: the
/// only memory a top list needs, however many authors or series there are.
private struct TopList {
    let capacity: Int
    private(set) var items: [CatalogStats.NamedCount] = []

    init(capacity: Int) { self.capacity = max(capacity, 0) }

    mutating func offer(_ item: CatalogStats.NamedCount) {
        guard capacity > 0 else { return }
        if items.count == capacity {
            guard let last = items.last, CatalogStats.ranksBefore(item, last) else { return }
            items.removeLast()
        }
        let index = items.firstIndex { CatalogStats.ranksBefore(item, $0) } ?? items.count
        items.insert(item, at: index)
    }
}
