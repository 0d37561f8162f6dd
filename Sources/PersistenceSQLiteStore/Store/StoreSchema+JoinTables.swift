import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
import PersistenceRelational
/// A join table of the SQLite store: the relational core's (`RelationalJoinTable`, which says
/// when a to-many uses one and how it is named), with the store's DDL. A UNIQUE index on
/// `(source, destination)` and an index on `(destination, source)` make both directions an
/// index search; `source` and `destination` hold `_id`s.
package typealias JoinTableMapping = RelationalJoinTable

/// One relationship's side of a join table (`RelationalJoinSide`).
package typealias JoinSide = RelationalJoinSide

extension RelationalJoinTable {
    /// The statements that create the table and its indexes, with `IF NOT EXISTS` so that
    /// they also complete a store created before the table was needed.
    package var createStatements: [String] {
        let t = sqlIdentifier(name)
        var columns = ["\"source\" INTEGER NOT NULL", "\"destination\" INTEGER NOT NULL"]
        if hasPosition { columns.append("\"position\" INTEGER") }
        if hasInversePosition { columns.append("\"inversePosition\" INTEGER") }
        return [
            "CREATE TABLE IF NOT EXISTS \(t) (\(columns.joined(separator: ", ")))",
            "CREATE UNIQUE INDEX IF NOT EXISTS \(sqlIdentifier(name + "_source_destination")) ON \(t) (\"source\", \"destination\")",
            "CREATE INDEX IF NOT EXISTS \(sqlIdentifier(name + "_destination_source")) ON \(t) (\"destination\", \"source\")",
        ]
    }
}

extension RelationalJoinSide {
    /// An ORDER BY over the join table aliased `alias`: positions (unpositioned rows last),
    /// then insertion order.
    package func ordering(alias: String) -> String {
        let a = sqlIdentifier(alias)
        if let positionColumn {
            let p = "\(a).\(sqlIdentifier(positionColumn))"
            return "\(p) IS NULL, \(p), \(a).rowid"
        }
        return "\(a).rowid"
    }
}

extension StoreSchema {
    /// Join tables, by name order.
    package var joinTables: [JoinTableMapping] { joins.tables }
    /// The join side of each join-table relationship, by entity and relationship name.
    package var joinSides: [String: [String: JoinSide]] { joins.sides }

    /// The join side of an entity's relationship, or nil when it does not use a join table.
    package func joinSide(entity: String, relationship: String) -> JoinSide? {
        joins.side(entity: entity, relationship: relationship)
    }

    /// The join tables touching rows of a root table, with whether the rows are their
    /// `source` (else `destination`) objects. A table linking a root to itself is listed twice.
    package func joinTables(touching rootTable: String) -> [(table: JoinTableMapping, column: String)] {
        joins.tables(touching: rootTable)
    }
}
