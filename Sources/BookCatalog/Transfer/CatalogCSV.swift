import Foundation
import Persistence

/// The catalogue's own CSV: a header row naming fields (``BookField``: `title`, `authors`,
/// `publishDate`, …, matched ignoring case, spaces, `_` and `-`; `author`, as earlier
/// releases wrote it, is `authors`), then one book a row, each field as
/// ``BookRecord/text(of:)`` writes it: authors one a line within their cell. `title` and
/// `authors` are required; a column the header does not have leaves that field of an
/// existing book as it is. What `books export --format csv` writes and `books import` reads; a field written
/// behind an apostrophe against spreadsheet formulas (``CSVWriter/neutralised(_:)``) is read
/// without it.
enum CatalogCSV {
    /// The header row of an export: every field.
    static var header: String { CSVWriter.record(BookField.allCases.map(\.rawValue)) }

    /// A book's row.
    static func row(_ record: BookRecord) -> String {
        CSVWriter.record(BookField.allCases.map { record.text(of: $0) })
    }

    /// The fields the columns of `header` name, in order.
    ///
    /// - Throws: `CatalogInputError` naming the first header that names no field or repeats
    ///   one, or the required field the header lacks.
    static func fields(ofHeader header: CSVReader.Record, file: String) throws -> [BookField] {
        var byName = Dictionary(uniqueKeysWithValues: BookField.allCases.map { (normalised($0.rawValue), $0) })
        byName["author"] = .authors
        var fields: [BookField] = []
        for (index, name) in header.fields.enumerated() {
            let place = "\(file) row \(header.row), column \(index + 1)"
            guard let field = byName[normalised(name)] else {
                throw CatalogInputError(
                    field: place, value: name,
                    reason: "no such field; the columns a CSV file may have are \(BookField.allCases.map(\.rawValue).joined(separator: ", ")) (or those of a Goodreads, calibre or LibraryThing export)")
            }
            guard !fields.contains(field) else {
                throw CatalogInputError(field: place, value: name, reason: "an earlier column has the same field")
            }
            fields.append(field)
        }
        for required in BookField.required where !fields.contains(required) {
            throw CatalogInputError(
                field: "\(file) row \(header.row)", value: header.fields.joined(separator: ","),
                reason: "the header has no \(required.rawValue) column, which every book needs")
        }
        return fields
    }

    /// The book of one row.
    ///
    /// - Throws: `CatalogInputError` naming the row and the field.
    static func record(_ row: CSVReader.Record, fields: [BookField], file: String) throws -> BookRecord {
        let place = "\(file) row \(row.row)"
        try row.checkWidth(fields.count, place: place)
        var text: [BookField: String] = [:]
        var tags: [String]?
        var authors: [String]?
        for (field, written) in zip(fields, row.fields) {
            let value = CSVWriter.unneutralised(written)
            if field == .tags {
                tags = value.split(separator: ",").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
            } else if field == .authors {
                authors = value.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
            } else {
                text[field] = value
            }
        }
        return try BookRecord(text: text, authors: authors, tags: tags, place: place)
    }

    /// A header name as it is matched: lowercase, without spaces, `_` and `-`.
    private static func normalised(_ name: String) -> String {
        name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" }
    }
}

extension CSVReader.Record {
    /// Refuses a row whose number of fields is not the header's.
    ///
    /// - Throws: `CatalogInputError` naming `place`.
    func checkWidth(_ count: Int, place: String) throws {
        guard fields.count == count else {
            throw CatalogInputError(
                field: place, value: fields.joined(separator: ","),
                reason: "expected \(count) fields as in the header, found \(fields.count)")
        }
    }

    /// The row's cells by the header's column names (a name the header repeats: its first
    /// column), after checking the row is as wide as the header.
    ///
    /// - Throws: `CatalogInputError` naming `place`.
    func cells(named columns: [String], place: String) throws -> [String: String] {
        try checkWidth(columns.count, place: place)
        var cells: [String: String] = [:]
        for (column, value) in zip(columns, fields) where cells[column] == nil { cells[column] = value }
        return cells
    }
}
