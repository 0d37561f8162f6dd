import Foundation
import Persistence

/// One book of a seed file, checked: every field parsed strictly.
public struct SeedBook: Sendable, Hashable {
    /// The book's fixed UUID.
    public var uuid: UUID
    /// The title.
    public var title: String
    /// The author's name.
    public var author: String
    /// The first publication day, midnight UTC.
    public var publishDate: Date
    /// The price, exact.
    public var price: Decimal
    /// The color, if given.
    public var color: Color?
    /// How much of `publishDate` is known (`day` unless the entry says otherwise).
    public var datePrecision: DatePrecision
    /// The original language, a BCP 47 tag such as "es" or "pt-BR", if given.
    public var language: String?

    /// A book with every field given; the precision is the day's and the language unknown
    /// unless told.
    public init(
        uuid: UUID, title: String, author: String, publishDate: Date, price: Decimal, color: Color?,
        datePrecision: DatePrecision = .day, language: String? = nil
    ) {
        self.uuid = uuid
        self.title = title
        self.author = author
        self.publishDate = publishDate
        self.price = price
        self.color = color
        self.datePrecision = datePrecision
        self.language = language
    }

    /// Reads a whole seed file held in memory: a JSON array of objects with `uuid`, `title`,
    /// `author`, `publishDate` (YYYY-MM-DD), `price` (a decimal string such as "12.99") and
    /// optional `color` (#RRGGBB), `datePrecision` (day, month or year) and `language` (a BCP
    /// 47 tag), any of them null for none. A non-null `isbn`, `dateAdded`, `rating`,
    /// `status`, `tags` or `notes` (which `books import` reads) is refused; other keys are
    /// ignored.
    /// Large files are read as a stream instead, by ``SeedFile``.
    ///
    /// - Throws: `CatalogInputError` naming the file, the entry and the field, for
    ///   malformed JSON, a malformed value, or a UUID an earlier entry already has (the
    ///   file would otherwise say two things about one book, and which one won would
    ///   depend on how the seed is batched).
    public static func decode(_ data: Data, file: String = "books.json") throws -> [SeedBook] {
        var offset = 0
        var reader = SeedEntryReader(file: file, checksDuplicates: true) { buffer in
            let count = min(buffer.count, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
            offset += count
            return count
        }
        var books: [SeedBook] = []
        while let book = try reader.next() { books.append(book) }
        return books
    }

}

extension SeedBook {
    /// Reads one entry of a seed file; `place` names it in errors ("books.json entry 12").
    ///
    /// - Throws: `CatalogInputError` naming the place and the field.
    init(entry: JSONValue, place: String) throws {
        guard case .object(let members) = entry else {
            throw CatalogInputError(field: place, value: entry.shortDescription, reason: "expected an object")
        }
        var fields: [String: JSONValue] = [:]
        for (key, value) in members where Self.importOnlyKeys.contains(key) {
            if case .null = value { continue }
            if case .array(let elements) = value, elements.isEmpty { continue }
            throw CatalogInputError(
                field: "\(place): \(key)", value: value.shortDescription,
                reason: "a seed loads only uuid, title, author, publishDate, price, color, datePrecision and language; "
                    + "load this file with books import to keep its \(key)")
        }
        // What `books export` writes for a book without a color, precision or language.
        for (key, value) in members where Self.keys.contains(key) {
            if case .null = value, !["uuid", "title", "author", "publishDate", "price"].contains(key) { continue }
            guard fields.updateValue(value, forKey: key) == nil else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription,
                    reason: "the key appears twice in the entry")
            }
        }
        func string(_ key: String) throws -> String {
            guard let value = fields[key] else {
                throw CatalogInputError(field: "\(place): \(key)", value: "", reason: "the key is missing")
            }
            guard case .string(let text) = value else {
                throw CatalogInputError(field: "\(place): \(key)", value: value.shortDescription, reason: "expected a string")
            }
            return text
        }
        let uuidText = try string("uuid")
        guard let uuid = UUIDText.parse(uuidText) else {
            throw CatalogInputError(field: "\(place): uuid", value: uuidText, reason: "expected a UUID")
        }
        let color = try fields["color"].map { value -> Color in
            guard case .string(let text) = value else {
                throw CatalogInputError(field: "\(place): color", value: value.shortDescription, reason: "expected #RRGGBB")
            }
            do { return try Color(hex: text) } catch var error as CatalogInputError {
                error.field = "\(place): color"
                throw error
            }
        }
        self.init(
            uuid: uuid,
            title: try BookInput.title(try string("title"), field: "\(place): title"),
            author: try BookInput.author(try string("author"), field: "\(place): author"),
            publishDate: try BookInput.day(try string("publishDate"), field: "\(place): publishDate"),
            price: try BookInput.price(try string("price"), field: "\(place): price"),
            color: color,
            datePrecision: try fields["datePrecision"] == nil
                ? .day : BookInput.datePrecision(try string("datePrecision"), field: "\(place): datePrecision"),
            language: try fields["language"] == nil
                ? nil : BookInput.language(try string("language"), field: "\(place): language"))
    }

    /// The keys an entry is read from; others are ignored.
    private static let keys: Set<String> = [
        "uuid", "title", "author", "publishDate", "price", "color", "datePrecision", "language",
    ]

    /// The keys of version 2 that `books export` writes and only `books import` reads: an
    /// entry that gives one is refused, rather than seeded without it.
    private static let importOnlyKeys: Set<String> = ["isbn", "dateAdded", "rating", "status", "tags", "notes"]
}
