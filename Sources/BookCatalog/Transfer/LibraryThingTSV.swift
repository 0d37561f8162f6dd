import Foundation
import Persistence

/// The export LibraryThing writes (More → Import/Export → Export: "Tab-delimited" or
/// "CSV"), recognised by its header: `Book Id`, `Title`, `Sort Character`, `Primary
/// Author`, `Primary Author Role`, `Secondary Author`, `Secondary Author Roles`,
/// `Publication`, `Date`, `Review`, `Rating`, `Comment`, `Private Comment`, `Summary`,
/// `Media`, … `Page Count`, … `Date Started`, `Date Read`, … `Tags`, `Collections`,
/// `Languages`, `Original Languages`, … `ISBN`, `ISBNs`, … `Entry Date`, … (54 columns;
/// those the catalogue has no place for, such as `Dewey Decimal` or `Lending Patron`, are
/// read past). Only `Book Id`, `Title` and `Primary Author` are required: a column missing,
/// or a cell left blank, is a value LibraryThing does not know, never an error.
///
/// The tab-delimited file (UTF-8, or UTF-16 with a byte order mark) has one book a line,
/// fields separated by tabs and never quoted (LibraryThing writes a line break inside a
/// field as `[Return]`); the CSV file has the same columns, quoted as CSV is.
///
/// How a row becomes a book:
/// - `Title`; `Primary Author`, then each `Secondary Author` (separated by `|`), are the
///   authors, written "Last, First" and turned to "First Last" ("Le Guin, Ursula K." is
///   "Ursula K. Le Guin"; "King, Martin Luther, Jr." is "Martin Luther King, Jr."; a name
///   without a comma, such as "Homer", as it is); a name given twice is kept once.
/// - `ISBN` (`[0156027607]`, in brackets), else the first of `ISBNs`.
/// - `Rating`, 0.5 to 5 in half stars, is the stars; a half star rounds up (as calibre's).
/// - `Date` is the publication date: a year (`1937`), or `YYYY-MM` or `YYYY-MM-DD`; `?`
///   is unknown.
/// - `Publication` ("Mariner Books (2003), Edition: 1st, Paperback, 304 pages") gives the
///   publisher: the text before its first " (" or, without one, its first comma;
///   "Publisher Unknown" is unknown.
/// - `Media` is the format; `Page Count` the pages (0 or blank: unknown).
/// - `Date Read` (`2024-03-01`) is the day read, `Entry Date` (a day, or a day and a time
///   taken as UTC) when the book was added.
/// - The status: read with a `Date Read` or in the collection "Read but unowned"; reading in
///   "Currently reading" or with a `Date Started` only; to-read in "To read".
/// - `Tags` (comma-separated), and the `Collections` other than those and "Your library",
///   are the tags.
/// - `Review` is the review, `Comment` and `Private Comment` the notes (`[Return]` and
///   HTML line breaks as line breaks).
/// - `Original Languages`, else `Languages` (English names, comma-separated: the first) is
///   the language, as BCP 47 ("English" is `en`).
/// - `Book Id` gives the book a UUID of its own (a hash of the ID, as ``GoodreadsCSV``'s),
///   the same at every import, so that importing a newer export updates the books of the
///   earlier one. Series and price are unknown.
///
/// The CSV LibraryThing exported before (header `'TITLE'`, `'AUTHOR (last, first)'`,
/// `'PUBLICATION INFO'`, `'RATINGS'`, `'ENTRY DATE'`…, no Book Id) is read the same way,
/// each column as today's of the same meaning (``currentName(_:)``); its books get UUIDs of
/// their title and author.
enum LibraryThingTSV {
    /// Whether `header` is a LibraryThing export's.
    static func recognises(_ header: [String]) -> Bool {
        ["Book Id", "Title", "Primary Author"].allSatisfy(header.contains)
            || ["TITLE", "AUTHOR (last, first)", "ENTRY DATE"].allSatisfy(header.map(unquoted).contains)
    }

    /// The column of today's export that a column of the export LibraryThing wrote before
    /// 2020 names: its header is in capitals, each name in single quotes (`'TITLE'`,
    /// `'AUTHOR (last, first)'`, `'PUBLICATION INFO'`, `'RATINGS'`, `'ENTRY DATE'`…), and it
    /// has no Book Id (its books get UUIDs of their title and author).
    static func currentName(_ column: String) -> String {
        let name = unquoted(column)
        return legacyNames[name] ?? name
    }

    private static func unquoted(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("'"), trimmed.hasSuffix("'") else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }

    private static let legacyNames: [String: String] = [
        "TITLE": "Title", "AUTHOR (last, first)": "Primary Author", "DATE": "Date", "ISBNs": "ISBNs",
        "PUBLICATION INFO": "Publication", "COMMENT": "Comment", "RATINGS": "Rating", "REVIEWS": "Review",
        "ENTRY DATE": "Entry Date", "COPIES": "Copies", "SUBJECTS": "Subjects", "COLLECTIONS": "Collections",
        "TAGS": "Tags", "LCC": "LC Classification", "DDC": "Dewey Decimal",
    ]

    /// `data` as UTF-8: text that begins with a UTF-16 byte order mark (as spreadsheets save
    /// tab-delimited text, "Unicode Text") transcoded, anything else as it is.
    static func utf8(_ data: Data) -> Data {
        let littleEndian = data.starts(with: [0xFF, 0xFE])
        guard littleEndian || data.starts(with: [0xFE, 0xFF]),
            let text = String(data: data.dropFirst(2), encoding: littleEndian ? .utf16LittleEndian : .utf16BigEndian)
        else { return data }
        return Data(text.utf8)
    }

    /// The header of a tab-delimited LibraryThing export in `data` (after an optional
    /// UTF-8 byte order mark), or nil when its first line is not one.
    static func tabHeader(_ data: Data) -> [String]? {
        var bytes = data.prefix(8192)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        guard line.contains(0x09), let text = String(bytes: line, encoding: .utf8) else { return nil }
        let header = text.split(separator: "\t", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return recognises(header) ? header : nil
    }

    /// The lines of a tab-delimited file after its header, each with its line number (the
    /// header is 1) and its fields, nil for a line that is not UTF-8; blank lines are
    /// skipped but counted.
    static func tabRows(_ data: Data) -> [(row: Int, fields: [String]?)] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var rows: [(row: Int, fields: [String]?)] = []
        var row = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            row += 1
            let line = bytes[start..<end]
            if row > 1, !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                let text = String(validating: line, as: UTF8.self)
                rows.append((row, text?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)))
            }
            start = end
            if start < bytes.count, bytes[start] == 0x0D { start += 1 }
            if start < bytes.count, bytes[start] == 0x0A { start += 1 }
        }
        return rows
    }

    /// The book of one row, with `columns` the header's names.
    ///
    /// - Throws: `CatalogInputError` naming the row and LibraryThing's column.
    static func record(_ fields: [String]?, row: Int, columns: [String], file: String) throws -> BookRecord {
        let place = "\(file) row \(row)"
        guard let fields else { throw CatalogInputError(field: place, value: "…", reason: "the text is not UTF-8") }
        guard fields.count == columns.count else {
            throw CatalogInputError(
                field: place, value: fields.joined(separator: " | ").prefix(60) + "…",
                reason: "the row has \(fields.count) fields but the header has \(columns.count)")
        }
        var cells: [String: String] = [:]
        var fileNames: [String: String] = [:]  // today's column name → the file's
        for (column, value) in zip(columns, fields) {
            let name = currentName(column)
            if cells[name] == nil { (cells[name], fileNames[name]) = (value, column) }
        }
        func cell(_ column: String) -> String { (cells[column] ?? "").trimmingCharacters(in: .whitespaces) }
        func paragraphs(_ column: String) -> String {
            GoodreadsCSV.reviewText(cell(column).replacingOccurrences(of: "[Return]", with: "\n"))
        }

        var text: [BookField: String] = [:]
        var names: [BookField: String] = [:]
        func take(_ field: BookField, _ column: String, _ value: String? = nil) {
            guard cells[column] != nil else { return }
            text[field] = value ?? cell(column)
            names[field] = fileNames[column] ?? column
        }
        let id = cell("Book Id")
        let key = id.isEmpty
            ? "librarything title+author\u{0}\(cell("Title"))\u{0}\(cell("Primary Author"))" : "librarything\u{0}\(id)"
        text[.uuid] = GoodreadsCSV.uuid(forText: key).uuidString
        names[.uuid] = "Book Id"
        take(.title, "Title")
        var authors = [firstLast(cell("Primary Author"))]
        for name in cell("Secondary Author").split(separator: "|") {
            let name = firstLast(name.trimmingCharacters(in: .whitespaces))
            if !name.isEmpty, !authors.contains(name) { authors.append(name) }
        }
        names[.authors] = cells["Secondary Author"] == nil ? "Primary Author" : "Primary Author/Secondary Author"
        let isbn = cell("ISBN").trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        if !isbn.isEmpty || cells["ISBNs"] == nil {
            take(.isbn, "ISBN", isbn.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
        } else {
            let first = cell("ISBNs").trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").first
            take(.isbn, "ISBNs", first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
        }
        if cells["Rating"] != nil {
            let field = "\(place): \(fileNames["Rating"] ?? "Rating")"
            let rating = cell("Rating")
            do {
                take(.rating, "Rating", try CalibreValues.rating(rating, field: field, scale: .halfStars))
            } catch {
                throw CatalogInputError(
                    field: field, value: rating, reason: "expected a rating from 0.5 to 5 stars in half stars, such as 3.5")
            }
        }
        // "?" is LibraryThing's unknown date, "Publisher Unknown" its unknown publisher.
        take(.publishDate, "Date", cell("Date") == "?" ? "" : cell("Date"))
        let publisher = publisher(cell("Publication"))
        take(.publisher, "Publication", publisher == "Publisher Unknown" ? "" : publisher)
        take(.format, "Media")
        let pages = cell("Page Count")
        take(.pages, "Page Count", pages == "0" ? "" : pages)
        take(.dateRead, "Date Read")
        take(.dateAdded, "Entry Date", entryDate(cell("Entry Date")))
        take(.review, "Review", paragraphs("Review"))
        if cells["Comment"] != nil || cells["Private Comment"] != nil {
            text[.notes] = [paragraphs("Comment"), paragraphs("Private Comment")].filter { !$0.isEmpty }
                .joined(separator: "\n\n")
            names[.notes] = cells["Private Comment"] == nil
                ? "Comment" : cells["Comment"] == nil ? "Private Comment" : "Comment/Private Comment"
        }
        let languageColumn = cell("Original Languages").isEmpty ? "Languages" : "Original Languages"
        if cells[languageColumn] != nil {
            let name = cell(languageColumn).split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard name.isEmpty || LanguageCodes.tag(forName: name) != nil else {
                throw CatalogInputError(
                    field: "\(place): \(languageColumn)", value: name,
                    reason: "expected a language's English name, such as English or French")
            }
            take(.language, languageColumn, name.isEmpty ? "" : LanguageCodes.tag(forName: name))
        }
        let collections = cell("Collections").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let status: ReadingStatus?
        if !cell("Date Read").isEmpty || collections.contains("Read but unowned") {
            status = .read
        } else if collections.contains("Currently reading") || !cell("Date Started").isEmpty {
            status = .reading
        } else if collections.contains("To read") {
            status = .toRead
        } else {
            status = nil
        }
        if cells["Collections"] != nil || cells["Date Read"] != nil || cells["Date Started"] != nil {
            text[.status] = status?.rawValue ?? ""
            names[.status] = "Collections"
        }
        let tags = cell("Tags").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            + collections.filter { !statusCollections.contains($0) }
        names[.tags] = "Tags"
        let givesTags = cells["Tags"] != nil || cells["Collections"] != nil
        return try BookRecord(
            text: text, authors: authors, tags: givesTags ? tags.filter { !$0.isEmpty } : nil, place: place, names: names)
    }

    /// An `Entry Date` as the catalogue reads it: a day (`2020-12-24`) as it is, and a day
    /// and time (`2014-01-21 18:49:25`, as older exports write it, in no stated time zone)
    /// as that time in UTC; other text as it is, to be refused.
    static func entryDate(_ text: String) -> String {
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[0].count == 10, parts[1].count == 8 else { return text }
        return "\(parts[0])T\(parts[1])Z"
    }

    /// "First Last" of LibraryThing's "Last, First": "Le Guin, Ursula K." is "Ursula K. Le
    /// Guin"; with a suffix after a second comma ("King, Martin Luther, Jr.") it follows the
    /// name ("Martin Luther King, Jr."); a name without a comma is as it is, and one with
    /// nothing on one side of its comma ("Homer,") is that name.
    static func firstLast(_ name: String) -> String {
        let parts = name.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let named = parts.filter { !$0.isEmpty }
        if named.count == 1 { return named[0] }  // "Homer," is Homer
        switch parts.count {
        case 2 where !parts[0].isEmpty && !parts[1].isEmpty:
            return "\(parts[1]) \(parts[0])"
        case 3 where !parts[0].isEmpty && !parts[1].isEmpty && !parts[2].isEmpty:
            return "\(parts[1]) \(parts[0]), \(parts[2])"
        default:
            return name
        }
    }

    /// The publisher of a `Publication`: the text before " (" (the year follows), else
    /// before the first comma.
    static func publisher(_ publication: String) -> String {
        if let paren = publication.range(of: " (") {
            return publication[..<paren.lowerBound].trimmingCharacters(in: .whitespaces)
        }
        return (publication.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces)
    }

    /// Collections that say where the reader is with a book (or none, as "Your library").
    private static let statusCollections: Set<String> = ["Your library", "Currently reading", "To read", "Read but unowned"]
}
