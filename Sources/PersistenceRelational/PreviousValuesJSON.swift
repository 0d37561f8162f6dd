/// The JSON text in which the SQLite and PostgreSQL stores keep the values a change of the
/// persistent history replaced (`PersistentHistoryChange.previousValues`): an object from
/// property name to the column's value as text, or null for a column that held NULL, its
/// keys in code point order, so that the text of equal values is equal. Each store writes
/// its own text of a value (its column encodings) and reads it back.
///
/// Written by hand rather than by `JSONSerialization` with `.sortedKeys`, which orders keys
/// by a locale's collation: that sort was most of the time of a save that deletes many
/// objects (an undo of a large seed). Every reader parses it as an ordinary JSON object.
package enum PreviousValuesJSON {
    /// `{"name":"text","other":null}`: `values` with their keys in code point order.
    package static func text(_ values: [String: String?]) -> String {
        var json = "{"
        var first = true
        for (name, text) in values.sorted(by: { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }) {
            if !first { json += "," }
            first = false
            JSONString.append(name, to: &json)
            json += ":"
            if let text { JSONString.append(text, to: &json) } else { json += "null" }
        }
        return json + "}"
    }

    /// The destination keys of a to-many's links as the history keeps them (`"12 7 40"`,
    /// `""` for none), in order; nil when `text` is not such a list (a hand-edited history).
    package static func linkKeys(_ text: String) -> [Int64]? {
        var keys: [Int64] = []
        for part in text.split(separator: " ", omittingEmptySubsequences: true) {
            guard let key = Int64(part), key > 0 else { return nil }
            keys.append(key)
        }
        return keys
    }
}
