import Foundation
import Persistence

extension BookInput {
    /// The most characters of a tag's name.
    public static let tagCharacterLimit = 100

    /// A tag's name: 1 to 100 characters after trimming, without control characters or
    /// commas (a comma separates tags in CSV files and in Goodreads' shelves).
    public static func tag(_ text: String, field: String = "tag") throws -> String {
        let name = try checkedText(text, field: field, noun: "a tag", characterLimit: tagCharacterLimit)
        guard !name.contains(",") else {
            throw CatalogInputError(field: field, value: text, reason: "a tag can't contain a comma")
        }
        return name
    }

    /// Tags' names, each checked as ``tag(_:field:)``, without repeats (names with the same
    /// canonical form, such as "SciFi" and "scifi", are one tag), sorted.
    public static func tags(_ names: [String], field: String = "tags") throws -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for name in names {
            let checked = try tag(name, field: field)
            if seen.insert(CanonicalText.fold(checked)).inserted { result.append(checked) }
        }
        return result.sorted(by: tagOrder)
    }

    /// The order tags are listed in: by canonical name ("classic" before "SciFi"), then as
    /// written, so that every listing and export of the same tags is the same.
    public static func tagOrder(_ first: String, _ second: String) -> Bool {
        let (a, b) = (CanonicalText.fold(first), CanonicalText.fold(second))
        return a != b ? a < b : first < second
    }

    /// A change of a book's tags as `books edit --tag` takes it: `+name` adds the tag,
    /// `-name` removes it, a bare name adds it.
    public static func tagChange(_ text: String) throws -> (add: Bool, name: String) {
        let add = !text.hasPrefix("-")
        let name = text.hasPrefix("+") || text.hasPrefix("-") ? String(text.dropFirst()) : text
        return (add, try tag(name, field: "tag"))
    }

    /// When a book was added: an ISO 8601 instant (`2024-03-01T12:00:00Z`), or a day as
    /// `YYYY-MM-DD` or `YYYY/MM/DD` (Goodreads' form), taken as its midnight UTC.
    public static func dateAdded(_ text: String, field: String = "dateAdded") throws -> Date {
        if let instant = try? DateText.parseISO8601(text) { return instant }
        let day = text.count == 10 ? text.replacingOccurrences(of: "/", with: "-") : text
        do { return try DateText.parseDay(day, timeZone: Catalog.calendarTimeZone) } catch {
            throw CatalogInputError(
                field: field, value: text, reason: "expected an ISO 8601 time such as 2024-03-01T12:00:00Z, or a day such as 2024-03-01")
        }
    }
}
