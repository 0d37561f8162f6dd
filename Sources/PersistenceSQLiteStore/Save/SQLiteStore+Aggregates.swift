import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

// What a batch insert needs to keep derived aggregates (`@count`, `@sum` over a to-many)
// of the rows its rows link to up to date.

extension SQLiteStore {
    /// The derived value of the row under `key`: a count of, or a sum over, the rows of
    /// `members` whose to-one column `link` holds `key`.
    ///
    /// - Throws: `DecimalSumError` when a sum leaves Decimal's range; `StoreError` for a
    ///   stored value that cannot be read.
    func aggregate(
        _ derivation: Derivation, over members: EntityMapping, linkedBy link: String, to key: Int64
    ) throws -> AttributeValue {
        let table = sqlIdentifier(members.table.name)
        var condition = "\(sqlIdentifier(link)) = ?"
        var arguments: [SQLiteValue] = [.integer(key)]
        // As loading the to-many does: an entity sharing its table counts only its own rows.
        if !members.schema.ancestors.isEmpty {
            condition += " AND \"_entity\" IN (\(members.schema.hierarchyNames.map { _ in "?" }.joined(separator: ", ")))"
            arguments += members.schema.hierarchyNames.map(SQLiteValue.text)
        }
        switch derivation {
        case .count:
            return .integer(try database.scalar("SELECT count(*) FROM \(table) WHERE \(condition)", arguments).int64Value ?? 0)
        case .sum(_, let name):
            guard let attribute = members.schema.attribute(named: name), attribute.isStored else { return .integer(0) }
            let rows = try database.query("SELECT \(sqlIdentifier(name)) FROM \(table) WHERE \(condition)", arguments)
            return try AttributeValue.sum(of: try rows.map { try RowCodec.decode($0[0], for: attribute, entity: members.schema.name) })
        default:
            return .null
        }
    }

    /// Runs `body` with a temporary trigger per to-one column in `links` of `table` that
    /// notes each destination an update of the column leaves (an upsert that moves a row),
    /// and returns the (column, key) pairs noted.
    func notingDestinationsLeft(
        table: TableMapping, links: [String], _ body: () throws -> Void
    ) throws -> [(relationship: String, key: Int64)] {
        let triggers = links.map { leaveTrigger(table: table.name, link: $0) }
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS \"_batch_left\" (\"link\" TEXT, \"key\" INTEGER)")
        for trigger in triggers { try database.execute(trigger.sql) }
        defer {
            // Temporary, and rolled back with the transaction anyway; dropped so that the
            // connection's next batch starts clean.
            for trigger in triggers { try? database.execute("DROP TRIGGER IF EXISTS temp.\(sqlIdentifier(trigger.name))") }
            try? database.execute("DROP TABLE IF EXISTS temp.\"_batch_left\"")
        }
        try body()
        return try database.query("SELECT DISTINCT \"link\", \"key\" FROM temp.\"_batch_left\"").compactMap { row in
            guard let link = row[0].textValue, let key = row[1].int64Value else { return nil }
            return (link, key)
        }
    }

    /// The entity of the row under `key` of the root entity's table: a sub-entity's own
    /// name for its rows; nil when there is no such row.
    func entityName(rootTable: String, key: Int64) throws -> String? {
        guard let table = schema.tables[rootTable] else { return nil }
        guard table.hasEntityColumn else {
            let found = try database.scalar("SELECT 1 FROM \(sqlIdentifier(table.name)) WHERE \"_id\" = ?", [.integer(key)])
            return found.int64Value == nil ? nil : rootTable
        }
        return try database.scalar(
            "SELECT \"_entity\" FROM \(sqlIdentifier(table.name)) WHERE \"_id\" = ?", [.integer(key)]).textValue
    }

    private func leaveTrigger(table: String, link: String) -> (name: String, sql: String) {
        let name = "_batch_left_\(table)_\(link)"
        let column = sqlIdentifier(link)
        return (name, """
            CREATE TEMP TRIGGER \(sqlIdentifier(name)) AFTER UPDATE OF \(column) ON main.\(sqlIdentifier(table)) \
            WHEN old.\(column) IS NOT NULL AND old.\(column) IS NOT new.\(column) \
            BEGIN INSERT INTO "_batch_left" VALUES (\(sqlLiteral(link)), old.\(column)); END
            """)
    }
}
