import Foundation
import Persistence

/// The JSON that `calibredb list --for-machine --fields all` writes: an array of one object
/// a book, keys sorted, a key left out when its value is none. Recognised by calibre's own
/// keys (`id`, `author_sort`, `timestamp`, `pubdate`, `series_index`, …), which the
/// catalogue's JSON never has.
///
/// How an object becomes a book:
/// - `title`; `authors`, calibre's " & "-joined text (an `&` in a name doubled), or an
///   array of names.
/// - `uuid` is the book's UUID, the same at every import, so that importing a newer export
///   updates the books of the earlier one; an object without one gets a UUID of its `id`.
/// - `series`, and `series_index` only with a series (calibre gives every book an index, 1
///   when it is in no series).
/// - `pubdate` (`2008-09-18T04:00:00+00:00`) is the publication day as written; calibre's
///   placeholder for an unknown date (year 101, `0101-01-01`) and `None` are unknown.
/// - `timestamp`, when the book was added to calibre, is the date added.
/// - `isbn`, else `identifiers.isbn`.
/// - `languages` (ISO 639-2 codes): the first, as BCP 47 (`eng` is `en`, `haw` stays).
/// - `rating`, calibre's 0 to 10, is the stars (a half star rounds up; 0 is unrated).
/// - `tags`, `publisher`; `comments` (HTML) as text is the review; `formats` (the files'
///   paths) give the format (`EPUB, PDF`).
/// - Custom columns `*pages` and `*date_read`, when the library has them, give the pages
///   and the day read; every other key (`cover`, `size`, `last_modified`, `author_sort`,
///   other custom columns) is read past.
enum CalibreJSON {
    /// Whether `entry`, the first of a file, is an object of calibre's.
    static func recognises(_ entry: JSONValue) -> Bool {
        guard case .object(let members) = entry else { return false }
        return members.contains { calibreOnlyKeys.contains($0.0) }
    }

    /// The book of one object.
    ///
    /// - Throws: `CatalogInputError` naming the place and calibre's key.
    static func record(_ entry: JSONValue, place: String) throws -> BookRecord {
        guard case .object(let members) = entry else {
            throw CatalogInputError(field: place, value: entry.shortDescription, reason: "expected an object")
        }
        var values: [String: JSONValue] = [:]
        for (key, value) in members {
            guard values.updateValue(value, forKey: key) == nil else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription, reason: "the key appears twice in the entry")
            }
        }
        func field(_ key: String) -> String { "\(place): \(key)" }
        /// A string value (a number as its text); empty for none or null.
        func string(_ key: String) throws -> String {
            switch values[key] {
            case nil, .null?: return ""
            case .string(let text)?: return text
            case .number(let text)?: return text
            case let value?:
                throw CatalogInputError(field: field(key), value: value.shortDescription, reason: "expected a string")
            }
        }
        /// An array of strings, or one string split by `separator`; empty for none.
        func strings(_ key: String, separator: Character = ",") throws -> [String] {
            switch values[key] {
            case nil, .null?: return []
            case .string(let text)?: return text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }
            case .array(let elements)?:
                return try elements.map { element in
                    guard case .string(let text) = element else {
                        throw CatalogInputError(
                            field: field(key), value: element.shortDescription, reason: "expected an array of strings")
                    }
                    return text
                }
            case let value?:
                throw CatalogInputError(field: field(key), value: value.shortDescription, reason: "expected an array of strings")
            }
        }

        var text: [BookField: String] = [:]
        var names: [BookField: String] = [:]
        func set(_ bookField: BookField, _ key: String, _ value: String) {
            text[bookField] = value
            names[bookField] = key
        }
        guard values["title"] != nil else {
            throw CatalogInputError(field: field("title"), value: "", reason: "the field is missing")
        }
        set(.title, "title", try string("title"))
        let authors: [String]
        if case .array = values["authors"] {
            authors = try strings("authors")
        } else {
            authors = CalibreValues.authors(try string("authors"))
        }
        names[.authors] = "authors"
        var uuid = try string("uuid")
        if uuid.isEmpty {
            let byline = authors.joined(separator: " & ")
            uuid = CalibreValues.uuid(id: try string("id"), title: text[.title] ?? "", authors: byline).uuidString
        }
        set(.uuid, values["uuid"] == nil ? "id" : "uuid", uuid)
        let series = try string("series")
        set(.series, "series", series)
        let inSeries = !series.trimmingCharacters(in: .whitespaces).isEmpty
        set(.seriesNumber, "series_index", inSeries ? try string("series_index") : "")
        set(.publishDate, "pubdate", try CalibreValues.publicationDay(try string("pubdate"), field: field("pubdate")))
        set(.dateAdded, "timestamp", try CalibreValues.instant(try string("timestamp"), field: field("timestamp")))
        var isbn = try string("isbn")
        if isbn.isEmpty, case .object(let identifiers)? = values["identifiers"],
            case .string(let fromIdentifiers)? = identifiers.first(where: { $0.0 == "isbn" })?.1
        {
            isbn = fromIdentifiers
            names[.isbn] = "identifiers.isbn"
        }
        text[.isbn] = isbn
        names[.isbn] = names[.isbn] ?? "isbn"
        set(.language, "languages", try CalibreValues.language(try strings("languages"), field: field("languages")))
        set(.rating, "rating", try CalibreValues.rating(try string("rating"), field: field("rating"), scale: .tenths))
        set(.publisher, "publisher", try string("publisher"))
        set(.review, "comments", CalibreValues.commentsText(try string("comments")))
        set(.format, "formats", CalibreValues.formats(try strings("formats")))
        for key in values.keys.sorted() {
            switch CalibreValues.customField(key) {
            case .pages?:
                let pages = try string(key)
                set(.pages, key, pages == "0" ? "" : pages)
            case .dateRead?:
                set(.dateRead, key, try CalibreValues.day(try string(key), field: field(key)) ?? "")
            default:
                break
            }
        }
        names[.tags] = "tags"
        let tags = try strings("tags").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return try BookRecord(text: text, authors: authors, tags: tags, place: place, names: names)
    }

    /// Keys calibre writes that the catalogue's own JSON has no field for.
    private static let calibreOnlyKeys: Set<String> = [
        "id", "author_sort", "timestamp", "pubdate", "series_index", "last_modified", "identifiers", "formats",
        "cover", "size", "languages", "comments",
    ]
}
