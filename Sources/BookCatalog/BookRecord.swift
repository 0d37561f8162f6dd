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
    /// The author's name.
    public var author: String
    /// The publication date, midnight UTC of its first day.
    public var publishDate: Date
    /// How much of the date is known.
    public var datePrecision: DatePrecision
    /// The price.
    public var price: Decimal
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
    /// The fields the file gives; every field for a record read from a book.
    public var provided: Set<BookField>

    /// A record of the given values, every field provided.
    public init(
        uuid: UUID?, title: String, author: String, publishDate: Date, datePrecision: DatePrecision = .day,
        price: Decimal = 0, color: Color? = nil, isbn: String? = nil, language: String? = nil,
        dateAdded: Date? = nil, rating: Int16? = nil, status: ReadingStatus? = nil, tags: [String] = [],
        notes: String? = nil
    ) {
        self.uuid = uuid
        self.title = title
        self.author = author
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
        provided = Set(BookField.allCases)
    }

    /// The record of a book in the catalogue, with its author's name and its tags' names
    /// (its own unless given, in ``BookInput/tagOrder(_:_:)``).
    init(book: Book, author: String, tags: [String]? = nil) {
        self.init(
            uuid: book.uuid, title: book.title, author: author, publishDate: book.publishDate,
            datePrecision: DatePrecision(storedValue: book.datePrecision), price: book.price, color: book.color,
            isbn: book.isbn, language: book.language, dateAdded: book.dateAdded, rating: book.rating,
            status: book.status.flatMap(ReadingStatus.init(rawValue:)), tags: tags ?? book.tagNames,
            notes: book.notes)
    }
}

/// The fields of a ``BookRecord``: the keys of an exported JSON object and the columns of an
/// exported CSV file, in their order.
public enum BookField: String, Sendable, CaseIterable {
    /// The book's UUID, as `A9EF420F-038E-4072-AE51-5CF9E8D16E6A`.
    case uuid
    /// The title.
    case title
    /// The author's name.
    case author
    /// The publication date: `YYYY-MM-DD`, or `YYYY-MM` or `YYYY` when only that is known.
    case publishDate
    /// `day`, `month` or `year`: how much of the date is known.
    case datePrecision
    /// A plain decimal number such as `12.99`.
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
}

// MARK: - Text

extension BookRecord {
    /// A field as text, as both formats write it: empty for none; tags joined by ", ".
    public func text(of field: BookField) -> String {
        switch field {
        case .uuid: uuid?.uuidString ?? ""
        case .title: title
        case .author: author
        case .publishDate: DateText.formatDay(publishDate, timeZone: Catalog.calendarTimeZone)
        case .datePrecision: datePrecision.rawValue
        case .price: Self.priceText(price)
        case .color: color?.hex ?? ""
        case .isbn: isbn ?? ""
        case .language: language ?? ""
        case .dateAdded: dateAdded.map(DateText.formatISO8601) ?? ""
        case .rating: rating.map { String($0) } ?? ""
        case .status: status?.rawValue ?? ""
        case .tags: tags.joined(separator: ", ")
        case .notes: notes ?? ""
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
    /// check them. A field `text` lacks is not provided; an empty text is none.
    ///
    /// - Parameters:
    ///   - text: the fields, tags aside.
    ///   - tags: the tags' names as given, when the file gives tags.
    ///   - place: where the record is, for messages ("books.csv row 3").
    ///   - names: the name of each field in the file, when it is not the field's own
    ///     (Goodreads' "ISBN13"), for messages.
    /// - Throws: `CatalogInputError` naming the place and the field.
    init(
        text: [BookField: String], tags: [String]?, place: String, names: [BookField: String] = [:]
    ) throws {
        func name(_ field: BookField) -> String { "\(place): \(names[field] ?? field.rawValue)" }
        func value(_ field: BookField) -> String? {
            guard let text = text[field], !text.isEmpty else { return nil }
            return text
        }
        func required(_ field: BookField) throws -> String {
            guard let text = text[field] else {
                throw CatalogInputError(field: name(field), value: "", reason: "the field is missing")
            }
            return text
        }
        let uuid = try value(.uuid).map { text in
            guard let uuid = UUIDText.parse(text) else {
                throw CatalogInputError(field: name(.uuid), value: text, reason: "expected a UUID")
            }
            return uuid
        }
        let (day, published) = try BookInput.publication(try required(.publishDate), field: name(.publishDate))
        let precision = try value(.datePrecision).map { try BookInput.datePrecision($0, field: name(.datePrecision)) } ?? published
        self.init(
            uuid: uuid,
            title: try BookInput.title(try required(.title), field: name(.title)),
            author: try BookInput.author(try required(.author), field: name(.author)),
            publishDate: day, datePrecision: precision,
            price: try value(.price).map { try BookInput.price($0, field: name(.price)) } ?? 0,
            color: try value(.color).map { text in
                do { return try Color(hex: text) } catch var error as CatalogInputError {
                    error.field = name(.color)
                    throw error
                }
            },
            isbn: try value(.isbn).map { try BookInput.isbn($0, field: name(.isbn)) },
            language: try value(.language).map { try BookInput.language($0, field: name(.language)) },
            dateAdded: try value(.dateAdded).map { try BookInput.dateAdded($0, field: name(.dateAdded)) },
            rating: try value(.rating).map { try BookInput.rating($0, field: name(.rating)) },
            status: try value(.status).map { try BookInput.status($0, field: name(.status)) },
            tags: try BookInput.tags(tags ?? [], field: name(.tags)),
            notes: try value(.notes).flatMap { try BookInput.notes($0, field: name(.notes)) })
        // The date's precision always follows from the date, given or not.
        provided = Set(text.keys).union([.title, .author, .publishDate, .datePrecision])
        if tags != nil { provided.insert(.tags) }
    }
}
