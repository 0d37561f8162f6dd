import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
import PersistenceRelational

/// The values a change of the persistent history replaced (`PersistentHistoryChange.previousValues`),
/// beyond Core Data's history: kept in `_historyChange.previousValues` as a JSON object from
/// property name to the column's value as a tombstone writes it (`SQLiteValue.jsonText`), or
/// null for a column that held NULL. A to-one relationship's value is its destination's key;
/// a to-many relationship whose links a join table keeps, its destinations' keys in order,
/// separated by spaces (`""` for none), so that an undo can put links such as a book's tags
/// back. A to-many whose inverse is a to-one is not kept: its links are that to-one's column,
/// which the other side's change keeps; of a many-to-many, one side only (see
/// `PersistentHistoryValue.keepsLinks`).
///
/// Stores whose history began before this release gain the column at their next recorded
/// transaction; their older changes have no previous values.
extension SQLiteStore {
    /// The stored values of `columns` of `mapping`'s row under `primaryKey`, by property
    /// name; empty when there is no such row. Read inside the write transaction, before the
    /// row is changed.
    func previousValues(_ mapping: EntityMapping, primaryKey: Int64, columns: [Int]) throws -> [String: SQLiteValue] {
        try previousValues(mapping, primaryKeys: [primaryKey], columns: columns)[primaryKey] ?? [:]
    }

    /// The stored values of `columns` of each of `mapping`'s rows under `primaryKeys`, by key
    /// and then by property name, read many rows per statement; a key without a row is left
    /// out: for a save that deletes many, and for one row.
    func previousValues(
        _ mapping: EntityMapping, primaryKeys: [Int64], columns: [Int]
    ) throws -> [Int64: [String: SQLiteValue]] {
        guard !columns.isEmpty, !primaryKeys.isEmpty else { return [:] }
        let names = columns.map { mapping.table.columns[$0].name }
        let selected = names.map(sqlIdentifier).joined(separator: ", ")
        var rows: [Int64: [String: SQLiteValue]] = [:]
        rows.reserveCapacity(primaryKeys.count)
        for chunk in KeyList.chunks(of: primaryKeys) {
            let statement = try database.cachedStatement(
                "SELECT \"_id\", \(selected) FROM \(sqlIdentifier(mapping.table.name)) WHERE \"_id\" IN (\(chunk.marks))")
            defer { statement.reset() }
            try statement.bind(chunk.arguments)
            while try statement.step() {
                let row = statement.row()
                guard case .integer(let key) = row[0] else { continue }
                rows[key] = Dictionary(zip(names, row.dropFirst()), uniquingKeysWith: { first, _ in first })
            }
        }
        return rows
    }

    /// The links of `schema`'s to-many relationships among `positions` that join tables keep,
    /// as they are stored for the row under `primaryKey`, by relationship name: the
    /// destinations' keys in order as text (see the type's comment). Read inside the write
    /// transaction, before the links are changed.
    func previousLinks(
        of schema: EntitySchema, primaryKey: Int64, positions: some Sequence<Int>
    ) throws -> [String: SQLiteValue] {
        var values: [String: SQLiteValue] = [:]
        for position in positions {
            guard case .relationship(let relationship) = schema.properties[position], relationship.isToMany,
                !relationship.isTransient, self.schema.joinSide(entity: schema.name, relationship: relationship.name) != nil,
                PersistentHistoryValue.keepsLinks(of: relationship, in: schema, model: model)
            else { continue }
            let source = ObjectID(scope: idScope(entityName: schema.name, rootName: schema.rootName), key: .permanent(primaryKey))
            let keys = try destinationIDs(of: relationship, from: source).compactMap(\.primaryKey)
            values[relationship.name] = .text(keys.map(String.init).joined(separator: " "))
        }
        return values
    }

    /// Adds `previousValues` to the history's changes of a store whose history began before
    /// it was kept. Call inside a write transaction.
    func ensurePreviousValuesColumn() throws {
        guard try !historyKeepsPreviousValues() else { return }
        try database.execute("ALTER TABLE _historyChange ADD COLUMN previousValues TEXT")
    }

    /// Whether the history's changes have a `previousValues` column.
    func historyKeepsPreviousValues() throws -> Bool {
        try database.scalar(
            "SELECT count(*) FROM pragma_table_info('_historyChange') WHERE name = 'previousValues'"
        ).int64Value == 1
    }

    /// The JSON text of a change's previous values (`PreviousValuesJSON`; `{}` for an update
    /// that wrote only to-many links); NULL when they were not read.
    static func previousValuesJSON(_ values: [String: SQLiteValue]?) -> SQLiteValue {
        guard let values else { return .null }
        return .text(PreviousValuesJSON.text(values.mapValues { value -> String? in
            if case .null = value { return nil }
            return value.jsonText
        }))
    }

    /// The previous values a change's JSON holds, typed by `schema` (`PreviousValuesJSON`'s
    /// rules), each attribute's text read as `previousValuesJSON` wrote its column.
    ///
    /// - Throws: `StoreError.corruptValue` for text that is not such a JSON object, or a
    ///   value that cannot be read as its property's type.
    func previousValues(_ json: String, of schema: EntitySchema) throws -> [String: PersistentHistoryValue] {
        try PreviousValuesJSON.values(
            json, of: schema, in: self,
            keepsLinks: { self.schema.joinSide(entity: schema.name, relationship: $0.name) != nil },
            attribute: { text, attribute in
                guard let text else { return .null }
                return try RowCodec.decode(
                    SQLiteValue(jsonText: text, for: attribute.type, emptyIsNull: false), for: attribute, entity: schema.name)
            },
            corrupt: { StoreError.corruptValue(entity: schema.name, attribute: $0, found: $1) })
    }
}
