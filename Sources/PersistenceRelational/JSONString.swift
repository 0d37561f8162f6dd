/// Strings written into JSON text by hand (the history's previous values, a long `IN`
/// list bound as an array), the same way for every writer.
enum JSONString {
    /// `text` as a JSON string: quoted, with `"`, `\` and control characters escaped (a
    /// store's escapes in text, such as PostgreSQL's U+0001, among them).
    static func append(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                json += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
