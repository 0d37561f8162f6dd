/// Text in double quotes with backslash escapes, valid both as a JSON string and as a
/// predicate string literal. One implementation for the predicate printer, `books --json`
/// and `persistence-tool`.
package enum QuotedText {
    /// `text` in double quotes with `\"`, `\\`, `\n`, `\r`, `\t` and `\uXXXX` escapes for
    /// other control characters, DEL, the C1 controls (U+0080–U+009F) and the bidirectional
    /// formatting characters (see `isDisplayControl`): JSON allows them raw, but a terminal
    /// showing the JSON may read C1 as escape sequences, and an override reorders the line.
    package static func doubleQuoted(_ text: String) -> String {
        quoted(text) { value in
            let hex = String(value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` in double quotes with `\"`, `\\`, `\n`, `\r` and `\t` escapes, and each other
    /// C0 control, DEL and C1 control written by `escape` (JSON's `\u001B`, Swift's `\u{1B}`).
    static func quoted(_ text: String, escapingControlWith escape: (UInt32) -> String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isDisplayControl(scalar): result += escape(scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
