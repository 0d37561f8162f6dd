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
        guard let json = try tombstoneJSON(of: schema, values: values) else { return nil }
        try ensureTombstoneTable()
        try database.execute(
            "INSERT INTO _tombstone (entity, objectKey, deletedAt, \"values\") VALUES (?, ?, ?, ?)",
            [.text(schema.name), .integer(primaryKey), .real(Date().timeIntervalSince1970), .text(json)])
        return database.lastInsertRowID
    }

    /// The JSON text of a tombstone of `schema`'s object whose stored values `values` gives
    /// by position; nil when it has no value to preserve (most entities preserve none, and
    /// then no property is walked).
    package func tombstoneJSON(of schema: EntitySchema, values: (Int) -> StoredSlot) throws -> String? {
        guard !schema.preservedAttributePositions.isEmpty else { return nil }
        var preserved: [String: String] = [:]
        for position in schema.preservedAttributePositions {
            // A nil value is left out: the tombstone has no key for it.
            guard case .attribute(let a) = schema.properties[position],
                case .value(let value) = values(position), value != .null
            else { continue }
            preserved[a.name] = try RowCodec.encode(value, for: a, entity: schema.name).jsonText
        }
        guard !preserved.isEmpty else { return nil }
        let json = try JSONSerialization.data(withJSONObject: preserved, options: [.sortedKeys])
        return String(decoding: json, as: UTF8.self)
    }

    /// The most tombstones one `recordTombstones(_:)` statement writes (four parameters each).
    static let tombstonesPerInsert = 128

    /// Writes many tombstones (an entity's name, the deleted object's key and its preserved
    /// values as `tombstoneJSON` makes them), many per statement, all with one deletion
    /// time, and returns each one's row by entity name and key (which the history's delete
    /// changes refer to). Call inside the deleting write transaction.
    package func recordTombstones(
        _ tombstones: [(entity: String, key: Int64, json: String)]
    ) throws -> [TombstoneName: Int64] {
        guard !tombstones.isEmpty else { return [:] }
        try ensureTombstoneTable()
        let deletedAt = SQLiteValue.real(Date().timeIntervalSince1970)
        var rows: [TombstoneName: Int64] = [:]
        rows.reserveCapacity(tombstones.count)
        let length = KeyList.powerOfTwo(atMost: min(Self.tombstonesPerInsert, database.parameterLimit / 4))
        for run in KeyList.runs(count: tombstones.count, maximumLength: length) {
            let chunk = tombstones[run]
            var arguments: [SQLiteValue] = []
            arguments.reserveCapacity(chunk.count * 4)
            for tombstone in chunk {
                arguments += [.text(tombstone.entity), .integer(tombstone.key), deletedAt, .text(tombstone.json)]
            }
            let statement = try database.cachedStatement(
                "INSERT INTO _tombstone (entity, objectKey, deletedAt, \"values\") VALUES "
                    + Array(repeating: "(?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                    + " RETURNING \"_id\", entity, objectKey")
            defer { statement.reset() }
            try statement.bind(arguments)
            while try statement.step() {
                guard case .text(let entity) = statement.value(at: 1) else { continue }
                rows[TombstoneName(entity: entity, key: statement.int64(at: 2))] = statement.int64(at: 0)
            }
        }
        return rows
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

/// A tombstone's deleted object, as `recordTombstones(_:)` returns its row: the entity's name
/// and the object's key.
package struct TombstoneName: Hashable {
    package let entity: String
    package let key: Int64
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
