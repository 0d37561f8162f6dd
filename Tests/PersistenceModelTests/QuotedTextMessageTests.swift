import Testing

import Persistence

/// Input quoted in error messages stays on one line and sends no terminal escapes.
@Suite struct QuotedTextMessageTests {
    @Test func controlCharactersAreEscapedAndTheRestKept() {
        #expect(QuotedText.forMessage("Cien años 'x' \"y\"") == "Cien años 'x' \"y\"")
        #expect(QuotedText.forMessage("a\nb\tc\r") == "a\\nb\\tc\\r")
        #expect(QuotedText.forMessage("\u{1B}[31mred") == "\\u{1B}[31mred")
        #expect(QuotedText.forMessage("\u{0}\u{7F}\u{9B}") == "\\u{0}\\u{7F}\\u{9B}")
    }

    @Test func parserErrorsQuoteTheirInputOnOneLine() throws {
        let decimal = try #require(throws: DecimalTextError.self) { try DecimalText.parse("1\n2") }
        #expect(decimal.description == "'1\\n2' is not a decimal number: unexpected '\\n' at position 2")
        let day = try #require(throws: DateTextError.self) {
            try DateText.parseDay("2024-\u{1B}1-01", timeZone: .gmt)
        }
        #expect(!day.description.contains("\u{1B}") && day.description.contains("2024-\\u{1B}1-01"))
        let predicate = try #require(throws: FetchPredicateError.self) { try FetchPredicate("title ==\n") }
        #expect(!predicate.description.contains("\n"), "\(predicate)")
    }
}
