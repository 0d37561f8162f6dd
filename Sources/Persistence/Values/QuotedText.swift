/// Text in double quotes with backslash escapes, valid both as a JSON string and as a
/// predicate string literal. One implementation for the predicate printer, `books --json`
/// and `persistence-tool`.
package enum QuotedText {
    /// `text` in double quotes with `\"`, `\\`, `\n`, `\r`, `\t` and `\uXXXX` escapes for
    /// other control characters, DEL and the C1 controls (U+0080–U+009F): JSON allows C1 raw,
    /// but a terminal showing the JSON may read them as escape sequences.
    package static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
