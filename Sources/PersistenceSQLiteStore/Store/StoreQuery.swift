import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

/// What to read from one table: the SQL pieces a fetch compiles to.
package struct StoreQuery {
    /// The table's mapping (the root entity of the fetched entity).
    package var table: TableMapping
    /// Restricts rows to these entities (for a table shared by a hierarchy); nil for all.
    package var entityNames: [String]?
    /// An SQL condition over the table's columns (aliased as the table's name), or nil.
    package var condition: String?
    /// The values bound to the condition's and ordering's `?` parameters, in order.
    package var arguments: [SQLiteValue] = []
    /// An SQL ORDER BY list, or nil.
    package var ordering: String?
    /// The same ordering with each sort key written `+key`, which no index can serve, so
    /// that SQLite sorts the rows rather than walks an index in their order; nil when the
    /// ordering has no sort key. `SQLiteStore.readingOrder(of:indexHoldsColumns:)` says when.
    package var sortedOrdering: String?
    /// The values bound to the ordering's `?` parameters, after `arguments`.
    package var orderingArguments: [SQLiteValue] = []
    /// At most this many rows; nil for no limit.
    package var limit: Int?
    /// Rows to skip first.
    package var offset: Int = 0
    /// JOIN clauses needed by key paths through to-one relationships.
    package var joins: [String] = []
    /// Whether the ordering starts with a computed search rank, which no index serves: SQLite
    /// sorts every matching row before the first is read (see `SQLiteStore.rows`).
    package var sortsComputedRank = false

    /// A query for all rows of a table.
    package init(table: TableMapping) { self.table = table }

    /// The WHERE clause (with the leading keyword) combining entity restriction and condition.
    var whereClause: String {
        var parts: [String] = []
        if let names = entityNames, table.hasEntityColumn {
            parts.append("\(sqlIdentifier(table.name)).\"_entity\" IN (\(names.map(sqlLiteral).joined(separator: ", ")))")
        }
        if let condition { parts.append("(\(condition))") }
        return parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")
    }

    /// The FROM clause with joins.
    var fromClause: String {
        " FROM \(sqlIdentifier(table.name))" + joins.map { " " + $0 }.joined()
    }

    /// The ORDER BY / LIMIT / OFFSET tail.
    var tail: String { tail(ordering: ordering) }

    /// The ORDER BY / LIMIT / OFFSET tail with `ordering` as its ORDER BY list.
    func tail(ordering: String?) -> String {
        var sql = ordering.map { " ORDER BY \($0)" } ?? ""
        if let limit { sql += " LIMIT \(limit)" } else if offset > 0 { sql += " LIMIT -1" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return sql
    }
}
