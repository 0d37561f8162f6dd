import Foundation

/// A `books` command line, parsed and checked: what to do and which store to do it on.
///
/// Produced by ``BooksCommandLine/parse(_:environment:)``; `main.swift` switches on
/// ``action``.
struct ParsedCommand: Equatable, Sendable {
    /// What the user asked for.
    enum Action: Equatable, Sendable {
        /// `books seed [--count N]`: load the seed books, plus `syntheticCount` made-up ones.
        case seed(syntheticCount: Int)
        /// `books list …`.
        case list(ListOptions)
        /// `books search TEXT … [--limit N] [--json]`.
        case search(SearchOptions)
        /// `books add …`.
        case add(NewBookOptions)
        /// `books show UUID`.
        case show(UUID)
        /// `books delete UUID`.
        case delete(UUID)
        /// `books help [COMMAND]`, `--help`, `-h`, or no subcommand: print this text to
        /// standard output as is (it ends with a newline) and exit 0.
        case help(String)
        /// `books --version`: print ``BooksCommandLine/version`` and exit 0.
        case version
    }

    /// What to do.
    var action: Action
    /// The store file, resolved by ``StorePath/resolve(option:environment:)``.
    var storeURL: URL
}

/// The options of `books list`.
struct ListOptions: Equatable, Sendable {
    /// `--by-month`: group the books under month headings.
    var byMonth = false
    /// `--where PREDICATE`: the predicate text, not yet parsed (the catalogue parses it).
    var predicate: String?
    /// `--limit N`: print at most this many books (at least 1).
    var limit: Int?
    /// `--json`: print JSON instead of text.
    var json = false
}

/// The options of `books search`.
struct SearchOptions: Equatable, Sendable {
    /// The query: the words given, joined by single spaces (`books search marquez cien` and
    /// `books search "marquez cien"` are the same query).
    var text: String
    /// `--limit N`: print at most this many books (at least 1).
    var limit: Int?
    /// `--json`: print JSON instead of text.
    var json = false
}

/// The options of `books add`, checked for form (not against the catalogue).
struct NewBookOptions: Equatable, Sendable {
    /// `--title`, as typed (may contain any Unicode).
    var title: String
    /// `--author`, as typed.
    var author: String
    /// `--date YYYY-MM-DD`: a real calendar day (leap years checked), year 1 to 9999.
    var publishDate: CalendarDay
    /// `--price P`: the text as typed, a plain decimal number with `.` as separator
    /// (`12.99`, `0`, `1500.5`); exact, never through `Double`.
    var priceText: String
    /// `--color #RRGGBB`: normalised to `#` and six uppercase hex digits, or `nil`.
    var colorHex: String?

    /// The price as an exact `Decimal`, read from ``priceText`` (which the parser has checked
    /// is plain digits, so `Decimal(string:)` reads every digit).
    var price: Decimal {
        Decimal(string: priceText, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    }
}

/// A day of the Gregorian calendar, as typed `YYYY-MM-DD`, with no time zone attached.
struct CalendarDay: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The year, 1 to 9999.
    var year: Int
    /// The month, 1 to 12.
    var month: Int
    /// The day of the month, valid for that month and year.
    var day: Int

    /// `YYYY-MM-DD`.
    var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The start of this day in `timeZone`, in the Gregorian calendar.
    func date(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }
}
