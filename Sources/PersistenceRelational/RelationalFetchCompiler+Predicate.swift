import PersistenceModel

// A predicate compiled into a query a store builds itself: the SQLite store keeps its own
// FROM, entity restriction, sorts and search, and asks the core for the predicate's terms.

/// The terms of a predicate the core compiled over one table alias, and the terms it left.
package struct RelationalPredicateSQL: Sendable {
    /// The compiled terms, each a condition to join with `AND`, in binding order.
    package var conditions: [String]
    /// The `LEFT JOIN`s the compiled terms read (key paths through to-ones).
    package var joins: [String]
    /// The values for the placeholders of `conditions`, in order.
    package var bindings: [RelationalValue]
    /// The top-level `AND` terms the layout cannot answer exactly, in their order: the
    /// caller answers them (in memory, or with SQL of its own).
    package var residual: [PredicateNode]
}

extension RelationalFetchCompiler {
    /// Compiles each top-level `AND` term of `predicate` over `entityName`'s table under
    /// `alias` (the caller's FROM names the table so), exactly or not at all, as `compile`
    /// does, but without the entity restriction, the sorts or the window, which the caller
    /// writes. Joins are aliased `<alias>j<n>` and subqueries `<alias>s<n>`.
    ///
    /// `accepts` lets the caller keep a term out of the core (say, a form its own SQL
    /// spells better); such a term is left in `residual` untouched. Nil when the layout has
    /// no table for the entity.
    package static func compilePredicate(
        _ predicate: PredicateNode, entityName: String, alias: String, layout: any RelationalLayout,
        accepts: (PredicateNode) -> Bool = { _ in true }
    ) -> RelationalPredicateSQL? {
        guard let schema = layout.model.schemas[entityName], layout.tableName(root: schema.rootName) != nil else {
            return nil
        }
        var compiler = RelationalFetchCompiler(layout: layout, schema: schema, alias: alias)
        var conditions: [String] = []
        var residual: [PredicateNode] = []
        for term in conjuncts(predicate) {
            if accepts(term), let sql = compiler.attempt(term) {
                conditions.append(sql)
            } else {
                residual.append(term)
            }
        }
        return RelationalPredicateSQL(
            conditions: conditions, joins: compiler.joins, bindings: compiler.bindings, residual: residual)
    }
}
