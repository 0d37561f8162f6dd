/// The checks behind `books`' value kinds: each returns the normalised text or the reason
/// the value is refused, which completes "The value 'x' is invalid for '--opt <v>': …".
///
/// These check form only; whether a book exists or a predicate names real keys is for the
/// catalogue to say.
enum ValueFormats {
    /// Any text with at least one character that is not white space; kept as typed.
    @Sendable static func nonBlank(_ text: String) -> Result<String, ValueRejection> {
        text.contains { !$0.isWhitespace } ? .success(text) : .failure(.init("must not be blank"))
    }

    /// A store path: any non-empty text.
    @Sendable static func storePath(_ text: String) -> Result<String, ValueRejection> {
        text.isEmpty ? .failure(.init("must be a file path")) : .success(text)
    }

    /// A date written `YYYY-MM-DD` that names a real Gregorian day, year 1 to 9999.
    @Sendable static func calendarDay(_ text: String) -> Result<String, ValueRejection> {
        parseCalendarDay(text).map(\.description)
    }

    /// Reads `YYYY-MM-DD` strictly: four, two and two ASCII digits, a real day.
    static func parseCalendarDay(_ text: String) -> Result<CalendarDay, ValueRejection> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return .failure(.init("expected a date written YYYY-MM-DD, such as 2020-03-01")) }
        guard year >= 1 else { return .failure(.init("the year must be from 0001 to 9999")) }
        guard (1...12).contains(month) else {
            return .failure(.init("the month must be from 01 to 12"))
        }
        let length = daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            return .failure(.init("that month has \(length) days"))
        }
        return .success(CalendarDay(year: year, month: month, day: day))
    }

    /// A non-negative plain decimal number with `.` as separator (`12.99`, `0`, `1500.5`),
    /// at most 30 digits, kept as typed.
    @Sendable static func price(_ text: String) -> Result<String, ValueRejection> {
        if text.hasPrefix("-") { return .failure(.init("a price cannot be negative")) }
        if text.contains(",") {
            return .failure(.init("use '.' as decimal separator and no grouping, as in 1299.50"))
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else { return .failure(.init("expected a number such as 12.99")) }
        guard parts.reduce(0, { $0 + $1.count }) <= 30 else {
            return .failure(.init("a price has at most 30 digits"))
        }
        return .success(text)
    }

    /// A color written `#RRGGBB` (or `RRGGBB`), normalised to `#` and uppercase hex digits.
    @Sendable static func color(_ text: String) -> Result<String, ValueRejection> {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII)
        else {
            return .failure(.init("expected a color written #RRGGBB, such as '#1E90FF' (quoted)"))
        }
        return .success("#" + digits.uppercased())
    }

    // MARK: - Internals

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9 (not any Unicode digit).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
