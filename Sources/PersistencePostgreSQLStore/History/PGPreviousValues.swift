#if PostgreSQL
import PersistenceRelational

/// The values one change of the persistent history replaced, by property name, as the
/// PostgreSQL store keeps them (`_historyChange."previousValues"`, see
/// `PostgreSQLStore+PreviousValues`): an attribute's or a to-one's column as the server sends
/// it in text format (nil for NULL; a to-one's is its destination's key), a join-table
/// to-many's destination keys in order separated by spaces (`""` for none).
///
/// Kept as JSON text of the shape the SQLite store writes: an object from property name to a
/// string or null, its keys in code point order, so that equal values are equal text.
struct PGPreviousValues: Equatable, HistoryPreviousValues {
    /// Each property's text, nil for a column that held NULL.
    private(set) var texts: [String: String?] = [:]

    init() {}

    /// Sets `name`'s value: `text`, or NULL when nil.
    mutating func set(_ name: String, _ text: String?) {
        texts.updateValue(text, forKey: name)
    }

    /// Leaves out the properties `isKept` refuses.
    mutating func keepOnly(_ isKept: (String) -> Bool) {
        texts = texts.filter { isKept($0.key) }
    }

    /// These values with those of `later` for properties these do not have: the value before
    /// a transaction is the one its first write saw.
    func keepingFirst(over later: PGPreviousValues) -> PGPreviousValues {
        var merged = self
        merged.texts.merge(later.texts) { first, _ in first }
        return merged
    }

    /// The JSON text (`PreviousValuesJSON`): `{"name":"text","other":null}`, keys in code
    /// point order.
    var json: String { PreviousValuesJSON.text(texts) }
}
#endif
