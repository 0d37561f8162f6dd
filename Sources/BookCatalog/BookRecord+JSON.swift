import Foundation
import Persistence

extension BookRecord {
    /// Reads one object of a JSON file: the seed file's keys (`uuid`, `title`, `author`,
    /// `publishDate`, `price`, `color`, `datePrecision`, `language`) and version 2's
    /// (`isbn`, `dateAdded`, `rating` as a number, `status`, `tags` as an array of strings,
    /// `notes`). Every key but `title`, `author` and `publishDate` may be missing or null
    /// (none); `publishMonthID`, which `books list --json` writes, is ignored; any other key
    /// is refused, so that a misspelled one is not silently dropped.
    ///
    /// - Throws: `CatalogInputError` naming the place and the key.
    init(entry: JSONValue, place: String) throws {
        guard case .object(let members) = entry else {
            throw CatalogInputError(field: place, value: entry.shortDescription, reason: "expected an object")
        }
        var text: [BookField: String] = [:]
        var tags: [String]?
        var seen: Set<String> = []
        for (key, value) in members {
            guard seen.insert(key).inserted else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription, reason: "the key appears twice in the entry")
            }
            if Self.ignoredJSONKeys.contains(key) { continue }
            guard let field = BookField(rawValue: key) else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription,
                    reason: "no such field; the fields are \(BookField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            switch (field, value) {
            case (.title, .null), (.author, .null), (.publishDate, .null):
                throw CatalogInputError(field: "\(place): \(key)", value: "null", reason: "expected a string")
            case (_, .null):
                if field == .tags { tags = [] } else { text[field] = "" }
            case (.tags, .array(let elements)):
                tags = try elements.map { element in
                    guard case .string(let name) = element else {
                        throw CatalogInputError(
                            field: "\(place): tags", value: element.shortDescription, reason: "expected an array of strings")
                    }
                    return name
                }
            case (.tags, _):
                throw CatalogInputError(field: "\(place): tags", value: value.shortDescription, reason: "expected an array of strings")
            case (.rating, .number(let number)):
                text[.rating] = number
            case (.rating, _):
                throw CatalogInputError(
                    field: "\(place): rating", value: value.shortDescription, reason: "expected a number from 0 to 5")
            case (_, .string(let string)):
                text[field] = string
            default:
                throw CatalogInputError(field: "\(place): \(key)", value: value.shortDescription, reason: "expected a string")
            }
        }
        try self.init(text: text, tags: tags, place: place)
    }

    /// Keys of other writers' JSON that a record has no field for and reads past.
    private static let ignoredJSONKeys: Set<String> = ["publishMonthID"]

    /// The record as one JSON object on one line, every field in ``BookField`` order: text
    /// as strings, `rating` as a number, `tags` as an array, null for none.
    public var jsonText: String {
        let members = BookField.allCases.map { field -> String in
            let value: String
            switch field {
            case .tags: value = "[" + tags.map(QuotedText.doubleQuoted).joined(separator: ", ") + "]"
            case .rating: value = rating.map { String($0) } ?? "null"
            default:
                let text = text(of: field)
                value = text.isEmpty ? "null" : QuotedText.doubleQuoted(text)
            }
            return "\(QuotedText.doubleQuoted(field.rawValue)): \(value)"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }
}
