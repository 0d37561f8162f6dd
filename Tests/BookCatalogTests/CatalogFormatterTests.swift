import Foundation
import Testing

@testable import BookCatalog

/// Month headings, dates and prices in the user's locale (strings measured on this machine's
/// Foundation, swift-corelibs-foundation with ICU, Swift 6.3).
@Suite struct CatalogFormatterTests {
    static let utc = TimeZone(secondsFromGMT: 0)!

    func formatter(_ identifier: String, timeZone: TimeZone = utc) -> CatalogFormatter {
        CatalogFormatter(locale: Locale(identifier: identifier), timeZone: timeZone)
    }

    /// 2020-03-01 12:00 UTC.
    let firstOfMarch = Date(timeIntervalSince1970: 1_583_064_000)

    // MARK: - Month headings

    @Test(arguments: [
        ("fr_FR", "mars 2020"), ("de_DE", "März 2020"), ("ja_JP", "2020年3月"),
        ("en_US", "March 2020"), ("en_US_POSIX", "March 2020"), ("es_ES", "marzo de 2020"),
        ("ru_RU", "март 2020\u{202F}г."),
    ])
    func monthHeadingUsesTheLocalesOwnPattern(identifier: String, expected: String) {
        #expect(formatter(identifier).monthHeading(year: 2020, month: 3) == expected)
    }

    @Test func monthHeadingStaysGregorianInLocalesWithAnotherCalendar() {
        #expect(formatter("th_TH").monthHeading(year: 2020, month: 3) == "มีนาคม 2020")
    }

    @Test func monthHeadingDoesNotDependOnTheTimeZone() throws {
        let kiritimati = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
        let samoa = try #require(TimeZone(identifier: "Pacific/Pago_Pago"))
        for zone in [kiritimati, samoa] {
            let headings = (1...12).map {
                formatter("en_US", timeZone: zone).monthHeading(year: 2021, month: $0)
            }
            #expect(headings.first == "January 2021")
            #expect(headings.last == "December 2021")
        }
    }

    @Test func monthHeadingRefusesMonthsOutsideTheYear() {
        let french = formatter("fr_FR")
        #expect(french.monthHeading(year: 2020, month: 13) == "2020-13")
        #expect(french.monthHeading(year: 2020, month: 0) == "2020-0")
        #expect(french.monthHeading(year: 2020, month: 12) == "décembre 2020")
    }

    @Test func monthHeadingReadsAPublishMonthID() {
        let german = formatter("de_DE")
        #expect(german.monthHeading(monthID: "1967005") == "Mai 1967")
        #expect(german.monthHeading(monthID: "2020012") == "Dezember 2020")
        #expect(german.monthHeading(monthID: "2020013") == "2020-13")
        #expect(german.monthHeading(monthID: "soon") == "soon")
    }

    // MARK: - Dates

    @Test(arguments: [
        ("fr_FR", "1 mars 2020"), ("de_DE", "01.03.2020"), ("ja_JP", "2020/03/01"),
        ("en_US", "Mar 1, 2020"), ("en_US_POSIX", "Mar 1, 2020"),
    ])
    func dateUsesTheMediumStyle(identifier: String, expected: String) {
        #expect(formatter(identifier).date(firstOfMarch) == expected)
    }

    @Test func dateIsShownInTheUsersTimeZone() throws {
        let lateOnFebruary29 = Date(timeIntervalSince1970: 1_583_020_800 - 3600)  // 23:00 UTC
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(formatter("en_US").date(lateOnFebruary29) == "Feb 29, 2020")
        #expect(formatter("en_US", timeZone: paris).date(lateOnFebruary29) == "Mar 1, 2020")
    }

    @Test func storedDaysKeepTheirDateInEveryTimeZone() throws {
        let midnightUTC = Date(timeIntervalSince1970: 1_583_020_800)  // 2020-03-01 00:00 UTC
        for name in ["America/New_York", "Asia/Tokyo", "Pacific/Pago_Pago", "Pacific/Kiritimati"] {
            let zone = try #require(TimeZone(identifier: name))
            let catalog = formatter("en_US", timeZone: zone)
            #expect(catalog.day(midnightUTC) == "Mar 1, 2020", "in \(name)")
        }
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        #expect(formatter("en_US", timeZone: newYork).date(midnightUTC) == "Feb 29, 2020")
    }

    @Test func environmentChoosesDateAndPriceLocalesSeparately() {
        let environment = UserEnvironment(environment: [
            "LC_TIME": "de_DE.UTF-8", "LC_MONETARY": "en_US.UTF-8", "TZ": "UTC",
        ])
        let catalog = CatalogFormatter(environment: environment)
        #expect(catalog.monthHeading(year: 2020, month: 3) == "März 2020")
        #expect(catalog.price(Decimal(string: "1234.5")!) == "1,234.50")
    }

    // MARK: - Prices

    @Test(arguments: [
        ("fr_FR", "12,99", "1\u{202F}234\u{202F}567,50"), ("de_DE", "12,99", "1.234.567,50"),
        ("ja_JP", "12.99", "1,234,567.50"), ("en_US", "12.99", "1,234,567.50"),
        ("en_US_POSIX", "12.99", "1234567.50"), ("de_CH", "12.99", "1’234’567.50"),
    ])
    func priceUsesTheLocalesSeparators(identifier: String, small: String, large: String) {
        let catalog = formatter(identifier)
        #expect(catalog.price(Decimal(string: "12.99")!) == small)
        #expect(catalog.price(Decimal(string: "1234567.5")!) == large)
    }

    @Test func priceForTheCLocaleComesFromTheEnvironment() {
        let catalog = CatalogFormatter(environment: UserEnvironment(environment: ["LANG": "C"]))
        #expect(catalog.price(Decimal(string: "1234.5")!) == "1234.50")
    }

    @Test func priceKeepsEveryDigitAndPadsToTwoDecimals() {
        let english = formatter("en_US")
        #expect(english.price(Decimal(string: "0")!) == "0.00")
        #expect(english.price(Decimal(string: "7")!) == "7.00")
        #expect(english.price(Decimal(string: "0.1")!) == "0.10")
        #expect(english.price(Decimal(string: "19.999")!) == "19.999")
        #expect(english.price(Decimal(1999) / Decimal(100)) == "19.99")
        #expect(
            english.price(Decimal(string: "12345678901234567890.123456789")!)
                == "12,345,678,901,234,567,890.123456789")
        #expect(english.price(Decimal(string: "-3.5")!) == "-3.50")
        #expect(english.price(.nan) == "NaN")
    }

    @Test func priceFollowsTheLocalesMinimumGrouping() {
        let spanish = formatter("es_ES")
        #expect(spanish.price(Decimal(string: "1234.5")!) == "1234,50")
        #expect(spanish.price(Decimal(string: "12345.5")!) == "12.345,50")
    }

    @Test func priceUsesTheLocalesDigits() {
        #expect(formatter("ar_EG").price(Decimal(string: "1234.5")!) == "١٬٢٣٤٫٥٠")
    }

    @Test func numberSymbolsGroupFromTheRight() {
        let symbols = NumberSymbols(locale: Locale(identifier: "en_US"))
        #expect(symbols.format(plainDecimal: "100", minimumFractionDigits: 0) == "100")
        #expect(symbols.format(plainDecimal: "1000", minimumFractionDigits: 0) == "1,000")
        #expect(symbols.format(plainDecimal: "123456", minimumFractionDigits: 0) == "123,456")
        #expect(symbols.format(plainDecimal: "1234567", minimumFractionDigits: 1) == "1,234,567.0")
        #expect(symbols.format(plainDecimal: "-0", minimumFractionDigits: 2) == "0.00")
        #expect(symbols.format(plainDecimal: "1e5", minimumFractionDigits: 2) == "1e5")
    }

    /// A price's digits come from `DecimalText.format`, not `Decimal.description`: the two
    /// must write the same price for every decimal, large, tiny, negative, zero and NaN.
    @Test func priceWritesWhatTheDecimalsDescriptionWrites() {
        let symbols = NumberSymbols(locale: Locale(identifier: "en_US"))
        let english = formatter("en_US")
        var random = SystemRandomNumberGenerator()
        var values: [Decimal] = [.nan, 0, -0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        for _ in 0..<2_000 {
            let mantissa = Decimal(UInt64.random(in: 0...UInt64.max, using: &random))
            let scaled = mantissa * Decimal(sign: .plus, exponent: Int.random(in: -40...40, using: &random), significand: 1)
            values.append(Bool.random(using: &random) ? scaled : -scaled)
            values.append(Decimal(Int.random(in: -100_000...100_000, using: &random)) / 100)
        }
        for value in values {
            let expected = symbols.format(plainDecimal: value.description, minimumFractionDigits: 2)
            #expect(english.price(value) == expected, "\(value.description)")
        }
    }

    /// Days are cached by their instant: what comes back from the cache, and after it was
    /// emptied, is what the formatter writes.
    @Test func cachedDaysAreTheFormattersDays() {
        let cached = formatter("fr_FR")
        let fresh = DateFormatter()
        fresh.locale = Locale(identifier: "fr_FR")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        fresh.calendar = calendar
        fresh.timeZone = Self.utc
        fresh.dateStyle = .medium
        fresh.timeStyle = .none
        for round in 0..<3 {
            for day in stride(from: -3_000, to: 3_000, by: 1 + round) {
                let midnight = Date(timeIntervalSince1970: Double(day) * 86_400)
                #expect(cached.day(midnight) == fresh.string(from: midnight))
            }
        }
    }
}
