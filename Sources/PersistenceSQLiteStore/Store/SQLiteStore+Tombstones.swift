import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

extension SQLiteStore {
    /// Records the values of attributes marked "preserve after deletion" when an object is
    /// deleted, in `_tombstone` (one row per deleted object: entity, key, time, and the
    /// values as JSON, in the export format). Call inside the deleting write transaction.
    ///
    /// The table is the seed of full history tracking: a change log can add rows for
    /// inserts and updates with the same shape.
    package func recordTombstone(of schema: EntitySchema, primaryKey: Int64, values: (Int) -> StoredSlot) throws {
        var preserved: [String: String] = [:]
        for (position, property) in schema.properties.enumerated() {
            guard case .attribute(let a) = property, a.preservesValueInHistoryOnDeletion,
                case .value(let value) = values(position)
            else { continue }
            preserved[a.name] = try RowCodec.encode(value, for: a, entity: schema.name).jsonText
        }
        guard !preserved.isEmpty else { return }
        try ensureTombstoneTable()
        let json = try JSONSerialization.data(withJSONObject: preserved, options: [.sortedKeys])
        try database.execute(
            "INSERT INTO _tombstone (entity, objectKey, deletedAt, \"values\") VALUES (?, ?, ?, ?)",
            [.text(schema.name), .integer(primaryKey), .real(Date().timeIntervalSince1970),
             .text(String(decoding: json, as: UTF8.self))])
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

    private func ensureTombstoneTable() throws {
        try database.execute(
            "CREATE TABLE IF NOT EXISTS _tombstone (_id INTEGER PRIMARY KEY, entity TEXT NOT NULL, "
                + "objectKey INTEGER NOT NULL, deletedAt REAL NOT NULL, \"values\" TEXT NOT NULL)")
    }
}

extension SQLiteValue {
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
