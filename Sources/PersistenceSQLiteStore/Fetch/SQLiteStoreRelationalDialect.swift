import PersistenceModel
import PersistenceRelational

/// The SQL of the SQLite store: SQLite's (`SQLiteRelationalDialect`), and `MATCHES` through
/// the `regexp` function the store registers on every connection, which matches as the
/// evaluator does (`RegexCache`).
package struct SQLiteStoreRelationalDialect: RelationalDialect {
    package init() {}

    /// `MATCHES` as `regexp(pattern, subject, original)` over the folded subject, the
    /// pattern folded as the evaluator folds it and anchored so that an alternation matches
    /// the whole subject; a pattern that is no regular expression is left to the store's
    /// compiler, which refuses it with the evaluator's reason. Every other operator as
    /// SQLite's dialect spells it.
    package func stringMatch(
        _ lhs: String, _ op: PredicateNode.Operator, _ text: String, _ options: PredicateNode.Options,
        _ binder: inout RelationalBinder
    ) -> String? {
        guard op == .matches else { return SQLiteRelationalDialect().stringMatch(lhs, op, text, options, &binder) }
        guard (try? RegexCache().regex(for: text, options: options)) != nil else { return nil }
        let flags = options.contains(.caseInsensitive) ? "(?i)" : ""
        let anchored = binder.bind(.text(flags + "\\A(?:" + RegexCache.fold(pattern: text, options) + ")\\z"))
        return "coalesce(regexp(\(anchored), \(lhs), \(binder.bind(.text(text)))), 0)"
    }
}
