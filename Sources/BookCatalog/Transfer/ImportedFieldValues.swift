import Foundation
import Persistence

/// The values the last import of one source gave one book, field by field, as text: what
/// the catalogue keeps in an `ImportedValues` object (model version 4) so that the next
/// import of that source changes only what the file changed.
///
/// Each field is the text ``BookRecord/text(of:)`` writes, with two exceptions: the
/// publication date is written to its precision (`1954`, `1954-06`, `1954-06-01`), so that
/// it stands for both `publishDate` and `datePrecision`, and tags are their names one a
/// line, in the order the file gave them. A field the file did not give is not kept (a
/// later file that gives it has no earlier value for it: it is taken as a first import of
/// that field). Stored as a JSON object of field names to texts, sorted, so that the same
/// values are always the same text and an import that changes none writes nothing.
public struct ImportedFieldValues: Sendable, Equatable {
    /// The texts, by field.
    public var texts: [BookField: String]

    /// Values of the given texts.
    public init(texts: [BookField: String] = [:]) {
        self.texts = texts
    }

    /// The values `record` gives in the fields it provides (its UUID aside, which is the
    /// book's identity, and its date precision, which the date's text carries). A blank
    /// date added is not kept: the import did not set it blank but to the day of the import
    /// (see `Catalog.importBooks`), so a later file's date is not a change the reader made.
    init(_ record: BookRecord) {
        var texts: [BookField: String] = [:]
        for field in record.provided where Self.kept(field) && (field != .dateAdded || record.dateAdded != nil) {
            texts[field] = Self.text(field, of: record)
        }
        self.texts = texts
    }

    /// Whether a field is kept and compared: not the UUID, not the date's precision.
    static func kept(_ field: BookField) -> Bool { field != .uuid && field != .datePrecision }

    /// A field's text as kept and compared: see the type's description.
    static func text(_ field: BookField, of record: BookRecord) -> String {
        switch field {
        case .publishDate:
            let day = record.text(of: .publishDate)
            switch record.datePrecision {
            case .year: return String(day.prefix(4))
            case .month: return String(day.prefix(7))
            case .day: return day
            }
        case .tags:
            return record.tags.joined(separator: "\n")
        default:
            return record.text(of: field)
        }
    }

    /// The tag names of kept values, in canonical form; nil when no tags are kept.
    var canonicalTags: Set<String>? {
        texts[.tags].map { Set($0.split(separator: "\n").map { CanonicalText.fold(String($0)) }) }
    }

    /// The values as stored: a JSON object, keys sorted by their bytes, on one line.
    ///
    /// Written by hand, not through `JSONSerialization`, whose sorted keys compare by locale
    /// and took a third of re-importing 5,000 unchanged books.
    var json: String {
        let members = texts.map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 }
        return "{" + members.map { JSONValue.quoted($0) + ":" + JSONValue.quoted($1) }.joined(separator: ",") + "}"
    }

    /// The values a stored JSON object gives; a key that names no field, or a value that is
    /// not text, is passed over (written by another release), and text that is not a JSON
    /// object gives none: that book is then imported as if for the first time.
    init(json: String) {
        texts = [:]
        guard case .object(let members)? = try? JSONValue.parse(Data(json.utf8), maximumDepth: 4) else { return }
        for (key, value) in members {
            if let field = BookField(rawValue: key), Self.kept(field), case .string(let text) = value { texts[field] = text }
        }
    }
}
