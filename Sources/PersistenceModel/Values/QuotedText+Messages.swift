extension QuotedText {
    /// `text` as an error message quotes it: unchanged, except that control characters
    /// (newline, tab, escape, …) and DEL are written `\n`, `\r`, `\t` or `\u{1B}`, so that a
    /// message stays on one line and never sends terminal escapes.
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

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
