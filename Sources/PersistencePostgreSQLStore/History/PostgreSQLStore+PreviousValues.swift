#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceStore

// The values a change of the persistent history replaced (`PersistentHistoryChange.previousValues`),
// beyond Core Data's history, kept as the SQLite store keeps them (`SQLiteStore+PreviousValues`):
// in `_historyChange."previousValues"`, a JSON object from property name to the column's text
// (`PGPreviousValues`). For an update, the columns it wrote and the links of the join-table
// to-manys whose links it changed; for a delete, every column of the object and the links of
// each of its join-table to-manys. A to-many whose inverse is a to-one is not kept (its links
// are that to-one's column, which the other side's change keeps); of a many-to-many, one side
// only (`PersistentHistoryValue.keepsLinks`).
//
// Read inside the save's transaction before the rows change, a batch of rows per statement:
// `SELECT … WHERE "_id" = ANY($1)` for the columns, one more per join table for the links.
// A history recorded before this release gains the column at its next recorded transaction;
// its older changes have no previous values.

extension PostgreSQLStore {
    /// Rows whose previous values one statement reads.
    static let previousValuesPerStatement = 5_000

    /// The stored values of `columns` of `entity`'s rows among `keys`, and the links of the
    /// to-many relationships among `links` that the history keeps (see `keptLinks`), as
    /// they are now, by key. A key with no row has only its links (none). Read inside the
    /// write transaction, before the rows are changed.
    func previousValues(
        of entity: PGSchema.Entity, keys: [Int64], columns: [Int], links: [RelationshipDescription]
    ) throws -> [Int64: PGPreviousValues] {
        var values: [Int64: PGPreviousValues] = [:]
        for key in keys { values[key] = PGPreviousValues() }
        for start in stride(from: 0, to: keys.count, by: Self.previousValuesPerStatement) {
            let chunk = Array(keys[start..<min(start + Self.previousValuesPerStatement, keys.count)])
            if !columns.isEmpty {
                let names = columns.map { entity.table.columns[$0].name }
                try connection.forEachRow(
                    "SELECT \"_id\", " + names.map(pgIdentifier).joined(separator: ", ")
                        + " FROM \(pgIdentifier(entity.table.name)) WHERE \"_id\" = ANY($1)",
                    [.integerArray(chunk)]
                ) { row in
                    guard let key = row[0].flatMap({ Int64($0) }) else { return true }
                    for (name, text) in zip(names, row.dropFirst()) { values[key]?.set(name, text) }
                    return true
                }
            }
            for relationship in links {
                let linked = try linkedKeys(of: relationship, from: entity.schema, keys: chunk)
                for key in chunk {
                    values[key]?.set(relationship.name, (linked[key] ?? []).map(String.init).joined(separator: " "))
                }
            }
        }
        return values
    }

    /// The to-many relationships among `positions` of `schema` whose links the history
    /// keeps: those a join table holds, of a many-to-many one side only.
    func keptLinks(of schema: EntitySchema, positions: some Sequence<Int>) -> [RelationshipDescription] {
        positions.compactMap { position in
            guard case .relationship(let relationship) = schema.properties[position], relationship.isToMany,
                !relationship.isTransient, self.schema.joinSide(entity: schema.name, relationship: relationship.name) != nil,
                PersistentHistoryValue.keepsLinks(of: relationship, in: schema, model: model)
            else { return nil }
            return relationship
        }
    }

    /// The previous values a change's JSON holds, typed by `schema` (`PreviousValuesJSON`'s
    /// rules), each attribute's text read as the server sent its column.
    ///
    /// - Throws: `PostgreSQLStoreError.corruptValue` for text that is not such a JSON object,
    ///   or a value that cannot be read as its property's type.
    func previousValues(_ json: String, of schema: EntitySchema) throws -> [String: PersistentHistoryValue] {
        try PreviousValuesJSON.values(
            json, of: schema, in: self,
            keepsLinks: { self.schema.joinSide(entity: schema.name, relationship: $0.name) != nil },
            attribute: { text, attribute in try PGRowCodec.decode(text, for: attribute, entity: schema.name) },
            corrupt: { attribute, _ in PostgreSQLStoreError.corruptValue(entity: schema.name, attribute: attribute) })
    }

    /// Adds `"previousValues"` to the history's changes of a store whose history began
    /// before it was kept. Call inside a write transaction.
    func ensurePreviousValuesColumn() throws {
        guard try !historyKeepsPreviousValues() else { return }
        try connection.execute("ALTER TABLE \"_historyChange\" ADD COLUMN IF NOT EXISTS \"previousValues\" text")
        historyHasPreviousValues = true
    }

    /// Whether the history's changes have a `"previousValues"` column (asked of the server
    /// until it has: another process may add it).
    func historyKeepsPreviousValues() throws -> Bool {
        if historyHasPreviousValues { return true }
        historyHasPreviousValues = try connection.scalar(
            "SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass('\"_historyChange\"') "
                + "AND attname = 'previousValues' AND NOT attisdropped"
        ) == "1"
        return historyHasPreviousValues
    }

    // MARK: - Internals

    /// The destinations' keys of `relationship`'s links from each of `keys`, in the
    /// relationship's order (as `destinationRows` reads them); sources without links are
    /// left out.
    private func linkedKeys(of relationship: RelationshipDescription, from schema: EntitySchema, keys: [Int64]) throws
        -> [Int64: [Int64]]
    {
        guard let side = self.schema.joinSide(entity: schema.name, relationship: relationship.name),
            let destination = self.schema.entities[relationship.destinationEntityName]
        else { return [:] }
        var parameters: [PGValue] = [.integerArray(keys)]
        let own = "\"l\".\(pgIdentifier(side.ownColumn))"
        let order = side.positionColumn.map { "\"l\".\(pgIdentifier($0)) IS NULL, \"l\".\(pgIdentifier($0)), " } ?? ""
        var sql = "SELECT \(own), \"t\".\"_id\" FROM \(pgIdentifier(side.table.name)) AS \"l\" "
            + "JOIN \(pgIdentifier(destination.table.name)) AS \"t\" ON \"t\".\"_id\" = \"l\".\(pgIdentifier(side.otherColumn)) "
            + "WHERE \(own) = ANY($1)"
        if let filter = entityFilter(destination, includesSubentities: true, alias: "t", parameters: &parameters) {
            sql += " AND " + filter
        }
        sql += " ORDER BY \(own), \(order)\"l\".\"_seq\""
        var linked: [Int64: [Int64]] = [:]
        try connection.forEachRow(sql, parameters) { row in
            if let source = row[0].flatMap({ Int64($0) }), let key = row[1].flatMap({ Int64($0) }) {
                linked[source, default: []].append(key)
            }
            return true
        }
        return linked
    }
}
#endif
