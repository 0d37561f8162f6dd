import Foundation
import Testing

import Persistence

@Suite struct DateTextTests {
    private let utc = TimeZone(identifier: "UTC")!

    private func zone(_ identifier: String) throws -> TimeZone {
        try #require(TimeZone(identifier: identifier))
    }

    // MARK: - Days

    @Test func parsesADayAsMidnightInTheTimeZone() throws {
        #expect(try DateText.parseDay("1970-01-01", timeZone: utc).timeIntervalSince1970 == 0)
        #expect(
            try DateText.parseDay("2024-02-29", timeZone: utc).timeIntervalSince1970
                == 1_709_164_800)
        let paris = try zone("Europe/Paris")
        #expect(
            try DateText.parseDay("2024-07-14", timeZone: paris).timeIntervalSince1970
                == 1_720_908_000)  // 2024-07-13T22:00:00Z
        let newYork = try zone("America/New_York")
        #expect(
            try DateText.parseDay("1969-07-20", timeZone: newYork).timeIntervalSince1970
                == -14_241_600)  // 1969-07-20T04:00:00Z
    }

    @Test(arguments: [
        ("2023-02-30", "'2023-02-30' is not a valid day: February 2023 has 28 days"),
        ("2023-02-29", "'2023-02-29' is not a valid day: February 2023 has 28 days"),
        ("1900-02-29", "'1900-02-29' is not a valid day: February 1900 has 28 days"),
        ("2023-04-31", "'2023-04-31' is not a valid day: April 2023 has 30 days"),
        ("2023-13-01", "'2023-13-01' is not a valid day: there is no month 13"),
        ("2023-00-10", "'2023-00-10' is not a valid day: there is no month 0"),
        ("2023-01-00", "'2023-01-00' is not a valid day: there is no day 0"),
        ("2023-1-01", "'2023-1-01' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"),
        ("23-01-01", "'23-01-01' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"),
        ("2023/01/01", "'2023/01/01' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"),
        (
            " 2023-01-01",
            "' 2023-01-01' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"
        ),
        (
            "2023-01-01T00:00",
            "'2023-01-01T00:00' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"
        ),
        ("２０２３-01-01", "'２０２３-01-01' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"),
        ("", "'' is not a valid day: expected YYYY-MM-DD, such as 2024-02-29"),
    ])
    func rejectsDaysThatDoNotExistOrAreMalformed(text: String, message: String) {
        #expect {
            try DateText.parseDay(text, timeZone: utc)
        } throws: { error in
            (error as? DateTextError)?.description == message
        }
    }

    @Test func acceptsLeapDays() throws {
        for text in ["2024-02-29", "2000-02-29", "1600-02-29"] {
            #expect(
                DateText.formatDay(try DateText.parseDay(text, timeZone: utc), timeZone: utc)
                    == text)
        }
    }

    /// Zones with daylight-saving changes at midnight (São Paulo, Havana, Beirut, Santiago)
    /// and ordinary ones, compared with Foundation's Calendar for every day of several years.
    @Test(arguments: [
        "America/Sao_Paulo", "America/Havana", "Asia/Beirut", "America/Santiago",
        "Europe/London", "America/Los_Angeles", "Asia/Kolkata", "Australia/Lord_Howe", "UTC",
    ])
    func startsDaysWhereCalendarDoes(identifier: String) throws {
        let timeZone = try zone(identifier)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days = DateText.days(year: 2016, month: 1, day: 1)
        let end = DateText.days(year: 2019, month: 12, day: 31)
        while days <= end {
            let (year, month, day) = DateText.civil(fromDays: days)
            let text = String(format: "%04d-%02d-%02d", year, month, day)
            let noon = try #require(
                calendar.date(
                    from: DateComponents(year: year, month: month, day: day, hour: 12)))
            let expected = calendar.startOfDay(for: noon)
            let parsed = try DateText.parseDay(text, timeZone: timeZone)
            #expect(parsed == expected, "\(text) in \(identifier)")
            #expect(DateText.formatDay(parsed, timeZone: timeZone) == text)
            days += 1
        }
    }

    @Test func formatsTheDayAnInstantFallsOnInTheZone() throws {
        let instant = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
        #expect(DateText.formatDay(instant, timeZone: utc) == "2023-11-14")
        #expect(DateText.formatDay(instant, timeZone: try zone("Asia/Tokyo")) == "2023-11-15")
        #expect(DateText.formatDay(instant, timeZone: try zone("Pacific/Honolulu")) == "2023-11-14")
        #expect(
            DateText.formatDay(Date(timeIntervalSince1970: -0.5), timeZone: utc) == "1969-12-31")
        #expect(
            DateText.formatDay(Date(timeIntervalSince1970: -62_135_596_800), timeZone: utc)
                == "0001-01-01")
    }

    @Test func yearMonthFollowsTheZone() throws {
        let instant = Date(timeIntervalSince1970: 1_703_980_800)  // 2023-12-31T00:00:00Z
        #expect(DateText.yearMonth(of: instant, timeZone: utc) == (2023, 12))
        #expect(
            DateText.yearMonth(of: instant.addingTimeInterval(86_400), timeZone: utc) == (2024, 1))
        #expect(
            DateText.yearMonth(of: instant, timeZone: try zone("America/Chicago")) == (2023, 12))
        let newYear = Date(timeIntervalSince1970: 1_704_067_200 - 3_600)  // 23:00Z on 12-31
        #expect(DateText.yearMonth(of: newYear, timeZone: try zone("Europe/Berlin")) == (2024, 1))
        #expect(
            DateText.yearMonth(of: Date(timeIntervalSince1970: -1), timeZone: utc) == (1969, 12))
    }

    @Test func civilDayArithmeticAgreesWithCalendarAndInvertsItself() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        var generator = SplitMix64(seed: 1970)
        // Foundation's Calendar switches to the Julian calendar before October 1582; these
        // functions are proleptic Gregorian throughout, so compare from 1583 on.
        for _ in 0..<500 {
            let days = Int.random(in: -141_000...2_900_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let components = calendar.dateComponents([.year, .month, .day], from: date)
            let (year, month, day) = DateText.civil(fromDays: days)
            #expect([year, month, day] == [components.year, components.month, components.day])
        }
        for days in stride(from: -1_000_000, through: 3_000_000, by: 997) {
            let (year, month, day) = DateText.civil(fromDays: days)
            #expect(DateText.days(year: year, month: month, day: day) == days)
        }
    }

    // MARK: - ISO 8601

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_583_066_096.789, "2020-03-01T12:34:56.789Z"),
        (1_583_066_096.000_25, "2020-03-01T12:34:56.000250Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
        (-14_182_940.0, "1969-07-20T20:17:40Z"),
        (-62_135_596_800.0, "0001-01-01T00:00:00Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59Z"),
        (253_402_300_800.0, "+10000-01-01T00:00:00Z"),
        (-62_167_219_200.0 - 86_400, "-0001-12-31T00:00:00Z"),
    ])
    func formatsInstantsAsISO8601InUTC(seconds: Double, text: String) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(DateText.formatISO8601(date) == text)
        #expect(try DateText.parseISO8601(text) == date)
    }

    @Test func roundTripsWholeMicrosecondsExactlyFromYearOneToNineThousand() throws {
        var generator = SplitMix64(seed: 8601)
        for _ in 0..<3_000 {
            let seconds = Double(
                Int64.random(in: -62_000_000_000...253_000_000_000, using: &generator))
            let microseconds = Double(Int.random(in: 0..<1_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds + microseconds / 1_000_000)
            let text = DateText.formatISO8601(date)
            #expect(try DateText.parseISO8601(text) == date, "\(text)")
            let milliseconds = Date(
                timeIntervalSince1970: seconds + (microseconds / 1_000).rounded(.down) / 1_000)
            let millisecondText = DateText.formatISO8601(milliseconds)
            // Milliseconds take three digits ("….789Z"), not six.
            let fractionLength = millisecondText.drop { $0 != "." }.count
            #expect(fractionLength == 0 || fractionLength == 5)
            #expect(try DateText.parseISO8601(millisecondText) == milliseconds)
        }
        let landmarks = [
            Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: 0),
        ]
        for date in landmarks {
            #expect(try DateText.parseISO8601(DateText.formatISO8601(date)) == date)
        }
    }

    @Test func clampsDatesBeyondSixDigitYearsAndStillParsesThem() throws {
        let farFuture = Date(timeIntervalSince1970: 1e15)
        let clamped = try DateText.parseISO8601(DateText.formatISO8601(farFuture))
        #expect(clamped < farFuture)
        #expect(clamped.timeIntervalSince1970 == 31_000_000_000_000)
        let farPast = DateText.formatISO8601(Date(timeIntervalSince1970: -1e15))
        #expect(farPast.hasPrefix("-9"))
        #expect(try DateText.parseISO8601(farPast).timeIntervalSince1970 == -31_000_000_000_000)
    }

    @Test func datesOnTheReferenceDateBasisComeBackWithinAMicrosecond() throws {
        var generator = SplitMix64(seed: 2001)
        for _ in 0..<1_000 {
            let seconds = Double(
                Int64.random(in: -3_000_000_000...3_000_000_000, using: &generator))
            let fraction = Double.random(in: 0..<1, using: &generator)
            let date = Date(timeIntervalSinceReferenceDate: seconds + fraction)
            let back = try DateText.parseISO8601(DateText.formatISO8601(date))
            // Half a microsecond of rounding, plus the double's resolution at this distance.
            #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
        }
    }

    @Test func roundsFinerDetailToTheNearestMicrosecond() throws {
        let date = Date(timeIntervalSince1970: 1_600_000_000.123_456_7)
        let text = DateText.formatISO8601(date)
        #expect(text == "2020-09-13T12:26:40.123457Z")
        #expect(abs(try DateText.parseISO8601(text).timeIntervalSince(date)) < 0.000_001)
    }

    @Test func agreesWithISO8601DateFormatterOnWholeSeconds() {
        let formatter = ISO8601DateFormatter()
        var generator = SplitMix64(seed: 3339)
        for _ in 0..<300 {
            let date = Date(
                timeIntervalSince1970: Double(
                    Int.random(
                        in: -2_000_000_000...4_000_000_000, using: &generator)))
            #expect(DateText.formatISO8601(date) == formatter.string(from: date))
        }
    }

    @Test func parsesOffsetsAndFractionsOfAnyPrecision() throws {
        let utcText = try DateText.parseISO8601("2020-03-01T12:34:56Z")
        #expect(try DateText.parseISO8601("2020-03-01T14:34:56+02:00") == utcText)
        #expect(try DateText.parseISO8601("2020-03-01T07:04:56-05:30") == utcText)
        #expect(
            try DateText.parseISO8601("2020-03-01T12:34:56.5Z")
                == utcText.addingTimeInterval(0.5))
        let nanoseconds = try DateText.parseISO8601("2020-03-01T12:34:56.123456789Z")
        #expect(abs(nanoseconds.timeIntervalSince(utcText) - 0.123456789) < 1e-6)
    }

    @Test(arguments: [
        (
            "2020-03-01T12:34:56",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        (
            "2020-03-01T12:34:56z",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        (
            "2020-03-01 12:34:56Z",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        (
            "2020-03-01T12:34:56.Z",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        (
            "2020-03-01T12:34:56.1234567890Z",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        (
            "2020-03-01T12:34:56+0200",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        (
            "2020-03-01T12:34:56Z ",
            "expected YYYY-MM-DDTHH:MM:SS with an optional fraction, then Z or ±HH:MM"
        ),
        ("2020-02-30T12:34:56Z", "February 2020 has 29 days"),
        ("2020-03-01T24:00:00Z", "hour 24 is out of range (0–23)"),
        ("2020-03-01T12:60:00Z", "minute 60 is out of range (0–59)"),
        ("2016-12-31T23:59:60Z", "second 60 is out of range (0–59)"),
        ("2020-03-01T12:00:00+24:00", "offset hour 24 is out of range (0–23)"),
    ])
    func rejectsMalformedTimestampsNamingTheProblem(text: String, reason: String) {
        #expect {
            try DateText.parseISO8601(text)
        } throws: { error in
            (error as? DateTextError)?.description
                == "'\(text)' is not an ISO 8601 date and time: \(reason)"
        }
    }
}
