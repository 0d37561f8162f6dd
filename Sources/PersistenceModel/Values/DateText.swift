import Foundation

/// Days and timestamps as text, by arithmetic: no `DateFormatter` (slow on Linux, and these
/// paths run for every value listed or read) and no `Calendar` in these paths.
///
/// - ``parseDay(_:timeZone:)`` / ``formatDay(_:timeZone:)``: a calendar day `YYYY-MM-DD`
///   in the proleptic Gregorian calendar, as the instant it starts in a time zone.
/// - ``parseISO8601(_:)`` / ``formatISO8601(_:)``: an instant as ISO 8601 / RFC 3339 text
///   in UTC, `2020-03-01T12:34:56.789Z`.
/// - ``yearMonth(of:timeZone:)``: the calendar month an instant falls in, for grouping.
public enum DateText {
    /// Parses a day written `YYYY-MM-DD` (four-digit year, two-digit month and day) and
    /// returns the instant that day starts in `timeZone`.
    ///
    /// The day must exist: `2024-02-29` is accepted, `2023-02-29`, `2023-02-30` and
    /// `2023-13-01` are not. The result is local midnight; on the rare days whose midnight a
    /// daylight-saving change skips, it is the first instant of the day (the change itself,
    /// so 01:00 local time), and where midnight happens twice it is the first one.
    ///
    /// - Throws: ``DateTextError`` naming the text and what is wrong with it.
    public static func parseDay(_ text: String, timeZone: TimeZone) throws(DateTextError) -> Date {
        var copy = text
        let parsed = copy.withUTF8 { bytes -> DateScan<Int> in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                let year = number(bytes, 0, 4), let month = number(bytes, 5, 2),
                let day = number(bytes, 8, 2)
            else { return .failure(.malformed) }
            return validatedDays(year: year, month: month, day: day)
        }
        switch parsed {
        case .success(let days):
            return startOfDay(days: days, timeZone: timeZone)
        case .failure(let reason):
            throw DateTextError(text: text, format: .day, reason: reason)
        }
    }

    /// The calendar day `date` falls on in `timeZone`, written `YYYY-MM-DD`.
    ///
    /// Years outside 0…9999 are written with a sign and at least four digits (`-0001`,
    /// `+10000`), as ISO 8601's expanded form does; ``parseDay(_:timeZone:)`` accepts only
    /// four-digit years.
    public static func formatDay(_ date: Date, timeZone: TimeZone) -> String {
        let local = secondsSince1970(date) + Int64(timeZone.secondsFromGMT(for: date))
        let (year, month, day) = civil(fromDays: Int(floorDivide(local, 86_400)))
        var text = DateTextBuilder(capacity: 16)
        text.appendYear(year)
        text.append("-", month, width: 2)
        text.append("-", day, width: 2)
        return text.string
    }

    /// The year and month `date` falls in, in `timeZone`; by arithmetic, for grouping many
    /// dates quickly.
    public static func yearMonth(of date: Date, timeZone: TimeZone) -> (year: Int, month: Int) {
        let local = secondsSince1970(date) + Int64(timeZone.secondsFromGMT(for: date))
        let (year, month, _) = civil(fromDays: Int(floorDivide(local, 86_400)))
        return (year, month)
    }

    /// `date` as ISO 8601 text in UTC: `2020-03-01T12:34:56Z`, `2020-03-01T12:34:56.789Z` or
    /// `2020-03-01T12:34:56.789012Z`.
    ///
    /// The fraction has as many digits as needed, up to microseconds: none for a whole
    /// second, three when milliseconds reproduce the date exactly, else six. A date made
    /// from a whole number of microseconds since 1970 (as the store makes them) therefore
    /// round-trips exactly through ``parseISO8601(_:)``; finer detail, as in `Date()`, is
    /// rounded to the nearest microsecond. Years outside 0…9999 use ISO 8601's expanded
    /// form (`-0001`, `+10000`). Dates more than 980,000 years from 1970 are clamped to
    /// that, which keeps years within the six digits ``parseISO8601(_:)`` reads.
    public static func formatISO8601(_ date: Date) -> String {
        let since1970 = date.timeIntervalSince1970
        var whole = since1970.rounded(.down)
        let fraction = since1970 - whole
        var digits = 0
        var fractionValue = 0
        if fraction > 0 && fraction.isFinite {
            // The candidate that parses back to this very date, as parseISO8601 computes it.
            func reproduces(_ count: Double, per second: Double) -> Bool {
                (0..<second).contains(count)
                    && Date(timeIntervalSince1970: whole + count / second) == date
            }
            let milliseconds = (fraction * 1_000).rounded()
            if reproduces(milliseconds, per: 1_000) {
                digits = 3
                fractionValue = Int(milliseconds)
            } else {
                let nearest = (fraction * 1_000_000).rounded()
                var microseconds = nearest
                if !reproduces(nearest, per: 1_000_000) {
                    // Double rounding can leave the exact value one microsecond away.
                    if reproduces(nearest - 1, per: 1_000_000) {
                        microseconds = nearest - 1
                    } else if reproduces(nearest + 1, per: 1_000_000) {
                        microseconds = nearest + 1
                    }
                }
                if microseconds >= 1_000_000 {
                    whole += 1
                } else {
                    digits = 6
                    fractionValue = Int(microseconds)
                }
            }
        }
        let seconds = clampedSeconds(whole)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: Int(days))
        var text = DateTextBuilder(capacity: 32)
        text.appendYear(year)
        text.append("-", month, width: 2)
        text.append("-", day, width: 2)
        text.append("T", secondOfDay / 3_600, width: 2)
        text.append(":", secondOfDay / 60 % 60, width: 2)
        text.append(":", secondOfDay % 60, width: 2)
        if digits > 0 { text.append(".", fractionValue, width: digits) }
        text.append(UInt8(ascii: "Z"))
        return text.string
    }

    /// Parses ISO 8601 / RFC 3339 text: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of one
    /// to nine digits, then `Z` or an offset `+HH:MM` / `-HH:MM`.
    ///
    /// Reads everything ``formatISO8601(_:)`` writes, including expanded years (a sign and
    /// four to six digits). Upper-case `T` and `Z` only; no leap second 60.
    ///
    /// - Throws: ``DateTextError`` naming the text and what is wrong with it.
    public static func parseISO8601(_ text: String) throws(DateTextError) -> Date {
        var copy = text
        let parsed = copy.withUTF8 { bytes in
            var scanner = ISO8601Scanner(bytes: UnsafeRawBufferPointer(bytes))
            return scanner.scan()
        }
        switch parsed {
        case .success(let (seconds, nanoseconds)):
            return Date(
                timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
        case .failure(let reason):
            throw DateTextError(text: text, format: .iso8601, reason: reason)
        }
    }

    // MARK: - Calendar arithmetic

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar
    /// (Howard Hinnant's `days_from_civil`).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the proleptic Gregorian calendar that is `days` days from 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    package static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra =
            (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month of the Gregorian calendar.
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970 of a day whose fields have been read, or why it does not exist.
    fileprivate static func validatedDays(
        year: Int, month: Int, day: Int
    ) -> DateScan<Int> {
        guard (1...12).contains(month) else { return .failure(.noSuchMonth(month)) }
        guard (1...daysInMonth(year: year, month: month)).contains(day) else {
            return .failure(.noSuchDay(year: year, month: month, day: day))
        }
        return .success(days(year: year, month: month, day: day))
    }

    /// The first instant of the day `days` days after 1970-01-01 in `timeZone`.
    ///
    /// Local midnight is `days × 86400` seconds of local time; the offset to subtract is the
    /// zone's offset at that instant, which is not known until the instant is. Offsets a day
    /// before and after bracket it: when they agree, that is the offset; when they differ,
    /// each candidate is checked against the offset in force at it. If both check out,
    /// midnight happens twice and the first one is taken; if neither does, midnight falls
    /// in a gap and the day starts at the change.
    package static func startOfDay(days: Int, timeZone: TimeZone) -> Date {
        let local = Double(days) * 86_400
        func offset(at seconds: Double) -> Double {
            Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        }
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        if before == after { return Date(timeIntervalSince1970: local - before) }
        let withBefore = local - before
        let withAfter = local - after
        let beforeHolds = offset(at: withBefore) == before
        let afterHolds = offset(at: withAfter) == after
        let start: Double
        switch (beforeHolds, afterHolds) {
        case (true, true): start = min(withBefore, withAfter)
        case (true, false): start = withBefore
        case (false, true): start = withAfter
        case (false, false): start = max(withBefore, withAfter)
        }
        return Date(timeIntervalSince1970: start)
    }

    // MARK: - Helpers

    /// The largest number of seconds from 1970 that formatting handles (about 980,000
    /// years, so years keep to six digits); further dates are clamped to it.
    private static let secondsLimit: Double = 31_000_000_000_000

    private static func clampedSeconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else {
            return seconds < 0 ? -Int64(secondsLimit) : Int64(secondsLimit)
        }
        return Int64(min(max(seconds, -secondsLimit), secondsLimit))
    }

    /// Whole seconds from 1970 to `date`, rounded down (so a date just before midnight
    /// belongs to the day before).
    private static func secondsSince1970(_ date: Date) -> Int64 {
        clampedSeconds(date.timeIntervalSince1970.rounded(.down))
    }

    /// Division rounding towards negative infinity.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// The decimal number in `count` ASCII digits at `start`, or nil if any is not a digit.
    fileprivate static func number(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int
    ) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}

// MARK: - Errors

/// Text that ``DateText`` refused, and why.
///
/// The description names the text and the reason, for example
/// `'2023-02-30' is not a valid day: February 2023 has 28 days`.
public struct DateTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The form of text that was expected.
    public enum Format: Equatable, Sendable {
        /// A day, `YYYY-MM-DD`.
        case day
        /// An ISO 8601 date and time, `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
        case iso8601
        /// A date as people type one: a year, a month, a day or an ISO 8601 date and time
        /// (``DateText/parseTypedDate(_:timeZone:)``).
        case typedDate
    }

    /// Why a text is not a date.
    public enum Reason: Equatable, Sendable {
        /// The text does not have the expected shape.
        case malformed
        /// The month is not 1 to 12.
        case noSuchMonth(Int)
        /// The month has no such day.
        case noSuchDay(year: Int, month: Int, day: Int)
        /// A time or offset field is out of its range.
        case outOfRange(field: String, value: Int, range: ClosedRange<Int>)
    }

    /// The text that was refused.
    public let text: String
    /// The form that was expected.
    public let format: Format
    /// Why it was refused.
    public let reason: Reason

    /// Creates an error for `text`.
    public init(text: String, format: Format, reason: Reason) {
        self.text = text
        self.format = format
        self.reason = reason
    }

    /// A sentence naming the text and the reason.
    public var description: String {
        let subject: String
        let shape: String
        switch format {
        case .day:
            subject = "'\(QuotedText.excerpt(text))' is not a valid day"
            shape = "expected YYYY-MM-DD, such as 2024-02-29"
        case .iso8601:
            subject = "'\(QuotedText.excerpt(text))' is not an ISO 8601 date and time"
            shape = "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        case .typedDate:
            subject = "'\(QuotedText.excerpt(text))' is not a date"
            shape = "expected YYYY, YYYY-MM, YYYY-MM-DD or a date and time such as 2020-01-01T12:00:00Z"
        }
        switch reason {
        case .malformed:
            return "\(subject): \(shape)"
        case .noSuchMonth(let month):
            return "\(subject): there is no month \(month)"
        case .noSuchDay(let year, let month, let day):
            let length = DateText.daysInMonth(year: year, month: month)
            if day == 0 { return "\(subject): there is no day 0" }
            return "\(subject): \(Self.monthNames[month - 1]) \(year) has \(length) days"
        case .outOfRange(let field, let value, let range):
            return "\(subject): \(field) \(value) is out of range "
                + "(\(range.lowerBound)–\(range.upperBound))"
        }
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]
}

// MARK: - Scanning and writing

/// The outcome of reading text: a value, or why there is none. (`Result` would require the
/// reason to be an `Error` itself.)
private enum DateScan<Value> {
    case success(Value)
    case failure(DateTextError.Reason)
}

/// Reads ISO 8601 text into seconds since 1970 and nanoseconds.
private struct ISO8601Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads `count` digits, or fails without consuming them.
    private mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let digit = bytes[index + offset] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        index += count
        return value
    }

    /// Consumes `byte` if it is next.
    private mutating func skip(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads the year: four digits, or a sign and four to six digits.
    private mutating func year() -> Int? {
        let negative = skip(UInt8(ascii: "-"))
        guard negative || skip(UInt8(ascii: "+")) else { return digits(4) }
        let start = index
        while index < bytes.count, bytes[index] &- 0x30 < 10, index - start < 6 { index += 1 }
        let count = index - start
        index = start
        guard count >= 4, let value = digits(count) else { return nil }
        return negative ? -value : value
    }

    mutating func scan() -> DateScan<(seconds: Int64, nanoseconds: Int64)> {
        guard let year = year(), skip(UInt8(ascii: "-")), let month = digits(2),
            skip(UInt8(ascii: "-")), let day = digits(2), skip(UInt8(ascii: "T")),
            let hour = digits(2), skip(UInt8(ascii: ":")), let minute = digits(2),
            skip(UInt8(ascii: ":")), let second = digits(2)
        else { return .failure(.malformed) }
        var nanoseconds = 0
        if skip(UInt8(ascii: ".")) {
            let start = index
            while index < bytes.count, bytes[index] &- 0x30 < 10 { index += 1 }
            let count = index - start
            guard (1...9).contains(count) else { return .failure(.malformed) }
            index = start
            guard let fraction = digits(count) else { return .failure(.malformed) }
            nanoseconds = fraction
            for _ in count..<9 { nanoseconds *= 10 }
        }
        var offsetSeconds = 0
        if !skip(UInt8(ascii: "Z")) {
            let negative = skip(UInt8(ascii: "-"))
            guard negative || skip(UInt8(ascii: "+")), let hours = digits(2),
                skip(UInt8(ascii: ":")), let minutes = digits(2)
            else { return .failure(.malformed) }
            if hours > 23 {
                return .failure(.outOfRange(field: "offset hour", value: hours, range: 0...23))
            }
            if minutes > 59 {
                return .failure(.outOfRange(field: "offset minute", value: minutes, range: 0...59))
            }
            offsetSeconds = (hours * 3_600 + minutes * 60) * (negative ? -1 : 1)
        }
        guard index == bytes.count else { return .failure(.malformed) }
        let days: Int
        switch DateText.validatedDays(year: year, month: month, day: day) {
        case .success(let value): days = value
        case .failure(let reason): return .failure(reason)
        }
        if hour > 23 { return .failure(.outOfRange(field: "hour", value: hour, range: 0...23)) }
        if minute > 59 {
            return .failure(.outOfRange(field: "minute", value: minute, range: 0...59))
        }
        if second > 59 {
            return .failure(.outOfRange(field: "second", value: second, range: 0...59))
        }
        let seconds =
            Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
            - Int64(offsetSeconds)
        return .success((seconds, Int64(nanoseconds)))
    }
}

/// Builds short ASCII text from fixed-width numbers.
private struct DateTextBuilder {
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `separator`, then `value` zero-padded to `width` digits.
    mutating func append(_ separator: Unicode.Scalar, _ value: Int, width: Int) {
        bytes.append(UInt8(ascii: separator))
        appendDigits(value, width: width)
    }

    /// Appends a year: four digits for 0…9999, else a sign and at least four digits.
    mutating func appendYear(_ year: Int) {
        if year < 0 {
            bytes.append(UInt8(ascii: "-"))
        } else if year > 9_999 {
            bytes.append(UInt8(ascii: "+"))
        }
        appendDigits(abs(year), width: 4)
    }

    private mutating func appendDigits(_ value: Int, width: Int) {
        var divisor = 1
        var digitCount = 1
        while divisor <= value / 10 {
            divisor *= 10
            digitCount += 1
        }
        for _ in digitCount..<max(width, digitCount) { bytes.append(UInt8(ascii: "0")) }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / divisor) &+ 0x30)
            rest %= divisor
            divisor /= 10
        }
    }
}
