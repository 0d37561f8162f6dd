import Foundation
import Persistence

extension BookInput {
    /// A date's precision: `day`, `month` or `year`.
    public static func datePrecision(_ text: String, field: String = "datePrecision") throws -> DatePrecision {
        guard let precision = DatePrecision(rawValue: text) else {
            throw CatalogInputError(field: field, value: text, reason: "expected day, month or year")
        }
        return precision
    }

    /// A language as a BCP 47 tag, in its conventional case: "es", "pt-BR", "zh-Hant-TW",
    /// "sr-Latn". The tag's shape is checked (a 2–3 or 5–8 letter language, then subtags of
    /// 1–8 letters or digits), not whether each subtag is registered.
    public static func language(_ text: String, field: String = "language") throws -> String {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let isASCIIAlphanumeric = { (s: String) in s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) } }
        let isASCIILetters = { (s: String) in s.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic } }
        guard let primary = subtags.first, [2, 3, 5, 6, 7, 8].contains(primary.count), isASCIILetters(primary),
            subtags.dropFirst().allSatisfy({ (1...8).contains($0.count) && isASCIIAlphanumeric($0) })
        else {
            throw CatalogInputError(field: field, value: text, reason: "expected a BCP 47 language tag such as es or pt-BR")
        }
        var normalised = [primary.lowercased()]
        for subtag in subtags.dropFirst() {
            switch subtag.count {
            case 2 where isASCIILetters(subtag): normalised.append(subtag.uppercased())  // region
            case 4 where isASCIILetters(subtag): normalised.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())  // script
            default: normalised.append(subtag.lowercased())
            }
        }
        return normalised.joined(separator: "-")
    }

    /// An ISBN-10 or ISBN-13 (hyphens and spaces allowed) with a valid check digit, as the
    /// ISBN-13 it names: "0-306-40615-2" gives "9780306406157".
    public static func isbn(_ text: String, field: String = "isbn") throws -> String {
        let compact = text.filter { $0 != "-" && $0 != " " }
        let digits = compact.compactMap(\.wholeNumberValue)
        func refuse(_ reason: String) -> CatalogInputError {
            CatalogInputError(field: field, value: text, reason: reason)
        }
        switch compact.count {
        case 10:
            let last = compact.last.map { $0 == "X" || $0 == "x" ? 10 : $0.wholeNumberValue ?? -1 } ?? -1
            let body = compact.prefix(9).compactMap(\.wholeNumberValue)
            guard compact.allSatisfy(\.isASCII), body.count == 9, last >= 0 else {
                throw refuse("an ISBN-10 is nine digits and a check digit (0–9 or X)")
            }
            let sum = (body + [last]).enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element }
            guard sum % 11 == 0 else { throw refuse("the ISBN-10's check digit is wrong") }
            let thirteen = [9, 7, 8] + body
            return (thirteen + [isbn13CheckDigit(thirteen)]).map(String.init).joined()
        case 13:
            guard compact.allSatisfy(\.isASCII), digits.count == 13 else {
                throw refuse("an ISBN-13 is thirteen digits")
            }
            guard compact.hasPrefix("978") || compact.hasPrefix("979") else {
                throw refuse("an ISBN-13 begins with 978 or 979")
            }
            guard isbn13CheckDigit(Array(digits.prefix(12))) == digits[12] else {
                throw refuse("the ISBN-13's check digit is wrong")
            }
            return compact
        default:
            throw refuse("expected an ISBN-10 or ISBN-13 (10 or 13 digits, hyphens allowed)")
        }
    }

    /// The check digit of an ISBN-13's first twelve digits (weights 1, 3, 1, 3, …).
    private static func isbn13CheckDigit(_ twelve: [Int]) -> Int {
        let sum = twelve.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }

    /// A rating: a whole number from 0 to 5.
    public static func rating(_ text: String, field: String = "rating") throws -> Int16 {
        guard text.count == 1, let value = text.first?.wholeNumberValue, text.first?.isASCII == true, (0...5).contains(value)
        else { throw CatalogInputError(field: field, value: text, reason: "expected a whole number from 0 to 5") }
        return Int16(value)
    }

    /// A reading status, as ``ReadingStatus`` names it: to-read, reading or read.
    public static func status(_ text: String, field: String = "status") throws -> ReadingStatus {
        guard let status = ReadingStatus(rawValue: text) else {
            throw CatalogInputError(field: field, value: text, reason: "expected to-read, reading or read")
        }
        return status
    }

    /// The most characters of a book's notes.
    public static let notesCharacterLimit = 10_000

    /// Notes: up to 10,000 characters after trimming; empty means none. Newlines are kept
    /// (notes are paragraphs); other control characters are refused.
    public static func notes(_ text: String, field: String = "notes") throws -> String? {
        try paragraphs(text, field: field, noun: "notes", verb: "are", characterLimit: notesCharacterLimit)
    }

    /// Free text of paragraphs (notes, a review): trimmed, empty for none, at most
    /// `characterLimit` characters, newlines kept and other control characters refused.
    static func paragraphs(_ text: String, field: String, noun: String, verb: String = "is", characterLimit: Int) throws -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.count <= characterLimit, trimmed.unicodeScalars.count <= characterLimit * scalarsPerCharacter else {
            throw CatalogInputError(field: field, value: String(trimmed.prefix(40)) + "…", reason: "\(noun) \(verb) at most \(characterLimit) characters")
        }
        if let (offset, scalar) = firstControlCharacter(in: trimmed.replacingOccurrences(of: "\n", with: " ")) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw CatalogInputError(
                field: field, value: trimmed,
                reason: "\(noun) can't contain control characters other than newlines (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) at character \(offset + 1))")
        }
        return trimmed
    }
}

/// Where a reader is with a book (stored in `Book.status` as its raw value).
public enum ReadingStatus: String, Sendable, CaseIterable {
    /// On the pile.
    case toRead = "to-read"
    /// Being read.
    case reading
    /// Finished.
    case read
}

// MARK: - Model version 3

extension BookInput {
    /// The most authors a book lists.
    public static let authorLimit = 50

    /// A book's authors, first author first: each a name as ``author(_:field:)`` checks it,
    /// at least one, at most 50, none twice.
    public static func authors(_ names: [String], field: String = "authors") throws -> [String] {
        let checked = try names.map { try author($0, field: field) }
        guard !checked.isEmpty else {
            throw CatalogInputError(field: field, value: "", reason: "a book needs at least one author")
        }
        guard checked.count <= authorLimit else {
            throw CatalogInputError(
                field: field, value: checked.prefix(3).joined(separator: ", ") + "…",
                reason: "a book lists at most \(authorLimit) authors (this one has \(checked.count))")
        }
        var seen = Set<String>()
        for name in checked where !seen.insert(name).inserted {
            throw CatalogInputError(field: field, value: name, reason: "the same author is named twice")
        }
        return checked
    }

    /// A series' name: 1 to 200 characters after trimming, without control characters.
    public static func series(_ text: String, field: String = "series") throws -> String {
        try checkedText(text, field: field, noun: "a series' name", characterLimit: 200)
    }

    /// A publisher's name: 1 to 200 characters after trimming, without control characters.
    public static func publisher(_ text: String, field: String = "publisher") throws -> String {
        try checkedText(text, field: field, noun: "a publisher's name", characterLimit: 200)
    }

    /// A binding or edition format ("Paperback", "Kindle Edition"): 1 to 100 characters.
    public static func format(_ text: String, field: String = "format") throws -> String {
        try checkedText(text, field: field, noun: "a format", characterLimit: 100)
    }

    /// A number in a series: a plain decimal number ≥ 0 such as 1 or 2.5.
    public static func seriesNumber(_ text: String, field: String = "seriesNumber") throws -> Decimal {
        try nonNegativeDecimal(text, field: field, expected: "a number such as 1 or 2.5", noun: "a number in a series")
    }

    /// A number of pages: a whole number from 1 to 100,000.
    public static func pages(_ text: String, field: String = "pages") throws -> Int32 {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int32(text), (1...100_000).contains(value) else {
            throw CatalogInputError(field: field, value: text, reason: "expected a whole number of pages from 1 to 100000")
        }
        return value
    }

    /// How many times a book was read: a whole number from 0 to 10,000.
    public static func readCount(_ text: String, field: String = "readCount") throws -> Int16 {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int16(text), (0...10_000).contains(value) else {
            throw CatalogInputError(field: field, value: text, reason: "expected a whole number from 0 to 10000")
        }
        return value
    }

    /// The day a book was read: `YYYY-MM-DD` (or `YYYY/MM/DD`, as Goodreads writes it), in
    /// year 1 or later; midnight UTC.
    public static func dateRead(_ text: String, field: String = "dateRead") throws -> Date {
        try day(text.replacingOccurrences(of: "/", with: "-"), field: field)
    }

    /// The most characters of a review.
    public static let reviewCharacterLimit = 100_000

    /// A review: up to 100,000 characters after trimming; empty means none; newlines kept.
    public static func review(_ text: String, field: String = "review") throws -> String? {
        try paragraphs(text, field: field, noun: "a review", characterLimit: reviewCharacterLimit)
    }
}
