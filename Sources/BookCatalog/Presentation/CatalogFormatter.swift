import Foundation
import Persistence

/// Formats the catalogue's dates, month headings and prices for one user's locale and time
/// zone.
///
/// Create one per process (from ``UserEnvironment``) and reuse it: its date formatters are
/// built once (setting one up costs more than formatting many dates), month headings and
/// days are cached, and a price is formatted by hand from the locale's symbols, which are
/// read once.
///
/// All dates use the Gregorian calendar, whatever the locale's default (Thai, Persian and
/// Japanese-era locales included), so that a heading always names the month the catalogue
/// grouped the book under.
///
/// Not `Sendable`: `DateFormatter` is not safe to share between threads; use one formatter
/// per thread.
public final class CatalogFormatter {
    /// The locale of dates and month headings.
    public let locale: Locale
    /// The locale of prices.
    public let priceLocale: Locale
    /// The time zone dates are shown in.
    public let timeZone: TimeZone
    /// The time zone in which stored calendar days start at midnight (UTC by default).
    public let dayTimeZone: TimeZone

    private let calendar: Calendar
    private let monthFormatter: DateFormatter
    private let dateFormatter: DateFormatter
    private let dayFormatter: DateFormatter
    private let symbols: NumberSymbols
    private var monthHeadings: [Int: String] = [:]
    /// Days already written by ``day(_:)``, by their instant: a listing writes the same
    /// publication days many times, and ICU's formatting is a large share of a long
    /// listing. Emptied when it reaches `dayCacheLimit`, so that memory stays bounded.
    private var days: [Date: String] = [:]
    private static let dayCacheLimit = 4_096

    /// Creates a formatter for dates and prices in `locale` and `timeZone`.
    public convenience init(locale: Locale, timeZone: TimeZone) {
        self.init(locale: locale, priceLocale: locale, timeZone: timeZone)
    }

    /// Creates a formatter for the user's environment: dates in its time locale, prices in
    /// its monetary locale.
    public convenience init(environment: UserEnvironment) {
        self.init(
            locale: environment.timeLocale, priceLocale: environment.monetaryLocale,
            timeZone: environment.timeZone)
    }

    /// Creates a formatter with separate locales for dates and prices.
    ///
    /// - Parameter dayTimeZone: the zone in which stored days start (see ``day(_:)``).
    public init(
        locale: Locale, priceLocale: Locale, timeZone: TimeZone,
        dayTimeZone: TimeZone = UserEnvironment.utc
    ) {
        self.locale = locale
        self.priceLocale = priceLocale
        self.timeZone = timeZone
        self.dayTimeZone = dayTimeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        self.calendar = calendar

        monthFormatter = DateFormatter()
        monthFormatter.locale = locale
        monthFormatter.calendar = calendar
        monthFormatter.timeZone = timeZone
        monthFormatter.setLocalizedDateFormatFromTemplate("yMMMM")

        dateFormatter = DateFormatter()
        dateFormatter.locale = locale
        dateFormatter.calendar = calendar
        dateFormatter.timeZone = timeZone
        dateFormatter.dateStyle = .medium
        dateFormatter.timeStyle = .none

        var dayCalendar = calendar
        dayCalendar.timeZone = dayTimeZone
        dayFormatter = DateFormatter()
        dayFormatter.locale = locale
        dayFormatter.calendar = dayCalendar
        dayFormatter.timeZone = dayTimeZone
        dayFormatter.dateStyle = .medium
        dayFormatter.timeStyle = .none

        // The store's days are proleptic Gregorian (DateText); without this, ICU switches to
        // the Julian calendar before 1582 and 1490-01-01 would print as 23 Dec 1489.
        for formatter in [monthFormatter, dateFormatter, dayFormatter] {
            formatter.gregorianStartDate = Date.distantPast
        }
        symbols = NumberSymbols(locale: priceLocale)
    }

    // MARK: - Dates

    /// The month and year as a heading in the locale's own `yMMMM` pattern: "mars 2020"
    /// (fr_FR), "März 2020" (de_DE), "2020年3月" (ja_JP), "March 2020" (en_US).
    ///
    /// The capitalisation is the locale's for a month inside a date (French and Russian month
    /// names are lowercase): Foundation on Linux has no `formattingContext` to ask for
    /// sentence case. A month outside 1...12 gives `"year-month"` in digits rather than a
    /// wrong name.
    public func monthHeading(year: Int, month: Int) -> String {
        let key = year * 100 + month
        if let cached = monthHeadings[key] { return cached }
        guard (1...12).contains(month),
            let date = calendar.date(
                from: DateComponents(year: year, month: month, day: 15, hour: 12))
        else { return "\(year)-\(month)" }
        let heading = monthFormatter.string(from: date)
        monthHeadings[key] = heading
        return heading
    }

    /// The heading for a `publishMonthID` (`year * 1000 + month`, such as "1967005"), as
    /// ``monthHeading(year:month:)`` writes it; text that is not such a number is returned
    /// unchanged.
    public func monthHeading(monthID: String) -> String {
        guard let id = Int(monthID), id > 0 else { return monthID }
        return monthHeading(year: id / 1000, month: id % 1000)
    }

    /// The date in the locale's medium style, in ``timeZone``: "1 mars 2020" (fr_FR),
    /// "01.03.2020" (de_DE), "2020/03/01" (ja_JP), "Mar 1, 2020" (en_US).
    ///
    /// For an instant (a time stamp). For a calendar day stored as the midnight that starts
    /// it, such as a book's publication day, use ``day(_:)``: west of the day's zone the
    /// instant falls on the previous evening.
    public func date(_ date: Date) -> String {
        dateFormatter.string(from: date)
    }

    /// The calendar day that starts at `midnight` in ``dayTimeZone`` (the catalogue stores
    /// days as midnight UTC), in the locale's medium style, whatever the user's time zone:
    /// the day 2020-03-01 is "Mar 1, 2020" in New York as in Tokyo.
    public func day(_ midnight: Date) -> String {
        if let text = days[midnight] { return text }
        if days.count >= Self.dayCacheLimit { days.removeAll(keepingCapacity: true) }
        let text = dayFormatter.string(from: midnight)
        days[midnight] = text
        return text
    }

    /// A publication date as far as it is known: the day as ``day(_:)`` writes it, the month
    /// as ``monthHeading(year:month:)`` does ("April 1925"), or the year alone ("1961").
    public func day(_ midnight: Date, precision: DatePrecision) -> String {
        switch precision {
        case .day:
            return day(midnight)
        case .month:
            let (year, month) = DateText.yearMonth(of: midnight, timeZone: dayTimeZone)
            return monthHeading(year: year, month: month)
        case .year:
            return String(DateText.yearMonth(of: midnight, timeZone: dayTimeZone).year)
        }
    }

    // MARK: - Prices

    /// The price as a number in the price locale, with at least two decimals and every
    /// digit of the value: "12,99" (fr_FR, de_DE), "12.99" (en_US, ja_JP), "1 234,50"
    /// (fr_FR, with a narrow no-break space), "1234.50" (C).
    ///
    /// No currency symbol is shown: the catalogue's prices carry no currency, and showing
    /// the locale's would invent one. The digits come from the decimal's own text, never
    /// through `Double`, so nothing is rounded; more than two decimals are kept. The
    /// locale's digits (Arabic-Indic in `ar_EG`), separators, grouping size and
    /// minimum-grouping rule (`es_ES` writes 1234 but 12.345) are read once from ICU; the
    /// C/POSIX locale groups nothing, like `printf`. NaN is written "NaN". The plain digits
    /// come from `DecimalText.format`, which writes what `Decimal.description` writes from
    /// the decimal's memory, where `description` goes through Foundation's arithmetic.
    public func price(_ value: Decimal) -> String {
        symbols.format(plainDecimal: DecimalText.format(value), minimumFractionDigits: 2)
    }
}

// MARK: - Number symbols

/// What a locale writes for digits, separators and grouping, read once.
struct NumberSymbols {
    /// The ten digits 0–9 in the locale's numbering system, as UTF-8.
    let digitBytes: [[UInt8]]
    /// The decimal separator, as UTF-8.
    let decimalSeparatorBytes: [UInt8]
    /// The grouping separator as UTF-8 (empty when the locale does not group).
    let groupingSeparatorBytes: [UInt8]
    /// The size of the group next to the decimal separator.
    let primaryGroupSize: Int
    /// The size of the other groups (the primary size when the locale has no other).
    let secondaryGroupSize: Int
    /// The fewest integer digits before grouping starts (4 in most locales, 5 in es_ES).
    let minimumGroupedLength: Int
    /// The minus sign as UTF-8, with any direction marks the locale puts around it.
    let minusSignBytes: [UInt8]

    /// Reads the symbols of `locale` from a `NumberFormatter`, used only here.
    init(locale: Locale) {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .decimal
        let digits = (0...9).compactMap { formatter.string(from: NSNumber(value: $0)) }
        digitBytes =
            digits.count == 10 && digits.allSatisfy({ $0.count == 1 })
            ? digits.map { Array($0.utf8) } : (0...9).map { Array(String($0).utf8) }
        decimalSeparatorBytes = Array(
            (formatter.decimalSeparator ?? locale.decimalSeparator ?? ".").utf8)
        primaryGroupSize = formatter.groupingSize > 0 ? formatter.groupingSize : 3
        secondaryGroupSize =
            formatter.secondaryGroupingSize > 0 ? formatter.secondaryGroupingSize : primaryGroupSize
        // Probe where grouping starts: 1,000 in most locales, 10.000 in es_ES, never in C.
        let separator = formatter.groupingSeparator ?? locale.groupingSeparator ?? ""
        let groupsThousands = (formatter.string(from: 1000) ?? "").contains(separator)
        let groupsLarger = (formatter.string(from: 1_000_000) ?? "").contains(separator)
        let isPOSIX = locale.identifier == UserEnvironment.posixLocaleIdentifier
        groupingSeparatorBytes =
            isPOSIX || separator.isEmpty || !groupsLarger ? [] : Array(separator.utf8)
        minimumGroupedLength = primaryGroupSize + (groupsThousands ? 1 : 2)
        minusSignBytes = Array((formatter.minusSign ?? "-").utf8)
    }

    /// Formats the plain text of a decimal (`-1234.5`, as `Decimal.description` writes it)
    /// with these symbols, padding the fraction with zeros to `minimumFractionDigits`.
    /// Text that is not a plain decimal (such as "NaN") is returned unchanged. Works on UTF-8
    /// bytes, not on characters.
    func format(plainDecimal text: String, minimumFractionDigits: Int) -> String {
        let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9"), dot = UInt8(ascii: ".")
        var bytes = Array(text.utf8)[...]
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative { bytes = bytes.dropFirst() }
        let dotIndex = bytes.firstIndex(of: dot)
        let integer = bytes[..<(dotIndex ?? bytes.endIndex)]
        let fraction = dotIndex.map { bytes[bytes.index(after: $0)...] } ?? []
        guard !integer.isEmpty, integer.allSatisfy({ (zero...nine).contains($0) }),
            fraction.allSatisfy({ (zero...nine).contains($0) })
        else { return text }

        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 2 + 8)
        if isNegative && bytes.contains(where: { $0 != zero && $0 != dot }) {
            output += minusSignBytes
        }
        let groups = !groupingSeparatorBytes.isEmpty && integer.count >= minimumGroupedLength
        var remaining = integer.count
        for digit in integer {
            output += digitBytes[Int(digit - zero)]
            remaining -= 1
            if groups && remaining > 0
                && (remaining == primaryGroupSize
                    || (remaining > primaryGroupSize
                        && (remaining - primaryGroupSize) % secondaryGroupSize == 0))
            {
                output += groupingSeparatorBytes
            }
        }
        let padding = max(0, minimumFractionDigits - fraction.count)
        if fraction.count + padding > 0 {
            output += decimalSeparatorBytes
            for digit in fraction { output += digitBytes[Int(digit - zero)] }
            for _ in 0..<padding { output += digitBytes[0] }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
