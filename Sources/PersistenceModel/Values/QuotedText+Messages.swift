extension QuotedText {
    /// `text` as an error message quotes it: unchanged, except that control characters
    /// (newline, tab, escape, …), DEL and bidirectional overrides are written `\n`, `\r`, `\t`,
    /// `\u{1B}` or `\u{202E}`, so that a message stays on one line, never sends terminal
    /// escapes and is never reordered.
    ///
    /// Positions in a message keep counting characters of the original text.
    package static func forMessage(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0, DEL, C1 and the bidirectional formatting characters (`isDisplayControl`): an
    /// override such as U+202E in a message would reorder the rest of the line.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        isDisplayControl(scalar)
    }
}
