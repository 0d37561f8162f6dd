import Foundation
import Persistence

/// The rules for the fields of a book, shared by `books add` and seed files.
///
/// Text fields are trimmed of surrounding white space, then refused when empty, too long, or
/// holding a control character. A failure is a ``CatalogInputError`` naming the field.
public enum BookInput {
    /// The most characters (grapheme clusters, as a reader counts them) of a title.
    public static let titleCharacterLimit = 500
    /// The most characters of an author's name.
    public static let authorCharacterLimit = 200

    /// Unicode scalars allowed per character of a limit. A character counts as one however
    /// many scalars it combines, so "e" followed by five million combining marks (10 MB) is
    /// one character: the scalar limit bounds what one field can cost to store, fold and
    /// print. Four per character leaves room for every real script (a flag is 2 scalars, a
    /// family emoji 7, but text averages far below 4).
    public static let scalarsPerCharacter = 4

    /// A title: 1 to 500 characters (and 2,000 Unicode scalars) after trimming white space,
    /// without control characters.
    public static func title(_ text: String, field: String = "title") throws -> String {
        try checkedText(text, field: field, noun: "a title", characterLimit: titleCharacterLimit)
    }

    /// An author's name: 1 to 200 characters (and 800 Unicode scalars) after trimming, without
    /// control characters.
    public static func author(_ text: String, field: String = "author") throws -> String {
        try checkedText(text, field: field, noun: "an author's name", characterLimit: authorCharacterLimit)
    }

    /// A publication day, YYYY-MM-DD, that exists, in year 1 or later; midnight UTC.
    ///
    /// Year 0 is refused rather than supported: Foundation's Gregorian calendar, which shows
    /// and groups the dates, has no year 0 (the year before 1 is 1 BC, shown as "1"), so a
    /// book of 0000-01-01 would be shown as "Jan 1, 1" and grouped beside year 1 under a
    /// second "January 1". Showing it as ISO 8601's year 0 would mean replacing the
    /// locale's date formats; no published book needs it.
    public static func day(_ text: String, field: String = "date") throws -> Date {
        let date: Date
        do { date = try DateText.parseDay(text, timeZone: Catalog.calendarTimeZone) } catch {
            throw CatalogInputError(field: field, value: text, reason: "\(error)")
        }
        guard DateText.yearMonth(of: date, timeZone: Catalog.calendarTimeZone).year >= 1 else {
            throw CatalogInputError(field: field, value: text, reason: "the year must be 1 or later")
        }
        return date
    }

    /// A price: a plain decimal number ≥ 0 with `.` as the separator, such as 12.99.
    public static func price(_ text: String, field: String = "price") throws -> Decimal {
        try nonNegativeDecimal(text, field: field, expected: "a plain decimal number such as 12.99", noun: "a price")
    }

    /// A plain decimal number ≥ 0 (`.` as the separator), exact.
    static func nonNegativeDecimal(_ text: String, field: String, expected: String, noun: String) throws -> Decimal {
        let value: Decimal
        do { value = try DecimalText.plainParse(text) } catch {
            throw CatalogInputError(field: field, value: text, reason: "expected \(expected) (\(error))")
        }
        guard value >= 0 else { throw CatalogInputError(field: field, value: text, reason: "\(noun) can't be negative") }
        return value
    }

    // MARK: - Text

    /// Trims `text` and checks it against the limits and for control characters.
    ///
    /// The scalar limit is checked first, on the untrimmed text: it is cheap, and it keeps a
    /// ten-megabyte value from being trimmed and split into characters at all.
    static func checkedText(_ text: String, field: String, noun: String, characterLimit: Int) throws -> String {
        let scalarLimit = characterLimit * scalarsPerCharacter
        let scalars = text.unicodeScalars.count
        if scalars > scalarLimit + 1_000 {  // room for surrounding white space, trimmed below
            throw tooLong(text, field: field, noun: noun, characterLimit: characterLimit, scalars: scalars)
        }
        let trimmed = Self.trimmed(text)
        guard !trimmed.isEmpty else { throw CatalogInputError(field: field, value: text, reason: "\(noun) can't be empty") }
        let trimmedScalars = trimmed.unicodeScalars.count
        guard trimmedScalars <= scalarLimit, trimmed.count <= characterLimit else {
            throw tooLong(trimmed, field: field, noun: noun, characterLimit: characterLimit, scalars: trimmedScalars)
        }
        if let (offset, scalar) = firstControlCharacter(in: trimmed) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw CatalogInputError(
                field: field, value: trimmed,
                reason: "\(noun) can't contain control characters (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) "
                    + "at character \(offset + 1))")
        }
        return trimmed
    }

    /// `text` without surrounding white space and newlines; Foundation's trimming (through
    /// NSString) only when there is something to trim, as there seldom is.
    private static func trimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        let space = CharacterSet.whitespacesAndNewlines
        guard space.contains(first) || space.contains(last) else { return text }
        return text.trimmingCharacters(in: space)
    }

    private static func tooLong(_ text: String, field: String, noun: String, characterLimit: Int, scalars: Int) -> CatalogInputError {
        let scalarLimit = characterLimit * scalarsPerCharacter
        let size = scalars > scalarLimit ? "\(scalars) Unicode scalars" : "\(text.count) characters"
        return CatalogInputError(
            field: field, value: text,
            reason: "\(noun) is at most \(characterLimit) characters and \(scalarLimit) Unicode scalars (this one has \(size))")
    }

    /// The first control character and its position in characters: C0 (U+0000–U+001F,
    /// tab included), DEL (U+007F) and C1 (U+0080–U+009F).
    ///
    /// Tab is refused with the rest: inside a title or a name it shifts the columns of
    /// `books list` and reads as a field separator to `cut` and `awk`, and no title needs
    /// one. (Surrounding tabs and newlines are trimmed first, as any white space is.)
    static func firstControlCharacter(in text: String) -> (Int, Unicode.Scalar)? {
        guard let index = text.unicodeScalars.firstIndex(where: isControl) else { return nil }
        return (text[..<index].count, text.unicodeScalars[index])
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
