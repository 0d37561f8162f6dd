/// A list of integers and strings as the text of a JSON array, which SQLite's `json_each`
/// reads back value for value: integers exactly, strings byte for byte.
enum JSONArrayText {
    /// The array's text, or nil when a value has no exact JSON form here: a Double (JSON
    /// numbers are parsed back by the database, not always to the same bits), Data, NULL, or
    /// a string holding U+0000 (left to a chain of `=` terms rather than trusted to JSON).
    static func text(of values: [RelationalValue]) -> String? {
        var json = "["
        for (index, value) in values.enumerated() {
            if index > 0 { json += "," }
            switch value {
            case .integer(let i): json += String(i)
            case .text(let text):
                guard !text.utf8.contains(0) else { return nil }
                JSONString.append(text, to: &json)
            case .real, .blob, .null: return nil
            }
        }
        return json + "]"
    }
}
