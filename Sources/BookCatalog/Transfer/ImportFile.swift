import Foundation
import Persistence

/// A file of books to import, read and checked whole before the catalogue is touched: a JSON
/// array of objects (the seed file's format with every field of the model, as `books
/// export` writes it), the catalogue's own CSV (``CatalogCSV``), or another catalogue's
/// export — Goodreads (``GoodreadsCSV``), calibre (``CalibreJSON``, ``CalibreCSV``),
/// LibraryThing (``LibraryThingTSV``) — told apart by their first bytes, header or keys.
///
/// Every record is checked as `books add` checks a book, and the file as a whole: a record
/// with the UUID or the ISBN of an earlier one is refused, naming both. Every refused record
/// is kept with its reason (``invalid``): by default a file with any is refused whole
/// (``InvalidImportRowsError``, naming each), so that an import is all or nothing; with
/// `skippingInvalid` the rest are imported and the refused ones reported. A blank optional
/// field is never an error: it is a value the file does not know.
public struct ImportFile: Sendable {
    /// The kinds of file an import reads.
    public enum Format: String, Sendable {
        /// A JSON array of objects.
        case json = "JSON"
        /// The catalogue's own CSV.
        case csv = "CSV"
        /// The CSV Goodreads exports.
        case goodreads = "Goodreads CSV"
        /// The JSON `calibredb list --for-machine` writes.
        case calibreJSON = "calibre JSON"
        /// The CSV catalogue calibre writes (`calibredb catalog books.csv`).
        case calibreCSV = "calibre CSV"
        /// LibraryThing's tab-delimited export.
        case libraryThingTSV = "LibraryThing TSV"
        /// LibraryThing's CSV export.
        case libraryThingCSV = "LibraryThing CSV"
    }

    /// One book of the file and where it is.
    public struct Entry: Sendable {
        /// "books.csv row 3", "books.json entry 2".
        public var place: String
        /// The book.
        public var record: BookRecord
    }

    /// The file's name in messages.
    public let name: String
    /// What kind of file it is.
    public let format: Format
    /// Its valid books, in file order.
    public let entries: [Entry]
    /// Its refused books, in file order, each with why.
    public let invalid: [CatalogInputError]

    /// Reads and checks the books in `data`.
    ///
    /// - Parameters:
    ///   - name: the file's name in messages (its path, or "standard input").
    ///   - skippingInvalid: keep the valid books of a file with refused ones (``invalid``
    ///     says which and why), instead of refusing it.
    /// - Throws: ``InvalidImportRowsError`` naming every refused book (unless
    ///   `skippingInvalid`); `CatalogInputError` for a file that is not one of the formats
    ///   (empty, malformed, a header naming no field).
    public init(data: Data, name: String, skippingInvalid: Bool = false) throws {
        self.name = name
        let start = data.prefix(4096).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard let first = start.first else {
            throw CatalogInputError(field: "import file", value: name, reason: "it is empty; expected a JSON array or a CSV file with a header row")
        }
        // A JSON document begins with `[` (or, wrongly for a list of books, `{`); a CSV
        // header can begin with neither.
        var rows = Rows()
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            format = try Self.jsonEntries(data, name: name, into: &rows)
        } else {
            format = try Self.csvEntries(data, name: name, into: &rows)
        }
        entries = rows.entries
        invalid = rows.invalid
        if !invalid.isEmpty && !skippingInvalid {
            throw InvalidImportRowsError(file: name, rows: invalid, valid: entries.count)
        }
    }

    /// The entries read so far, and the refused ones: each record is checked against the
    /// valid ones before it (a UUID or ISBN given twice refuses the later record).
    private struct Rows {
        var entries: [Entry] = []
        var invalid: [CatalogInputError] = []
        var uuids: [UUID: String] = [:]
        var isbns: [String: String] = [:]

        mutating func add(place: String, _ record: () throws -> BookRecord) {
            do {
                let record = try record()
                if let uuid = record.uuid, let first = uuids[uuid] {
                    throw CatalogInputError(field: "\(place): uuid", value: uuid.uuidString, reason: "\(first) has the same UUID")
                }
                if let isbn = record.isbn, let first = isbns[isbn] {
                    throw CatalogInputError(field: "\(place): isbn", value: isbn, reason: "\(first) has the same ISBN")
                }
                if let uuid = record.uuid { uuids[uuid] = place }
                if let isbn = record.isbn { isbns[isbn] = place }
                entries.append(Entry(place: place, record: record))
            } catch let error as CatalogInputError {
                invalid.append(error)
            } catch {
                invalid.append(CatalogInputError(field: place, value: "", reason: "\(error)"))
            }
        }
    }

    // MARK: - Formats

    private static func jsonEntries(_ data: Data, name: String, into rows: inout Rows) throws -> Format {
        var offset = 0
        var reader = JSONArrayReader(maximumElementSize: SeedEntryReader.maximumEntrySize, maximumDepth: 16) { buffer in
            let count = min(buffer.count, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
            offset += count
            return count
        }
        var format: Format?  // told by the first element: calibre's keys, or the catalogue's
        while true {
            let element: JSONArrayReader.Element
            do {
                guard let next = try reader.next() else { break }
                element = next
            } catch let error as JSONArrayReaderError {
                throw CatalogInputError(
                    field: "import file", value: name,
                    reason: "it is not valid JSON (\(error.description))")
            }
            let place = "\(name) entry \(element.index)"
            let calibre = format.map { $0 == .calibreJSON } ?? CalibreJSON.recognises(element.value)
            format = format ?? (calibre ? .calibreJSON : .json)
            rows.add(place: place) {
                calibre ? try CalibreJSON.record(element.value, place: place) : try BookRecord(entry: element.value, place: place)
            }
        }
        return format ?? .json
    }

    private static func csvEntries(_ data: Data, name: String, into rows: inout Rows) throws -> Format {
        let tabText = LibraryThingTSV.utf8(data)
        if let columns = LibraryThingTSV.tabHeader(tabText) {
            for line in LibraryThingTSV.tabRows(tabText) {
                rows.add(place: "\(name) row \(line.row)") {
                    try LibraryThingTSV.record(line.fields, row: line.row, columns: columns, file: name)
                }
            }
            return .libraryThingTSV
        }
        var reader = CSVReader(data: data)
        func next() throws -> CSVReader.Record? {
            do { return try reader.next() } catch {
                throw CatalogInputError(
                    field: "\(name) row \(error.row), field \(error.column)", value: "…", reason: error.reason)
            }
        }
        guard let header = try next() else {
            throw CatalogInputError(field: "import file", value: name, reason: "it is empty; expected a header row")
        }
        if GoodreadsCSV.recognises(header.fields) {
            while let row = try next() {
                rows.add(place: "\(name) row \(row.row)") { try GoodreadsCSV.record(row, columns: header.fields, file: name) }
            }
            return .goodreads
        }
        if CalibreCSV.recognises(header.fields) {
            while let row = try next() {
                rows.add(place: "\(name) row \(row.row)") { try CalibreCSV.record(row, columns: header.fields, file: name) }
            }
            return .calibreCSV
        }
        if LibraryThingTSV.recognises(header.fields) {
            while let row = try next() {
                rows.add(place: "\(name) row \(row.row)") {
                    try LibraryThingTSV.record(row.fields, row: row.row, columns: header.fields, file: name)
                }
            }
            return .libraryThingCSV
        }
        let fields = try CatalogCSV.fields(ofHeader: header, file: name)
        while let row = try next() {
            rows.add(place: "\(name) row \(row.row)") { try CatalogCSV.record(row, fields: fields, file: name) }
        }
        return .csv
    }
}

/// An import file with refused books: nothing was imported. Names each refused book, one a
/// line (the first ``shownLimit``, then how many more).
public struct InvalidImportRowsError: Error, Sendable, CustomStringConvertible {
    /// The file's name in messages.
    public var file: String
    /// Every refused book, in file order, each with why.
    public var rows: [CatalogInputError]
    /// How many books of the file are valid.
    public var valid: Int

    /// The most refused books a message names.
    public static let shownLimit = 20

    /// "Cannot import books.csv: 2 of its 40 books are invalid, and nothing was imported…",
    /// then one line a refused book; for one refused book, its line alone.
    public var description: String {
        if rows.count == 1, let row = rows.first {
            let rest = valid == 0 ? "" : "; --skip-invalid imports the other \(CountText.books(valid))"
            return "\(row.description) (nothing was imported\(rest))"
        }
        let total = rows.count + valid
        var lines = [
            "Cannot import \(QuotedText.forMessage(file)): \(rows.count) of its \(CountText.books(total)) "
                + "\(rows.count == 1 ? "is" : "are") invalid, and nothing was imported "
                + "(--skip-invalid imports the other \(valid)):"
        ]
        lines += rows.prefix(Self.shownLimit).map { "  \($0.description)" }
        if rows.count > Self.shownLimit { lines.append("  and \(rows.count - Self.shownLimit) more") }
        return lines.joined(separator: "\n")
    }
}
