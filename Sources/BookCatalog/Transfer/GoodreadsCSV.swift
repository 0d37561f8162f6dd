import Foundation
import Persistence

/// The CSV that Goodreads exports ("My Books" → Export Library), recognised by its header:
/// `Book Id`, `Title`, `Author`, `Additional Authors`, `ISBN`, `ISBN13`, `My Rating`,
/// `Publisher`, `Binding`, `Number of Pages`, `Year Published`, `Original Publication Year`,
/// `Date Read`, `Date Added`, `Bookshelves`, `Exclusive Shelf`, `My Review`, `Private Notes`,
/// `Read Count`, and a few the catalogue has no place for (`Average Rating`, `Owned
/// Copies`…), which are read past. Only the first five are required: a column missing, or a
/// cell left blank, is a value Goodreads does not know, never an error.
///
/// How a row becomes a book:
/// - `Title` without its trailing series, which Goodreads writes into the title: "The
///   Hobbit (Middle-earth, #0.5)" is the title "The Hobbit" in the series "Middle-earth",
///   number 0.5 (of several series, "; "-separated, the first; a range such as `#1-3` gives
///   the series without a number).
/// - `Author`, then the `Additional Authors` (separated by commas), are the authors; a name
///   given twice is kept once.
/// - `ISBN13`, else `ISBN`, written by Goodreads as a spreadsheet formula (`="9780156027601"`)
///   so that spreadsheets keep its leading zeros; `=""` is none.
/// - `My Rating` is the rating; 0 means unrated.
/// - `Original Publication Year`, else `Year Published`, is the publication date, known to
///   the year (a year before 1, as Goodreads gives for ancient works, is passed over); with
///   neither the date is unknown.
/// - `Date Read` (`2024/03/01`) is the day last read, `Read Count` the number of readings,
///   `Date Added` when the book was added.
/// - `Publisher`, `Binding` (the format) and `Number of Pages` (0 or blank: unknown).
/// - `Exclusive Shelf` is the status: to-read, currently-reading (reading) or read; another
///   exclusive shelf becomes a tag.
/// - `Bookshelves` are the tags (the exclusive shelves among them aside).
/// - `My Review` is the review (its HTML read as text: `<br/>` line breaks, tags and
///   entities), `Private Notes` the notes.
/// - `Book Id` gives the book a UUID of its own, the same at every import, so that importing
///   a newer export updates the books of the earlier one: a number as Goodreads writes it,
///   or any other text (an ID of another site, a number past 64 bits), by its bytes; a row
///   with no Book Id by its title and author. The price is unknown.
enum GoodreadsCSV {
    /// Whether `header` is a Goodreads export's.
    static func recognises(_ header: [String]) -> Bool {
        ["Book Id", "Title", "Author", "Exclusive Shelf", "My Rating"].allSatisfy(header.contains)
    }

    /// The book of one row, with `columns` the header's names.
    ///
    /// - Throws: `CatalogInputError` naming the row and Goodreads' column.
    static func record(_ row: CSVReader.Record, columns: [String], file: String) throws -> BookRecord {
        let place = "\(file) row \(row.row)"
        let cells = try row.cells(named: columns, place: place)
        func cell(_ column: String) -> String { (cells[column] ?? "").trimmingCharacters(in: .whitespaces) }

        var text: [BookField: String] = [:]
        var names: [BookField: String] = [:]
        func take(_ field: BookField, _ column: String, _ value: String? = nil) {
            guard cells[column] != nil else { return }
            text[field] = value ?? cell(column)
            names[field] = column
        }
        text[.uuid] = uuid(forBookID: cell("Book Id"), title: cell("Title"), author: cell("Author")).uuidString
        names[.uuid] = "Book Id"
        let titled = SeriesInTitle(cell("Title"))
        take(.title, "Title", titled.title)
        if let series = titled.series {
            take(.series, "Title", series)
            take(.seriesNumber, "Title", titled.number ?? "")
        }
        var authors = [cell("Author")]
        for name in cell("Additional Authors").split(separator: ",") {
            let name = name.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty, !authors.contains(name) { authors.append(name) }
        }
        names[.authors] = cells["Additional Authors"] == nil ? "Author" : "Author/Additional Authors"
        let isbn13 = formulaText(cell("ISBN13"))
        text[.isbn] = isbn13.isEmpty ? formulaText(cell("ISBN")) : isbn13
        names[.isbn] = isbn13.isEmpty ? "ISBN" : "ISBN13"
        let rating = cell("My Rating")
        take(.rating, "My Rating", rating == "0" ? "" : rating)
        let (year, yearColumn) = publicationYear(original: cell("Original Publication Year"), published: cell("Year Published"))
        text[.publishDate] = year
        names[.publishDate] = yearColumn
        take(.dateAdded, "Date Added")
        take(.dateRead, "Date Read")
        take(.readCount, "Read Count")
        take(.publisher, "Publisher")
        take(.format, "Binding")
        let pages = cell("Number of Pages")
        take(.pages, "Number of Pages", pages == "0" ? "" : pages)
        take(.review, "My Review", reviewText(cells["My Review"] ?? ""))
        take(.notes, "Private Notes", cells["Private Notes"])
        let shelf = cell("Exclusive Shelf")
        let status = statuses[shelf]
        text[.status] = status?.rawValue ?? ""
        var shelves = cell("Bookshelves").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if status == nil, !shelf.isEmpty { shelves.append(shelf) }
        let tags = shelves.filter { !$0.isEmpty && statuses[$0] == nil }
        names[.tags] = "Bookshelves"
        return try BookRecord(text: text, authors: authors, tags: tags, place: place, names: names)
    }

    /// A review's text: Goodreads keeps reviews as HTML (`<br/>` line breaks, `<i>`, `&amp;`),
    /// read as text as calibre's comments are (``HTMLText``); a review without markup as it is.
    static func reviewText(_ text: String) -> String {
        HTMLText.looksLikeHTML(text) ? HTMLText.plainText(text) : text
    }

    /// The statuses of Goodreads' three exclusive shelves.
    private static let statuses: [String: ReadingStatus] = [
        "to-read": .toRead, "currently-reading": .reading, "read": .read,
    ]

    /// The text of a cell written as a formula (`="0156027607"`), or the cell as it is.
    static func formulaText(_ cell: String) -> String {
        guard cell.hasPrefix("=\""), cell.hasSuffix("\""), cell.count >= 3 else { return cell }
        return String(cell.dropFirst(2).dropLast())
    }

    /// The year to publish a book under, as `YYYY`, and the column it came from: the
    /// original publication's year when it is one the catalogue can hold (1 to 9999), else
    /// the edition's; empty (unknown) when neither is such a year, and the edition's text
    /// when it is not a number at all (refused as a malformed date).
    private static func publicationYear(original: String, published: String) -> (String, String) {
        func fourDigits(_ year: Int) -> String {
            let digits = String(year)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        if let year = Int(original), (1...9999).contains(year) { return (fourDigits(year), "Original Publication Year") }
        if let year = Int(published), (1...9999).contains(year) { return (fourDigits(year), "Year Published") }
        if Int(published) != nil { return ("", "Year Published") }
        return (published, "Year Published")
    }

    /// The UUID of the book of a row: by its Book Id when it is an unsigned 64-bit number
    /// (as Goodreads writes them, and as every release before read them), else by the Book
    /// Id's text, else — no Book Id at all — by the title and author. Never random, so that a
    /// re-import finds the book it imported before instead of adding it again.
    static func uuid(forBookID id: String, title: String, author: String) -> UUID {
        if let number = UInt64(id) { return uuid(forBookID: number) }
        // A NUL cannot occur in a cell's text here (the catalogue refuses control
        // characters), so it keeps "a" + "bc" and "ab" + "c" apart.
        let key = id.isEmpty ? "title+author\u{0}\(title)\u{0}\(author)" : "id\u{0}\(id)"
        return uuid(forText: key)
    }

    /// A UUID for `text`: two passes of FNV-1a over its UTF-8 bytes, the second begun from
    /// the first's mixed result, each finished by SplitMix64's mixer; version 8, as
    /// ``uuid(forBookID:)-(UInt64)``.
    static func uuid(forText text: String) -> UUID {
        func fnv(_ offset: UInt64) -> UInt64 {
            var hash = offset
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return mix(hash)
        }
        let high = fnv(0xCBF2_9CE4_8422_2325)
        return uuid(high: high, low: fnv(high))
    }

    /// The UUID of the book Goodreads numbers `id`: the same for the same number, and spread
    /// over the whole range (each half of the number mixed by SplitMix64), so that short IDs
    /// stay short. Marked as a version 8 (custom) UUID, as RFC 9562 provides.
    static func uuid(forBookID id: UInt64) -> UUID {
        let high = mix(id ^ 0x676F_6F64_7265_6164)  // "goodread"
        return uuid(high: high, low: mix(high ^ id))
    }

    /// SplitMix64's finishing mixer.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The version 8 UUID of two mixed words.
    private static func uuid(high: UInt64, low: UInt64) -> UUID {
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
