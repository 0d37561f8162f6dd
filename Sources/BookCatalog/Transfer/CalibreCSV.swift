import Foundation
import Persistence

/// The CSV catalogue calibre writes (`calibredb catalog books.csv`, or Convert books →
/// Create a catalog → CSV): a UTF-8 byte order mark, a header of calibre's field names in
/// alphabetical order (`author_sort`, `authors`, `comments`, `cover`, `formats`, `id`,
/// `identifiers`, `isbn`, `languages`, `library_name`, `pubdate`, `publisher`, `rating`,
/// `series`, `series_index`, `size`, `tags`, `timestamp`, `title`, `title_sort`, `uuid`,
/// then custom columns as `#name`), every cell quoted. Recognised by a header with `title`
/// and `authors` and one of calibre's own names (`author_sort`, `title_sort`, `uuid` with
/// `id`, `pubdate`, `timestamp`, `series_index`, `library_name`…), which the catalogue's
/// CSV never has. Any subset of the columns (`--fields`) may be there.
///
/// The values are as ``CalibreJSON`` reads them, in the catalogue's text:
/// - `authors` " & "-joined (an `&` in a name doubled); `tags` and `formats` (extensions,
///   `epub, pdf`) comma-joined; `languages` comma-joined ISO 639-2 codes (`eng,fra`).
/// - `pubdate` and `timestamp` ISO 8601 in the exporting computer's time zone
///   (`2008-09-18T14:00:00+02:00`), the publication day read as written; calibre's year
///   101 placeholder is unknown.
/// - `rating` in stars, halves as `3.5` (a half star rounds up; 0 is unrated).
/// - `comments` already as text (calibre turns its HTML into Markdown on one line), or
///   HTML where calibre left it (then as text).
/// - `uuid`, or without it a UUID of `id`; `isbn` (digits, maybe hyphens), else
///   `identifiers`' `isbn:…`.
enum CalibreCSV {
    /// Whether `header` is a calibre catalogue's.
    static func recognises(_ header: [String]) -> Bool {
        let names = Set(header)
        return names.contains("title") && names.contains("authors")
            && (!names.isDisjoint(with: calibreOnlyColumns) || (names.contains("id") && names.contains("uuid")))
    }

    /// The book of one row, with `columns` the header's names.
    ///
    /// - Throws: `CatalogInputError` naming the row and calibre's column.
    static func record(_ row: CSVReader.Record, columns: [String], file: String) throws -> BookRecord {
        let place = "\(file) row \(row.row)"
        let cells = try row.cells(named: columns, place: place)
        func cell(_ column: String) -> String { (cells[column] ?? "").trimmingCharacters(in: .whitespaces) }
        func field(_ column: String) -> String { "\(place): \(column)" }

        var text: [BookField: String] = [:]
        var names: [BookField: String] = [:]
        func take(_ bookField: BookField, _ column: String, _ value: @autoclosure () throws -> String) rethrows {
            guard cells[column] != nil else { return }
            text[bookField] = try value()
            names[bookField] = column
        }
        take(.title, "title", cell("title"))
        let authors = CalibreValues.authors(cell("authors"))
        names[.authors] = "authors"
        if cells["uuid"] != nil, !cell("uuid").isEmpty {
            take(.uuid, "uuid", cell("uuid"))
        } else {
            text[.uuid] = CalibreValues.uuid(id: cell("id"), title: cell("title"), authors: cell("authors")).uuidString
            names[.uuid] = "id"
        }
        take(.series, "series", cell("series"))
        if !cell("series").isEmpty { take(.seriesNumber, "series_index", cell("series_index")) }
        try take(.publishDate, "pubdate", CalibreValues.publicationDay(cell("pubdate"), field: field("pubdate")))
        try take(.dateAdded, "timestamp", CalibreValues.instant(cell("timestamp"), field: field("timestamp")))
        take(.isbn, "isbn", cell("isbn"))
        if cell("isbn").isEmpty, cells["identifiers"] != nil {
            let isbn = cell("identifiers").split(separator: ",").lazy
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.lowercased().hasPrefix("isbn:") }
            if let isbn {
                text[.isbn] = String(isbn.dropFirst(5))
                names[.isbn] = "identifiers"
            }
        }
        try take(.language, "languages", CalibreValues.language(
            cell("languages").split(separator: ",").map(String.init), field: field("languages")))
        try take(.rating, "rating", CalibreValues.rating(cell("rating"), field: field("rating"), scale: .halfStars))
        take(.publisher, "publisher", cell("publisher"))
        take(.review, "comments", CalibreValues.commentsText(cells["comments"] ?? ""))
        take(.format, "formats", CalibreValues.formats(cell("formats").split(separator: ",").map(String.init)))
        for column in columns {
            switch CalibreValues.customField(column) {
            case .pages?:
                let pages = cell(column)
                take(.pages, column, pages == "0" ? "" : pages.hasSuffix(".0") ? String(pages.dropLast(2)) : pages)
            case .dateRead?:
                try take(.dateRead, column, CalibreValues.day(cell(column), field: field(column)) ?? "")
            default:
                break
            }
        }
        var tags: [String]?
        if cells["tags"] != nil {
            tags = cell("tags").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            names[.tags] = "tags"
        }
        return try BookRecord(text: text, authors: authors, tags: tags, place: place, names: names)
    }

    /// Columns calibre writes that the catalogue's own CSV has no field for.
    private static let calibreOnlyColumns: Set<String> = [
        "author_sort", "title_sort", "pubdate", "timestamp", "series_index", "identifiers", "formats", "cover",
        "size", "languages", "comments", "library_name", "ondevice",
    ]
}
