import Foundation
import Persistence

/// A file of books to import, read and checked whole before the catalogue is touched: a JSON
/// array of objects (the seed file's format with version 2's fields, as `books export`
/// writes it), the catalogue's own CSV (``CatalogCSV``), or a Goodreads export
/// (``GoodreadsCSV``), told apart by their first bytes and header.
///
/// Every record is checked as `books add` checks a book, and the file as a whole: two
/// records with the same UUID or the same ISBN are refused, naming both. The first error
/// refuses the file, so an import is all or nothing.
public struct CatalogImport: Sendable {
    /// The kinds of file an import reads.
    public enum Format: String, Sendable {
        /// A JSON array of objects.
        case json = "JSON"
        /// The catalogue's own CSV.
        case csv = "CSV"
        /// The CSV Goodreads exports.
        case goodreads = "Goodreads CSV"
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
    /// Its books, in file order.
    public let entries: [Entry]

    /// Reads and checks the books in `data`.
    ///
    /// - Parameter name: the file's name in messages (its path, or "standard input").
    /// - Throws: `CatalogInputError` naming the file, the row or entry, and the field.
    public init(data: Data, name: String) throws {
        self.name = name
        let start = data.prefix(4096).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard let first = start.first else {
            throw CatalogInputError(field: "import file", value: name, reason: "it is empty; expected a JSON array or a CSV file with a header row")
        }
        // A JSON document begins with `[` (or, wrongly for a list of books, `{`); a CSV
        // header can begin with neither.
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            format = .json
            entries = try Self.jsonEntries(data, name: name)
        } else {
            let (kind, records) = try Self.csvEntries(data, name: name)
            format = kind
            entries = records
        }
        try Self.checkRepeats(entries, name: name)
    }

    // MARK: - Formats

    private static func jsonEntries(_ data: Data, name: String) throws -> [Entry] {
        var offset = 0
        var reader = JSONArrayReader(maximumElementSize: SeedEntryReader.maximumEntrySize, maximumDepth: 16) { buffer in
            let count = min(buffer.count, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
            offset += count
            return count
        }
        var entries: [Entry] = []
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
            entries.append(Entry(place: place, record: try BookRecord(entry: element.value, place: place)))
        }
        return entries
    }

    private static func csvEntries(_ data: Data, name: String) throws -> (Format, [Entry]) {
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
        var entries: [Entry] = []
        if GoodreadsCSV.recognises(header.fields) {
            while let row = try next() {
                let record = try GoodreadsCSV.record(row, columns: header.fields, file: name)
                entries.append(Entry(place: "\(name) row \(row.row)", record: record))
            }
            return (.goodreads, entries)
        }
        let fields = try CatalogCSV.fields(ofHeader: header, file: name)
        while let row = try next() {
            entries.append(Entry(place: "\(name) row \(row.row)", record: try CatalogCSV.record(row, fields: fields, file: name)))
        }
        return (.csv, entries)
    }

    /// Refuses a UUID or an ISBN that an earlier entry has: the file would say two things
    /// about one book.
    private static func checkRepeats(_ entries: [Entry], name: String) throws {
        var uuids: [UUID: String] = [:]
        var isbns: [String: String] = [:]
        for entry in entries {
            if let uuid = entry.record.uuid {
                if let first = uuids[uuid] {
                    throw CatalogInputError(
                        field: "\(entry.place): uuid", value: uuid.uuidString, reason: "\(first) has the same UUID")
                }
                uuids[uuid] = entry.place
            }
            if let isbn = entry.record.isbn {
                if let first = isbns[isbn] {
                    throw CatalogInputError(field: "\(entry.place): isbn", value: isbn, reason: "\(first) has the same ISBN")
                }
                isbns[isbn] = entry.place
            }
        }
    }
}
