import Foundation
import Persistence

extension BookRecord {
    /// Reads one object of a JSON file: the seed file's keys (`uuid`, `title`, `author`,
    /// `publishDate`, `price`, `color`, `datePrecision`, `language`), version 2's (`isbn`,
    /// `dateAdded`, `rating` as a number, `status`, `tags` as an array of strings, `notes`)
    /// and version 3's (`authors` as an array of strings, in place of `author`; `series`,
    /// `seriesNumber`, `publisher`, `pages` and `readCount` as numbers or text, `format`,
    /// `dateRead`, `review`). Every key but `title` and `authors` (or `author`) may be
    /// missing or null (none); `publishMonthID`, which `books list --json` writes, is
    /// ignored; any other key is refused, so that a misspelled one is not silently dropped.
    ///
    /// - Throws: `CatalogInputError` naming the place and the key.
    init(entry: JSONValue, place: String) throws {
        guard case .object(let members) = entry else {
            throw CatalogInputError(field: place, value: entry.shortDescription, reason: "expected an object")
        }
        var text: [BookField: String] = [:]
        var tags: [String]?
        var authors: [String]?
        var seen: Set<BookField> = []
        var keys: Set<String> = []
        func strings(_ value: JSONValue, key: String) throws -> [String] {
            guard case .array(let elements) = value else {
                throw CatalogInputError(field: "\(place): \(key)", value: value.shortDescription, reason: "expected an array of strings")
            }
            return try elements.map { element in
                guard case .string(let name) = element else {
                    throw CatalogInputError(
                        field: "\(place): \(key)", value: element.shortDescription, reason: "expected an array of strings")
                }
                return name
            }
        }
        for (key, value) in members {
            guard keys.insert(key).inserted else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription, reason: "the key appears twice in the entry")
            }
            if Self.ignoredJSONKeys.contains(key) { continue }
            guard let field = BookField(fileName: key) else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription,
                    reason: "no such field; the fields are \(BookField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard seen.insert(field).inserted else {
                throw CatalogInputError(
                    field: "\(place): \(key)", value: value.shortDescription, reason: "the entry gives both author and authors")
            }
            switch (field, value) {
            case (.title, .null), (.authors, .null):
                throw CatalogInputError(field: "\(place): \(key)", value: "null", reason: key == "authors" ? "expected an array of strings" : "expected a string")
            case (_, .null):
                if field == .tags { tags = [] } else { text[field] = "" }
            case (.tags, _):
                tags = try strings(value, key: key)
            case (.authors, .string(let name)) where key == "author":
                authors = [name]
            case (.authors, _):
                authors = try strings(value, key: key)
            case (.rating, .number(let number)), (.pages, .number(let number)), (.readCount, .number(let number)),
                (.seriesNumber, .number(let number)), (.price, .number(let number)):
                text[field] = number
            case (.rating, _):
                throw CatalogInputError(
                    field: "\(place): rating", value: value.shortDescription, reason: "expected a number from 0 to 5")
            case (_, .string(let string)):
                text[field] = string
            default:
                throw CatalogInputError(field: "\(place): \(key)", value: value.shortDescription, reason: "expected a string")
            }
        }
        try self.init(text: text, authors: authors, tags: tags, place: place)
    }

    /// Keys of other writers' JSON that a record has no field for and reads past.
    private static let ignoredJSONKeys: Set<String> = ["publishMonthID"]

    /// The record as one JSON object on one line, every field in ``BookField`` order: text
    /// as strings, `rating`, `pages` and `readCount` as numbers, `authors` and `tags` as
    /// arrays, null for none.
    public var jsonText: String {
        let members = BookField.allCases.map { field -> String in
            let value: String
            switch field {
            case .tags: value = "[" + tags.map(QuotedText.doubleQuoted).joined(separator: ", ") + "]"
            case .authors: value = "[" + authors.map(QuotedText.doubleQuoted).joined(separator: ", ") + "]"
            case .rating: value = rating.map { String($0) } ?? "null"
            case .pages: value = pages.map { String($0) } ?? "null"
            case .readCount: value = readCount.map { String($0) } ?? "null"
            default:
                let text = text(of: field)
                value = text.isEmpty ? "null" : QuotedText.doubleQuoted(text)
            }
            return "\(QuotedText.doubleQuoted(field.rawValue)): \(value)"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }
}
