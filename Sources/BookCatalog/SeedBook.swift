import Foundation
import Persistence

/// One book of a seed file, checked: every field parsed strictly.
public struct SeedBook: Sendable, Hashable {
    /// The book's fixed UUID.
    public var uuid: UUID
    /// The title.
    public var title: String
    /// The author's name.
    public var author: String
    /// The first publication day, midnight UTC.
    public var publishDate: Date
    /// The price, exact.
    public var price: Decimal
    /// The color, if given.
    public var color: Color?

    /// Reads a seed file: a JSON array of objects with `uuid`, `title`, `author`,
    /// `publishDate` (YYYY-MM-DD), `price` (a decimal string such as "12.99") and optional
    /// `color` (#RRGGBB). Other keys (`language`, `datePrecision`) are ignored.
    ///
    /// - Throws: `CatalogInputError` naming the file, the entry and the field, for
    ///   malformed JSON, a malformed value, or a UUID an earlier entry already has (the
    ///   file would otherwise say two things about one book, and which one won would
    ///   depend on how the seed is batched).
    public static func decode(_ data: Data, file: String = "books.json") throws -> [SeedBook] {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw CatalogInputError(
                field: "seed file", value: file,
                reason: "it is not valid JSON (\(Self.reason(of: error, in: data)))")
        }
        guard let entries = json as? [Any] else {
            throw CatalogInputError(field: "seed file", value: file, reason: "expected a JSON array of books")
        }
        var firstEntry: [UUID: Int] = [:]
        return try entries.enumerated().map { index, entry in
            let place = "\(file) entry \(index + 1)"
            guard let object = entry as? [String: Any] else {
                throw CatalogInputError(field: place, value: "\(entry)", reason: "expected an object")
            }
            func string(_ key: String) throws -> String {
                guard let value = object[key] as? String else {
                    throw CatalogInputError(
                        field: "\(place): \(key)", value: object[key].map { "\($0)" } ?? "",
                        reason: object[key] == nil ? "the key is missing" : "expected a string")
                }
                return value
            }
            guard let uuid = UUID(uuidString: try string("uuid")) else {
                throw CatalogInputError(field: "\(place): uuid", value: try string("uuid"), reason: "expected a UUID")
            }
            if let first = firstEntry[uuid] {
                throw CatalogInputError(
                    field: "\(place): uuid", value: try string("uuid"), reason: "entry \(first + 1) has the same UUID")
            }
            firstEntry[uuid] = index
            let color = try object["color"].map { value -> Color in
                guard let text = value as? String else {
                    throw CatalogInputError(field: "\(place): color", value: "\(value)", reason: "expected #RRGGBB")
                }
                return try Color(hex: text)
            }
            return SeedBook(
                uuid: uuid,
                title: try BookInput.title(try string("title"), field: "\(place): title"),
                author: try BookInput.author(try string("author"), field: "\(place): author"),
                publishDate: try BookInput.day(try string("publishDate"), field: "\(place): publishDate"),
                price: try BookInput.price(try string("price"), field: "\(place): price"),
                color: color)
        }
    }

    /// Foundation's reason, with the line and column it points at (Foundation gives a byte
    /// offset, or none at all when the file ends early, as a truncated file does).
    private static func reason(of error: Error, in data: Data) -> String {
        let nsError = error as NSError
        let text = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        // "Invalid value around character 7." → "Invalid value at line 1, column 8".
        for phrase in ["around character ", "starting from character "] {
            guard let range = text.range(of: phrase) else { continue }
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            guard let offset = Int(digits) else { continue }
            let head = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            return "\(head) at \(position(of: offset, in: data))"
        }
        if text.localizedCaseInsensitiveContains("end of file") || data.isEmpty {
            return "the file ends unexpectedly at \(position(of: data.count, in: data)); is it truncated?"
        }
        return text
    }

    /// "line 3, column 12" for a byte offset (columns count bytes, from 1).
    private static func position(of offset: Int, in data: Data) -> String {
        let prefix = data.prefix(max(0, offset))
        let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = prefix.count - (prefix.lastIndex(of: 0x0A).map { $0 - prefix.startIndex + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}
