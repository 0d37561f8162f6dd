import PersistenceModel

/// A fetch request compiled for one store's layout: the SQL that narrows and orders the rows,
/// and what is left to do in memory.
///
/// The rows `selectSQL` reads are in the request's order when `sortsInSQL` (else in key
/// order, for the caller to sort); they pass the whole predicate when `residual` is nil
/// (else the caller evaluates `residual` on each); the window is applied in SQL when
/// `windowInSQL` (no residual, no sort left to memory), else by the caller after the rest.
package struct RelationalQuery: Sendable {
    /// The root table's alias in the SQL.
    package let alias: String
    /// `"ZITEM" AS "t"` and its `LEFT JOIN`s for key paths through to-ones.
    package var from: String
    /// The compiled part of the predicate and the entity restriction; nil for none.
    package var condition: String?
    /// The part of the predicate SQL cannot answer exactly: evaluated in memory.
    package var residual: PredicateNode?
    /// The ORDER BY list, always ending with the key: ties in key order.
    package var ordering: String
    /// Whether `ordering` is the request's order (false: sort in memory). For a request with
    /// a search, true only when `ranksSearch`.
    package var sortsInSQL: Bool
    /// The values for the placeholders of `condition`, in order: the bindings of `countSQL`,
    /// and the first of `selectSQL`'s (see ``selectBindings``).
    package var bindings: [RelationalValue]
    /// The values for the placeholders of `ordering` (a search's rank), bound after
    /// ``bindings``.
    package var orderingBindings: [RelationalValue] = []
    /// Whether the request's search is answered whole in SQL: `condition` keeps exactly the
    /// rows that match it and `ordering` starts with its rank (`RelationalLayout.searchRank`)
    /// followed by the request's sorts, so nothing of the search is left to memory.
    package var ranksSearch = false
    /// The request's limit and offset.
    package var limit: Int?
    package var offset: Int

    /// The values for the placeholders of `selectSQL`, in order.
    package var selectBindings: [RelationalValue] { bindings + orderingBindings }

    /// Whether the limit and offset can be applied in SQL.
    package var windowInSQL: Bool { residual == nil && sortsInSQL }

    /// The statement reading `columns` (each qualified by `alias`) of the rows, its window
    /// in SQLite's spelling (`LIMIT -1` for none); another dialect's store writes its own
    /// from `from`, `condition` and `ordering`.
    package func selectSQL(columns: [String]) -> String {
        var sql = "SELECT " + columns.map { "\(quotedIdentifier(alias)).\(quotedIdentifier($0))" }.joined(separator: ", ")
        sql += " FROM \(from)"
        if let condition { sql += " WHERE \(condition)" }
        sql += " ORDER BY \(ordering)"
        if windowInSQL, limit != nil || offset > 0 {
            sql += " LIMIT \(limit.map { max($0, 0) } ?? -1) OFFSET \(max(offset, 0))"
        }
        return sql
    }

    /// The statement counting the rows before the window (when `windowInSQL`; the caller
    /// applies the window to the count).
    package var countSQL: String {
        "SELECT count(*) FROM \(from)" + (condition.map { " WHERE \($0)" } ?? "")
    }

    /// `count` rows narrowed by the request's offset and limit.
    package func windowed(_ count: Int) -> Int {
        let afterOffset = max(count - max(offset, 0), 0)
        return limit.map { min(max($0, 0), afterOffset) } ?? afterOffset
    }
}

/// An SQL identifier in double quotes.
package func quotedIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
