import BookCatalog
import Persistence
import Foundation

/// A column of `books list --fields f1,f2,…`: what a listing shows of each book, in text,
/// CSV or JSON.
///
/// JSON keys and CSV headers are the model's names (`publishDate`, `dateAdded`) so that a
/// listing reads back as the seed and import files do; `date` and `added` are accepted as
/// the short names people type.
enum BookField: String, CaseIterable, Sendable {
    case id, uuid, title, author, authors, date, price, color, isbn, language, rating, status, notes, added, tags,
        series, seriesNumber, publisher, pages, format, read, readCount, review

    /// The fields of CSV without `--fields`: those of today's JSON that a file can keep.
    static let csvDefault: [BookField] = [.uuid, .title, .author, .date, .price, .color]

    /// What `--fields all` means: every field, in this order.
    static let all: [BookField] = allCases

    /// The field a name given to `--fields` means: its own name or its model name, in any case.
    init?(name: String) {
        let lowered = name.lowercased()
        if let field = Self.allCases.first(where: { $0.rawValue == lowered || $0.key.lowercased() == lowered }) {
            self = field
        } else {
            return nil
        }
    }

    /// The JSON key and CSV header.
    var key: String {
        switch self {
        case .date: "publishDate"
        case .added: "dateAdded"
        case .read: "dateRead"
        default: rawValue
        }
    }

    /// Every field's name, for messages and help: `id, uuid, title, …, all`.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") + ", all" }

    /// Parses `--fields`: names separated by commas, each known, none twice.
    static func parseList(_ text: String) -> Result<[BookField], FieldListError> {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "all" { return .success(all) }
        var fields: [BookField] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return .failure(.empty) }
            guard let field = BookField(name: name) else { return .failure(.unknown(name)) }
            guard !fields.contains(field) else { return .failure(.repeated(name)) }
            fields.append(field)
        }
        return .success(fields)
    }
}

/// Why a `--fields` list is refused; the description completes the parser's sentence.
enum FieldListError: Error, CustomStringConvertible {
    case empty
    case unknown(String)
    case repeated(String)

    var description: String {
        switch self {
        case .empty: "a field name is missing between commas; the fields are \(BookField.names)"
        case .unknown(let name): "unknown field '\(QuotedText.excerpt(name))'; the fields are \(BookField.names)"
        case .repeated(let name): "the field '\(QuotedText.excerpt(name))' is given twice"
        }
    }
}

/// The output formats of `books list --format`.
enum ListFormat: String, CaseIterable, Sendable {
    /// Lines for people (locale-aware dates and prices, short IDs), the default.
    case text
    /// RFC 4180 CSV: a header of field names, then a record a book.
    case csv
    /// A JSON array of objects.
    case json
}
