extension SQLiteValue {
    /// The SQLite storage class's name, for messages: NULL, INTEGER, REAL, TEXT or BLOB.
    package var typeName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// The text of a TEXT value, else nil.
    package var textValue: String? {
        if case .text(let t) = self { return t }
        return nil
    }
}
