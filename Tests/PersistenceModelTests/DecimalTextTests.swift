import Foundation
import Testing

import Persistence

@Suite struct DecimalTextTests {
    @Test func parsesNineteenNinetyNineAsExactlyNineteenNinetyNineHundredths() throws {
        let value = try DecimalText.parse("19.99")
        #expect(value == Decimal(sign: .plus, exponent: -2, significand: Decimal(1999)))
        #expect(value.exponent == -2)
        #expect(value.significand == Decimal(1999))
        // The Double route is off by a little; the parser must not take it.
        #expect(value != Decimal(19.99 as Double))
    }

    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("+0.000", "0"), ("007", "7"), ("12.990", "12.99"),
        ("1e3", "1000"), ("1E-5", "0.00001"), ("-1.5e2", "-150"), ("+3.25", "3.25"),
        (".5", "0.5"), ("5.", "5"), ("0.000e999", "0"), ("123.456e-1", "12.3456"),
        ("1e127", "1" + String(repeating: "0", count: 127)),
        ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
        ("10e126", "1" + String(repeating: "0", count: 127)),
    ])
    func parsesAndFormatsCanonically(text: String, canonical: String) throws {
        let value = try DecimalText.parse(text)
        #expect(DecimalText.format(value) == canonical)
        #expect(DecimalText.formatWithoutLayout(value) == canonical)
        #expect(try DecimalText.parse(canonical) == value)
    }

    @Test(arguments: [
        ("19,99", "'19,99' is not a decimal number: unexpected ',' at position 3"),
        ("9x", "'9x' is not a decimal number: unexpected 'x' at position 2"),
        ("12.3.4", "'12.3.4' is not a decimal number: unexpected '.' at position 5"),
        ("abc", "'abc' is not a decimal number: unexpected 'a' at position 1"),
        ("", "'' is not a decimal number: the text is empty"),
        (".", "'.' is not a decimal number: it has no digits"),
        ("-", "'-' is not a decimal number: it has no digits"),
        ("1e999", "'1e999' is out of Decimal's range"),
        ("1e-129", "'1e-129' is out of Decimal's range"),
        ("12345e-130", "'12345e-130' is out of Decimal's range"),
        (" 1", "' 1' is not a decimal number: unexpected ' ' at position 1"),
        ("1 ", "'1 ' is not a decimal number: unexpected ' ' at position 2"),
        ("1e", "'1e' is not a decimal number: the exponent has no digits"),
        ("1e+", "'1e+' is not a decimal number: the exponent has no digits"),
        ("1e5x", "'1e5x' is not a decimal number: unexpected 'x' at position 4"),
        ("--1", "'--1' is not a decimal number: unexpected '-' at position 2"),
        ("€12", "'€12' is not a decimal number: unexpected '€' at position 1"),
        ("1²", "'1²' is not a decimal number: unexpected '²' at position 2"),
        (
            "1234567890123456789012345678901234567.89",
            "'1234567890123456789012345678901234567.89' has 39 significant digits, "
                + "more than the 38 a Decimal holds exactly"
        ),
    ])
    func rejectsWithAnErrorNamingTextAndReason(text: String, message: String) {
        #expect {
            try DecimalText.parse(text)
        } throws: { error in
            (error as? DecimalTextError)?.description == message
        }
    }

    @Test func countsOnlySignificantDigits() throws {
        let padded =
            "000000000000000000000000000000000000000001.1000000000000000000000000000000000000"
        #expect(DecimalText.format(try DecimalText.parse(padded)) == "1.1")
        let thirtyEight = "99999999999999999999999999999999999999"
        #expect(
            DecimalText.format(try DecimalText.parse(thirtyEight + "000")) == thirtyEight + "000")
    }

    @Test func plainParseAcceptsPricesOnly() throws {
        #expect(try DecimalText.plainParse("12.50") == DecimalText.parse("12.5"))
        #expect(try DecimalText.plainParse("-3") == DecimalText.parse("-3"))
        #expect(try DecimalText.plainParse(".5") == DecimalText.parse("0.5"))
        for text in ["1e3", "+1", "1,5", "", " 2", "1.2.3"] {
            #expect(throws: DecimalTextError.self) { try DecimalText.plainParse(text) }
        }
        #expect(throws: DecimalTextError(text: "1e3", reason: .unexpectedCharacter(offset: 1))) {
            try DecimalText.plainParse("1e3")
        }
    }

    @Test func randomThirtyEightDigitValuesRoundTripExactly() throws {
        var generator = SplitMix64(seed: 38)
        for _ in 0..<2_000 {
            let text = randomCanonicalText(using: &generator)
            let value = try DecimalText.parse(text)
            #expect(DecimalText.format(value) == text)
            #expect(DecimalText.formatWithoutLayout(value) == text)
            #expect(try DecimalText.parse(DecimalText.format(value)) == value)
            // Foundation's own reading of canonical text agrees on the value.
            #expect(Decimal(string: text) == value, "\(text)")
        }
    }

    @Test func readsDecimalMemoryLayoutOnThisPlatform() {
        // If this fails, Foundation changed Decimal's layout: formatting stays exact through
        // the description fallback, but is slower. Update DecimalLayout.
        #expect(DecimalText.readsDecimalLayout)
    }

    @Test func formatsValuesFoundationBuilt() {
        let sum = Decimal(string: "1.5")! + Decimal(string: "1.5")!
        #expect(DecimalText.format(sum) == "3")
        let product = Decimal(string: "1.10")! * Decimal(100)
        #expect(DecimalText.format(product) == "110")
        #expect(DecimalText.format(Decimal(-42)) == "-42")
        #expect(DecimalText.format(Decimal()) == "0")
        #expect(DecimalText.format(.nan) == "NaN")
        #expect(
            DecimalText.format(Decimal.greatestFiniteMagnitude)
                == "340282366920938463463374607431768211455" + String(repeating: "0", count: 127))
        #expect(
            DecimalText.formatWithoutLayout(Decimal.greatestFiniteMagnitude)
                == DecimalText.format(Decimal.greatestFiniteMagnitude))
    }

    @Test func rawComparisonAgreesWithDecimalOrder() throws {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<4_000 {
            let left = randomCanonicalText(maximumDigits: 12, using: &generator)
            let right =
                Bool.random(using: &generator)
                ? left : randomCanonicalText(maximumDigits: 12, using: &generator)
            let a = try DecimalText.parse(left)
            let b = try DecimalText.parse(right)
            let expected: Int32 = a < b ? -1 : (b < a ? 1 : 0)
            #expect(compareRaw(left, right) == expected, "\(left) vs \(right)")
            #expect(compareRaw(right, left) == -expected)
            #expect(DecimalText.compare(a, b).rawValue == Int(expected))
        }
    }

    @Test func rawComparisonToleratesZerosAndSignedZero() {
        #expect(compareRaw("-0", "0") == 0)
        #expect(compareRaw("0.0", "-0.000") == 0)
        #expect(compareRaw("007.50", "7.5") == 0)
        #expect(compareRaw("-1", "0") == -1)
        #expect(compareRaw("-10", "-9.99") == -1)
        #expect(compareRaw("10", "9.99") == 1)
        #expect(compareRaw("0.1", "0.09") == 1)
        #expect(compareRaw(".5", "0.49") == 1)
    }

    @Test func rawComparisonSortsOtherTextAfterNumbersBytewise() {
        #expect(compareRaw("99999", "abc") == -1)
        #expect(compareRaw("abc", "-5") == 1)
        #expect(compareRaw("1e5", "2") == 1)
        #expect(compareRaw("", "0") == 1)
        #expect(compareRaw("abc", "abd") == -1)
        #expect(compareRaw("ab", "abc") == -1)
        #expect(compareRaw("abc", "abc") == 0)
        #expect(compareRaw("-", ".") == -1)
    }

    // MARK: - Helpers

    private func compareRaw(_ a: String, _ b: String) -> Int32 {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        return left.withUnsafeBytes { l in right.withUnsafeBytes { r in DecimalText.compare(l, r) }
        }
    }

    /// Canonical plain text of a random decimal: up to `maximumDigits` significant digits,
    /// random sign and point position, including tiny and huge exponents.
    private func randomCanonicalText(
        maximumDigits: Int = 38, using generator: inout SplitMix64
    ) -> String {
        let count = Int.random(in: 1...maximumDigits, using: &generator)
        var digits = (0..<count).map { _ in
            Character(String(Int.random(in: 0...9, using: &generator)))
        }
        if digits[0] == "0" { digits[0] = "7" }
        if digits[count - 1] == "0" { digits[count - 1] = "3" }
        let significand = String(digits)
        let exponent = Int.random(in: -128...(127 - 0), using: &generator)
        let negative = Bool.random(using: &generator)
        let text: String
        if exponent >= 0 {
            text = significand + String(repeating: "0", count: exponent)
        } else if -exponent < count {
            let split = significand.index(significand.startIndex, offsetBy: count + exponent)
            text = significand[..<split] + "." + significand[split...]
        } else {
            text = "0." + String(repeating: "0", count: -exponent - count) + significand
        }
        return negative ? "-" + text : text
    }
}
