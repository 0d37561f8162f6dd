/// A list of integers and strings as the text of a JSON array, which SQLite's `json_each`
/// reads back value for value: integers exactly, strings byte for byte.
enum JSONArrayText {
    /// The array's text, or nil when a value has no exact JSON form here: a Double (JSON
    /// numbers are parsed back by the database, not always to the same bits), Data, NULL, or
    /// a string holding U+0000 (which SQLite's JSON functions cut the text at).
    static func text(of values: [RelationalValue]) -> String? {
        var json = "["
        for (index, value) in values.enumerated() {
            if index > 0 { json += "," }
            switch value {
            case .integer(let i): json += String(i)
            case .text(let text):
                guard !text.utf8.contains(0) else { return nil }
                json += quoted(text)
            case .real, .blob, .null: return nil
            }
        }
        return json + "]"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    private static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
