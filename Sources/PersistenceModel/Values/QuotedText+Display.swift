extension QuotedText {
    /// Text from a store, made safe to print as a line of text output: unchanged when it
    /// holds no control character; otherwise in double quotes with escapes, the way `git`
    /// quotes an unusual path name.
    ///
    /// A title or name is data that anyone who could write the store chose, and a terminal
    /// obeys the control characters in what it prints: an escape sequence could recolour or
    /// rewrite the screen, a newline could forge a second line of a listing. So C0 controls,
    /// DEL and C1 controls (U+0080–U+009F, which some terminals read as 8-bit escapes) are
    /// never printed raw. The quoted form is unambiguous: `"Evil\u{1B}[2J" — Author` is the
    /// title with an ESC, not the eleven characters `\u{1B}[2J`, because within the quotes a
    /// `\` and a `"` are themselves escaped (`\\`, `\"`) and a newline, return and tab read
    /// `\n`, `\r`, `\t`; other controls read `\u{1B}` (the Swift spelling, as in error
    /// messages). Text without controls is printed exactly as stored, so that everyday titles
    /// with quotes or backslashes are shown as typed; a text that itself starts with `"` and
    /// holds a `\` is quoted too, so that it can never pass for a quoted one.
    package static func forDisplay(_ text: String) -> String {
        let needsQuotes =
            containsDisplayControl(text) || (text.hasPrefix("\"") && text.contains("\\"))
        guard needsQuotes else { return text }
        return quoted(text) { "\\u{\(String($0, radix: 16, uppercase: true))}" }
    }

    /// Whether `text` holds a scalar `isDisplayControl` names, told from its UTF-8 bytes
    /// (every listing line asks twice, so decoding each scalar would show in a long
    /// listing): C0 controls and DEL are single bytes, C1 controls `C2 80`…`C2 9F`,
    /// the bidirectional formatting characters `E2 80 8E`, `E2 80 8F`, `E2 80 AA`…`E2 80 AE`
    /// and `E2 81 A6`…`E2 81 A9`. A continuation byte is never mistaken for a lead byte.
    package static func containsDisplayControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            for index in 0..<count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                if byte == 0xE2, index + 2 < count {
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if second == 0x80, third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third) { return true }
                    if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                }
            }
            return false
        }
    }

    /// C0 controls, DEL and C1 controls, and the bidirectional formatting characters
    /// (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): those are not controls, but an
    /// override such as U+202E reorders what follows it on screen, so a title could make
    /// the rest of its line read as something else.
    package static func isDisplayControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
