import Foundation

/// A date as a person types it: a year, a month, a day, or an instant. What
/// ``DateText/parseTypedDate(_:timeZone:)`` reads.
public struct TypedDate: Sendable, Equatable {
    /// The first instant of the period the text names (the instant itself for a timestamp).
    public let start: Date
    /// The first instant after the period: the next year, month or day; nil for a timestamp,
    /// which names one instant.
    public let end: Date?

    /// Creates a typed date of the period from `start` up to (not including) `end`.
    public init(start: Date, end: Date?) {
        self.start = start
        self.end = end
    }
}

extension DateText {
    /// Parses a date as people type one, in a predicate (`publishDate > "2020-01-01"`) or an
    /// option such as `--since 1961`: `YYYY` (a year), `YYYY-MM` (a month), `YYYY-MM-DD` (a
    /// day), each starting at midnight in `timeZone`, or an ISO 8601 date and time with its
    /// zone (`2020-01-01T12:00:00Z`, `2020-01-01T12:00:00.5+02:00`), as
    /// ``parseISO8601(_:)`` reads it.
    ///
    /// - Throws: ``DateTextError`` (format `.typedDate`) naming the text and what is wrong
    ///   with it: `'2020-02-30' is not a date: February 2020 has 29 days`.
    public static func parseTypedDate(_ text: String, timeZone: TimeZone) throws(DateTextError) -> TypedDate {
        let bytes = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        func failure(_ reason: DateTextError.Reason) -> DateTextError {
            DateTextError(text: text, format: .typedDate, reason: reason)
        }
        let dash = UInt8(ascii: "-")
        switch bytes.count {
        case 4:
            guard let year = digits(0, 4) else { throw failure(.malformed) }
            return TypedDate(
                start: startOfDay(days: days(year: year, month: 1, day: 1), timeZone: timeZone),
                end: startOfDay(days: days(year: year + 1, month: 1, day: 1), timeZone: timeZone))
        case 7:
            guard bytes[4] == dash, let year = digits(0, 4), let month = digits(5, 2) else {
                throw failure(.malformed)
            }
            guard (1...12).contains(month) else { throw failure(.noSuchMonth(month)) }
            let next = month == 12 ? (year + 1, 1) : (year, month + 1)
            return TypedDate(
                start: startOfDay(days: days(year: year, month: month, day: 1), timeZone: timeZone),
                end: startOfDay(days: days(year: next.0, month: next.1, day: 1), timeZone: timeZone))
        case 10:
            do throws(DateTextError) {
                let start = try parseDay(text, timeZone: timeZone)
                let day = days(year: digits(0, 4) ?? 0, month: digits(5, 2) ?? 0, day: digits(8, 2) ?? 0)
                return TypedDate(start: start, end: startOfDay(days: day + 1, timeZone: timeZone))
            } catch {
                throw failure(error.reason)
            }
        default:
            do throws(DateTextError) { return TypedDate(start: try parseISO8601(text), end: nil) } catch {
                throw failure(error.reason)
            }
        }
    }
}
