import Foundation

/// The changes `books edit` asks of one book, as typed: nil leaves a field as it is. For the
/// optional fields (everything but the title and authors) an empty text removes the value:
/// the date or price becomes unknown.
public struct BookEdit: Sendable, Equatable {
    /// `--title`: a new title.
    public var title: String?
    /// `--author` (repeatable): the book's authors' names, first author first, found or
    /// added; empty leaves them as they are.
    public var authors: [String]
    /// `--date`: `YYYY-MM-DD`, or `YYYY-MM` or `YYYY` when only the month or year is known
    /// (which sets the book's `datePrecision`); empty for unknown.
    public var date: String?
    /// `--price`: a plain decimal number such as 12.99; empty for unknown.
    public var price: String?
    /// `--color`: `#RRGGBB`; empty for none.
    public var color: String?
    /// `--isbn`: an ISBN-10 or ISBN-13, stored as ISBN-13; empty for none.
    public var isbn: String?
    /// `--rating`: 0 to 5; empty for none.
    public var rating: String?
    /// `--status`: to-read, reading or read; empty for none.
    public var status: String?
    /// `--notes`: free text, newlines allowed; empty for none.
    public var notes: String?
    /// `--tag`: `+name` adds the tag (made if new), `-name` removes it; a bare name adds it.
    public var tags: [String]
    /// `--series`: the series' name; empty for none.
    public var series: String?
    /// `--series-number`: 1, 2.5; empty for none.
    public var seriesNumber: String?
    /// `--publisher`; empty for none.
    public var publisher: String?
    /// `--pages`: 1 to 100000; empty for none.
    public var pages: String?
    /// `--format`: the binding, such as Paperback; empty for none.
    public var format: String?
    /// `--read`: the day last read, `YYYY-MM-DD`; empty for none.
    public var dateRead: String?
    /// `--read-count`: 0 to 10000; empty for none.
    public var readCount: String?
    /// `--review`: free text, newlines allowed; empty for none.
    public var review: String?

    /// An edit of the given fields.
    public init(
        title: String? = nil, authors: [String] = [], date: String? = nil, price: String? = nil,
        color: String? = nil, isbn: String? = nil, rating: String? = nil, status: String? = nil,
        notes: String? = nil, tags: [String] = [], series: String? = nil, seriesNumber: String? = nil,
        publisher: String? = nil, pages: String? = nil, format: String? = nil, dateRead: String? = nil,
        readCount: String? = nil, review: String? = nil
    ) {
        self.title = title
        self.authors = authors
        self.date = date
        self.price = price
        self.color = color
        self.isbn = isbn
        self.rating = rating
        self.status = status
        self.notes = notes
        self.tags = tags
        self.series = series
        self.seriesNumber = seriesNumber
        self.publisher = publisher
        self.pages = pages
        self.format = format
        self.dateRead = dateRead
        self.readCount = readCount
        self.review = review
    }

    /// Whether the edit changes nothing.
    public var isEmpty: Bool { self == BookEdit() }

    /// The edit with every field checked (``BookInput``), so that a bad value is refused
    /// before the catalogue is opened.
    ///
    /// - Throws: `CatalogInputError` naming the first bad field.
    public func checked() throws -> Checked {
        func optional<T>(_ text: String?, _ parse: (String) throws -> T) rethrows -> T?? {
            guard let text else { return nil }
            return text.isEmpty ? .some(nil) : .some(try parse(text))
        }
        return Checked(
            title: try title.map { try BookInput.title($0) },
            authors: authors.isEmpty ? nil : try BookInput.authors(authors, field: "author"),
            date: try optional(date) { try BookInput.publication($0) },
            price: try optional(price) { try BookInput.price($0) },
            color: try optional(color) { try Color(hex: $0) },
            isbn: try optional(isbn) { try BookInput.isbn($0) },
            rating: try optional(rating) { try BookInput.rating($0) },
            status: try optional(status) { try BookInput.status($0) },
            notes: try notes.map { try BookInput.notes($0) },
            tags: try tags.map(BookInput.tagChange),
            series: try optional(series) { try BookInput.series($0) },
            seriesNumber: try optional(seriesNumber) { try BookInput.seriesNumber($0, field: "series-number") },
            publisher: try optional(publisher) { try BookInput.publisher($0) },
            pages: try optional(pages) { try BookInput.pages($0) },
            format: try optional(format) { try BookInput.format($0) },
            dateRead: try optional(dateRead) { try BookInput.dateRead($0, field: "read") },
            readCount: try optional(readCount) { try BookInput.readCount($0, field: "read-count") },
            review: try review.map { try BookInput.review($0) })
    }

    /// An edit whose values passed their checks: nil leaves a field, `.some(nil)` removes
    /// an optional value.
    public struct Checked: Sendable {
        var title: String?
        var authors: [String]?
        var date: (day: Date, precision: DatePrecision)??
        var price: Decimal??
        var color: Color??
        var isbn: String??
        var rating: Int16??
        var status: ReadingStatus??
        var notes: String??
        var tags: [(add: Bool, name: String)]
        var series: String??
        var seriesNumber: Decimal??
        var publisher: String??
        var pages: Int32??
        var format: String??
        var dateRead: Date??
        var readCount: Int16??
        var review: String??
    }
}

/// An edit refused because another process (or context) saved the same book after this
/// one read it: nothing of the edit was saved, and the other change is kept.
public struct BookEditConflictError: Error, CustomStringConvertible {
    /// The book's UUID.
    public var uuid: UUID

    /// One line that names the book and says that nothing was saved.
    public var description: String {
        "The book \(uuid.uuidString) was changed by another process while this edit was made; "
            + "nothing was saved (run the edit again to apply it to the new version)."
    }
}

extension BookInput {
    /// A publication date as far as it is known: `YYYY-MM-DD` (a day), `YYYY-MM` (a month)
    /// or `YYYY` (a year), stored as the first day of the month or year.
    public static func publication(_ text: String, field: String = "date") throws -> (day: Date, precision: DatePrecision) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1 where text.count == 4: return (try day(text + "-01-01", field: field, typed: text), .year)
        case 2 where text.count == 7: return (try day(text + "-01", field: field, typed: text), .month)
        default: return (try day(text, field: field), .day)
        }
    }

    /// `day(_:field:)` of a completed text, naming in errors the text as typed.
    private static func day(_ completed: String, field: String, typed: String) throws -> Date {
        do { return try day(completed, field: field) } catch var error as CatalogInputError {
            error.value = typed
            throw error
        }
    }
}
