import Testing

@testable import PersistenceModel

/// Telling display controls from a text's UTF-8 bytes finds exactly the scalars
/// `isDisplayControl` names, at any place in a text and beside any other scalar.
@Suite struct QuotedTextDisplayTests {
    @Test func bytesFindExactlyTheDisplayControls() {
        // Every scalar of the first planes that holds the controls, between others that
        // share their lead bytes (U+00A0, U+2010, U+2070).
        let scalars = (0..<0x3000).compactMap(Unicode.Scalar.init) + ["\u{1F600}", "\u{10FFFF}"]
        for scalar in scalars {
            let expected = QuotedText.isDisplayControl(scalar)
            for text in ["\(scalar)", "a\(scalar)b", "\u{A0}\(scalar)\u{2010}", "é\u{2070}\(scalar)"] {
                #expect(QuotedText.containsDisplayControl(text) == expected, "U+\(String(scalar.value, radix: 16))")
            }
        }
        #expect(!QuotedText.containsDisplayControl(""))
        #expect(QuotedText.forDisplay("Cien años") == "Cien años")
        #expect(QuotedText.forDisplay("left\u{202E}right") == "\"left\\u{202E}right\"")
    }
}
