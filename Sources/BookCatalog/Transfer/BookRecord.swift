import Foundation
import Persistence

/// Everything the catalogue says about one book, as `books export` writes it and `books
/// import` reads it: one object of a JSON file, one row of a CSV file.
///
/// A record read from a file also says which fields the file gives (``provided``): a book
/// already in the catalogue is updated in those fields only, so that a CSV of titles and
/// ratings leaves the prices alone.
public struct BookRecord: Sendable, Equatable {
    /// The book's UUID; nil for a book the file does not identify (a new one, unless its
    /// ISBN finds it).
    public var uuid: UUID?
    /// The title.
    public var title: String
    /// The authors' names, first author first (at least one).
    public var authors: [String]
    /// The publication date, midnight UTC of its first day; nil when unknown.
    public var publishDate: Date?
    /// How much of the date is known (`.day` when there is no date).
    public var datePrecision: DatePrecision
    /// The price; nil when unknown.
    public var price: Decimal?
    /// The cover color.
    public var color: Color?
    /// The ISBN-13.
    public var isbn: String?
    /// The original language, a BCP 47 tag.
    public var language: String?
    /// When the book joined the catalogue.
    public var dateAdded: Date?
    /// The reader's rating, 0 to 5.
    public var rating: Int16?
    /// Where the reader is with it.
    public var status: ReadingStatus?
    /// The names of its tags, in ``BookInput/tagOrder(_:_:)``.
    public var tags: [String]
    /// The reader's notes.
    public var notes: String?
    /// The series the book belongs to.
    public var series: String?
    /// Its number in the series: 1, 2.5.
    public var seriesNumber: Decimal?
    /// The publisher.
    public var publisher: String?
    /// The number of pages.
    public var pages: Int32?
    /// The binding or edition format: "Paperback", "Kindle Edition".
    public var format: String?
    /// The day the reader last finished it, midnight UTC.
    public var dateRead: Date?
    /// How many times the reader has read it.
    public var readCount: Int16?
    /// The reader's review.
    public var review: String?
    /// The fields the file gives; every field for a record read from a book.
    public var provided: Set<BookField>

    /// A record of the given values, every field provided.
    public init(
        uuid: UUID?, title: String, authors: [String], publishDate: Date?, datePrecision: DatePrecision = .day,
        price: Decimal? = nil, color: Color? = nil, isbn: String? = nil, language: String? = nil,
        dateAdded: Date? = nil, rating: Int16? = nil, status: ReadingStatus? = nil, tags: [String] = [],
        notes: String? = nil, series: String? = nil, seriesNumber: Decimal? = nil, publisher: String? = nil,
        pages: Int32? = nil, format: String? = nil, dateRead: Date? = nil, readCount: Int16? = nil,
        review: String? = nil
    ) {
        self.uuid = uuid
        self.title = title
        self.authors = authors
        self.publishDate = publishDate
        self.datePrecision = datePrecision
        self.price = price
        self.color = color
        self.isbn = isbn
        self.language = language
        self.dateAdded = dateAdded
        self.rating = rating
        self.status = status
        self.tags = tags
        self.notes = notes
        self.series = series
        self.seriesNumber = seriesNumber
        self.publisher = publisher
        self.pages = pages
        self.format = format
        self.dateRead = dateRead
        self.readCount = readCount
        self.review = review
        provided = Set(BookField.allCases)
    }

    /// The first author's name: the one a listing by author sorts on.
    public var author: String { authors.first ?? "" }

    /// The record of a book in the catalogue, with its authors' names and its tags' names
    /// (its own unless given, in ``BookInput/tagOrder(_:_:)``).
    init(book: Book, authors: [String]? = nil, tags: [String]? = nil) {
        self.init(
            uuid: book.uuid, title: book.title, authors: authors ?? book.authorNames, publishDate: book.publishDate,
            datePrecision: DatePrecision(storedValue: book.datePrecision), price: book.price, color: book.color,
            isbn: book.isbn, language: book.language, dateAdded: book.dateAdded, rating: book.rating,
            status: book.status.flatMap(ReadingStatus.init(rawValue:)), tags: tags ?? book.tagNames,
            notes: book.notes, series: book.series, seriesNumber: book.seriesNumber, publisher: book.publisher,
            pages: book.pages, format: book.format, dateRead: book.dateRead, readCount: book.readCount,
            review: book.review)
    }
}

/// The fields of a ``BookRecord``: the keys of an exported JSON object and the columns of an
/// exported CSV file, in their order.
public enum BookField: String, Sendable, CaseIterable {
    /// The book's UUID, as `A9EF420F-038E-4072-AE51-5CF9E8D16E6A`.
    case uuid
    /// The title.
    case title
    /// The authors' names, first author first: an array of strings in JSON, one name a line
    /// in CSV (a name never holds a line break, and may hold commas and `&`). Files of
    /// earlier releases name one author, `author`, which is read as this field.
    case authors
    /// The publication date: `YYYY-MM-DD`, or `YYYY-MM` or `YYYY` when only that is known;
    /// empty when unknown.
    case publishDate
    /// `day`, `month` or `year`: how much of the date is known.
    case datePrecision
    /// A plain decimal number such as `12.99`; empty when unknown.
    case price
    /// `#RRGGBB`.
    case color
    /// An ISBN-10 or ISBN-13, written as ISBN-13.
    case isbn
    /// A BCP 47 tag such as `es` or `pt-BR`.
    case language
    /// An ISO 8601 time in UTC, or a day.
    case dateAdded
    /// 0 to 5.
    case rating
    /// `to-read`, `reading` or `read`.
    case status
    /// Tags' names: separated by commas in CSV, an array of strings in JSON.
    case tags
    /// Free text; line breaks allowed.
    case notes
    /// The series' name.
    case series
    /// A plain decimal number such as `1` or `2.5`.
    case seriesNumber
    /// The publisher's name.
    case publisher
    /// A whole number of pages, 1 to 100,000.
    case pages
    /// The binding: `Paperback`, `Kindle Edition`.
    case format
    /// The day last read, `YYYY-MM-DD`.
    case dateRead
    /// A whole number of readings, 0 to 10,000.
    case readCount
    /// Free text; line breaks allowed.
    case review

    /// The field a file's column or key names: its own name, or `author`, the one author of
    /// files written by releases before model version 3.
    public init?(fileName name: String) {
        if name == "author" {
            self = .authors
        } else {
            self.init(rawValue: name)
        }
    }

    /// The fields every book has: a file that lacks one cannot add books.
    static let required: [BookField] = [.title, .authors]
}

// MARK: - Text

extension BookRecord {
    /// A field as text, as both formats write it: empty for none; tags joined by ", ",
    /// authors one a line.
    public func text(of field: BookField) -> String {
        switch field {
        case .uuid: uuid?.uuidString ?? ""
        case .title: title
        case .authors: authors.joined(separator: "\n")
        case .publishDate: publishDate.map { DateText.formatDay($0, timeZone: Catalog.calendarTimeZone) } ?? ""
        case .datePrecision: publishDate == nil ? "" : datePrecision.rawValue
        case .price: price.map(Self.priceText) ?? ""
        case .color: color?.hex ?? ""
        case .isbn: isbn ?? ""
        case .language: language ?? ""
        case .dateAdded: dateAdded.map(DateText.formatISO8601) ?? ""
        case .rating: rating.map { String($0) } ?? ""
        case .status: status?.rawValue ?? ""
        case .tags: tags.joined(separator: ", ")
        case .notes: notes ?? ""
        case .series: series ?? ""
        case .seriesNumber: seriesNumber.map(DecimalText.format) ?? ""
        case .publisher: publisher ?? ""
        case .pages: pages.map { String($0) } ?? ""
        case .format: format ?? ""
        case .dateRead: dateRead.map { DateText.formatDay($0, timeZone: Catalog.calendarTimeZone) } ?? ""
        case .readCount: readCount.map { String($0) } ?? ""
        case .review: review ?? ""
        }
    }

    /// A price as exact plain text with at least two fractional digits: "39.60", "0.00",
    /// "12.345" (never through `Double`, never rounded).
    public static func priceText(_ price: Decimal) -> String {
        let text = DecimalText.format(price)
        guard let dot = text.firstIndex(of: ".") else { return text + ".00" }
        let fraction = text.distance(from: dot, to: text.endIndex) - 1
        return fraction >= 2 ? text : text + String(repeating: "0", count: 2 - fraction)
    }

    /// Reads a record from text fields, every one checked as `books add` and `books edit`
    /// check them. A field `text` lacks is not provided; an empty text is none (for the
    /// title and authors, which every book has, an error).
    ///
    /// - Parameters:
    ///   - text: the fields, tags and authors aside.
    ///   - authors: the authors' names as given, when the file gives them.
    ///   - tags: the tags' names as given, when the file gives tags.
    ///   - place: where the record is, for messages ("books.csv row 3").
    ///   - names: the name of each field in the file, when it is not the field's own
    ///     (Goodreads' "ISBN13"), for messages.
    /// - Throws: `CatalogInputError` naming the place and the field.
    init(
        text: [BookField: String], authors: [String]?, tags: [String]?, place: String,
        names: [BookField: String] = [:]
    ) throws {
        func name(_ field: BookField) -> String { "\(place): \(names[field] ?? field.rawValue)" }
        func value(_ field: BookField) -> String? {
            guard let text = text[field]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        func checked<T>(_ field: BookField, _ parse: (String, String) throws -> T) throws -> T? {
            try value(field).map { try parse($0, name(field)) }
        }
        guard let title = text[.title] else {
            throw CatalogInputError(field: name(.title), value: "", reason: "the field is missing")
        }
        guard let authors else {
            throw CatalogInputError(field: name(.authors), value: "", reason: "the field is missing")
        }
        let uuid = try checked(.uuid) { text, field in
            guard let uuid = UUIDText.parse(text) else {
                throw CatalogInputError(field: field, value: text, reason: "expected a UUID")
            }
            return uuid
        }
        let published = try checked(.publishDate, BookInput.publication)
        let precision = published == nil ? nil : try checked(.datePrecision, BookInput.datePrecision)
        self.init(
            uuid: uuid,
            title: try BookInput.title(title, field: name(.title)),
            authors: try BookInput.authors(authors, field: name(.authors)),
            publishDate: published?.day, datePrecision: precision ?? published?.precision ?? .day,
            price: try checked(.price, BookInput.price),
            color: try checked(.color) { text, field in
                do { return try Color(hex: text) } catch var error as CatalogInputError {
                    error.field = field
                    throw error
                }
            },
            isbn: try checked(.isbn, BookInput.isbn),
            language: try checked(.language, BookInput.language),
            dateAdded: try checked(.dateAdded, BookInput.dateAdded),
            rating: try checked(.rating, BookInput.rating),
            status: try checked(.status, BookInput.status),
            tags: try BookInput.tags(tags ?? [], field: name(.tags)),
            notes: try text[.notes].flatMap { try BookInput.notes($0, field: name(.notes)) },
            series: try checked(.series, BookInput.series),
            seriesNumber: try checked(.seriesNumber, BookInput.seriesNumber),
            publisher: try checked(.publisher, BookInput.publisher),
            pages: try checked(.pages, BookInput.pages),
            format: try checked(.format, BookInput.format),
            dateRead: try checked(.dateRead, BookInput.dateRead),
            readCount: try checked(.readCount, BookInput.readCount),
            review: try text[.review].flatMap { try BookInput.review($0, field: name(.review)) })
        provided = Set(text.keys).union([.title, .authors])
        // The date's precision always follows from the date, given or not.
        if provided.contains(.publishDate) { provided.insert(.datePrecision) }
        if tags != nil { provided.insert(.tags) }
    }
}
