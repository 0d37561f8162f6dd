import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    /// Records the values of attributes marked "preserve after deletion" when an object is
    /// deleted, in `_tombstone` (one row per deleted object: entity, key, time, and the
    /// values as JSON, in the export format). Call inside the deleting write transaction.
    ///
    /// - Returns: the tombstone's row, which the delete's change in the persistent history
    ///   refers to (see `SQLiteStore+History`); nil when the object has no value to preserve.
    @discardableResult
    package func recordTombstone(of schema: EntitySchema, primaryKey: Int64, values: (Int) -> StoredSlot) throws -> Int64? {
        var preserved: [String: String] = [:]
        for (position, property) in schema.properties.enumerated() {
            // A nil value is left out: the tombstone has no key for it.
            guard case .attribute(let a) = property, a.preservesValueInHistoryOnDeletion,
                case .value(let value) = values(position), value != .null
            else { continue }
            preserved[a.name] = try RowCodec.encode(value, for: a, entity: schema.name).jsonText
        }
        guard !preserved.isEmpty else { return nil }
        try ensureTombstoneTable()
        let json = try JSONSerialization.data(withJSONObject: preserved, options: [.sortedKeys])
        try database.execute(
            "INSERT INTO _tombstone (entity, objectKey, deletedAt, \"values\") VALUES (?, ?, ?, ?)",
            [.text(schema.name), .integer(primaryKey), .real(Date().timeIntervalSince1970),
             .text(String(decoding: json, as: UTF8.self))])
        return database.lastInsertRowID
    }

    /// The values a tombstone's JSON holds, typed by `schema`'s attributes: each text is
    /// read back as the column value it was written from (`SQLiteValue.jsonText`) and
    /// decoded as the store decodes its rows. A nil value has no key; a name the entity no
    /// longer has as an attribute (renamed by a migration) is left out.
    ///
    /// - Throws: `StoreError.corruptValue` for a value that cannot be read as its
    ///   attribute's type.
    func preservedValues(_ json: String, of schema: EntitySchema) throws -> [String: AttributeValue] {
        guard let texts = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String] else {
            throw StoreError.corruptValue(entity: schema.name, attribute: "(tombstone)", found: "text that is not a JSON object")
        }
        var values: [String: AttributeValue] = [:]
        for (name, text) in texts {
            guard let attribute = schema.attribute(named: name) else { continue }
            values[name] = try RowCodec.decode(SQLiteValue(jsonText: text, for: attribute.type), for: attribute, entity: schema.name)
        }
        return values
    }

    /// The preserved values of deleted objects of an entity, newest first, each with the
    /// deleted object's key.
    package func tombstones(entity: String) throws -> [(key: Int64, values: [String: String])] {
        try ensureTombstoneTable()
        return try database.query(
            "SELECT objectKey, \"values\" FROM _tombstone WHERE entity = ? ORDER BY _id DESC", [.text(entity)]
        ).compactMap { row in
            guard case .integer(let key) = row[0], case .text(let json) = row[1],
                let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
            else { return nil }
            return (key, object)
        }
    }

    func ensureTombstoneTable() throws {
        try database.execute(
            "CREATE TABLE IF NOT EXISTS _tombstone (_id INTEGER PRIMARY KEY, entity TEXT NOT NULL, "
                + "objectKey INTEGER NOT NULL, deletedAt REAL NOT NULL, \"values\" TEXT NOT NULL)")
    }
}

extension SQLiteValue {
    /// The column value a tombstone's `text` was written from (see `jsonText`), by the
    /// column type that stores `type` (see `RowCodec`).
    ///
    /// - Parameter emptyIsNull: whether empty text stands for NULL, as in tombstones written
    ///   before nil values were left out; false where NULL is written as JSON null (the
    ///   history's previous values), so that empty data or an empty URL stays empty.
    init(jsonText text: String, for type: AttributeType, emptyIsNull: Bool = true) {
        if emptyIsNull, text.isEmpty, type != .string {
            self = .null
            return
        }
        switch type {
        case .integer16, .integer32, .integer64, .boolean:
            self = Int64(text).map(SQLiteValue.integer) ?? .text(text)
        case .double, .float, .date:
            // NaN is stored as the text `NaN` (see `RowCodec`).
            self = text == "NaN" ? .text(text) : Double(text).map(SQLiteValue.real) ?? .text(text)
        case .binaryData, .transformable:
            self = Data(base64Encoded: text).map(SQLiteValue.blob) ?? .text(text)
        default:
            self = .text(text)
        }
    }

    /// The value as text for a JSON record: numbers and text as written, blobs in base64.
    var jsonText: String {
        switch self {
        case .null: return ""
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return v
        case .blob(let v): return v.base64EncodedString()
        }
    }
}
