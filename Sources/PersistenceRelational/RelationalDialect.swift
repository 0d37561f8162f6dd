import PersistenceModel

/// The SQL a database spells its own way, which `RelationalFetchCompiler` asks of a store
/// beside its layout: placeholders, the true and false conditions, NULL read as false, the
/// order of strings, sort terms, string operators and long `IN` lists.
///
/// Every requirement has a default, SQLite's spelling (`?`, `1`/`0`, `coalesce(…, 0)`,
/// `instr`, `GLOB`), so that a layout over an SQLite file (Core Data's) supplies nothing and
/// its SQL is what the core has always written; the PostgreSQL store supplies its own
/// (`$n`, `TRUE`/`FALSE`, `COLLATE "C"`, regular expressions over its escaped text, `= ANY`).
/// A hook that returns nil leaves its comparison to the in-memory evaluator, for that term
/// only.
package protocol RelationalDialect: Sendable {
    /// The placeholder of the `index`th bound value (1-based, in binding order).
    func placeholder(_ index: Int) -> String

    /// The condition that always holds (`TRUEPREDICATE`), and the one that never does.
    var alwaysTrue: String { get }
    var alwaysFalse: String { get }

    /// `condition`, which may be NULL, as true or false: NULL false.
    func orFalse(_ condition: String) -> String

    /// A string expression compared and ordered by code point (UTF-8 byte order), as the
    /// evaluator compares strings.
    func byCodePoint(_ sql: String) -> String

    /// One term of an ORDER BY: nil first when ascending, last when descending, as
    /// `SortValueOrder` orders nil.
    func sortTerm(_ sql: String, ascending: Bool) -> String

    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` or `MATCHES` of `lhs` (a string column,
    /// folded for `options` already) and `text` (the predicate's string, not folded): true
    /// or false, never NULL; nil when the dialect cannot answer `op` exactly (SQLite's
    /// default answers no `MATCHES`: a file has no regular expressions of its own).
    func stringMatch(
        _ lhs: String, _ op: PredicateNode.Operator, _ text: String, _ options: PredicateNode.Options,
        _ binder: inout RelationalBinder
    ) -> String?

    /// `lhs` equal to one of `values` (each with `cast` after its placeholder, when given)
    /// in one condition, true or false, never NULL, for a list long enough to spell as one
    /// bound array; nil to spell it as `=` terms joined by `OR`.
    func member(_ lhs: String, of values: [RelationalValue], cast: String?, _ binder: inout RelationalBinder) -> String?

    /// The most values one statement may bind: a term that would bind more is left to memory.
    var maximumBindings: Int { get }
}

extension RelationalDialect {
    package func placeholder(_ index: Int) -> String { "?" }
    package var alwaysTrue: String { "1" }
    package var alwaysFalse: String { "0" }
    package func orFalse(_ condition: String) -> String { "coalesce(\(condition), 0)" }
    package func byCodePoint(_ sql: String) -> String { sql }
    package func sortTerm(_ sql: String, ascending: Bool) -> String { sql + (ascending ? " ASC" : " DESC") }
    /// SQLite's: a list longer than `longList` values, all integers or strings, bound as one
    /// JSON array and read back through `json_each` (`SQLChain` keeps a chain of `=` terms
    /// within SQLite's depth limit, but not within its limit on bound values). Other lists are
    /// spelled term by term: JSON has no exact form for every Double, nor for Data.
    package func member(_ lhs: String, of values: [RelationalValue], cast: String?, _ binder: inout RelationalBinder) -> String? {
        guard values.count > RelationalFetchCompiler.longList, cast == nil, let array = JSONArrayText.text(of: values) else {
            return nil
        }
        return "coalesce(\(lhs) IN (SELECT value FROM json_each(\(binder.bind(.text(array))))), 0)"
    }
    /// SQLite's default limit on a statement's bound values (`SQLITE_MAX_VARIABLE_NUMBER`
    /// since SQLite 3.32).
    package var maximumBindings: Int { 32_766 }

    /// SQLite's: `instr` and `substr` over the folded text, `LIKE` as a `GLOB` pattern.
    package func stringMatch(
        _ lhs: String, _ op: PredicateNode.Operator, _ text: String, _ options: PredicateNode.Options,
        _ binder: inout RelationalBinder
    ) -> String? {
        let needle = RelationalValue.text(PredicateEvaluator.fold(text, options))
        switch op {
        case .contains: return "coalesce(instr(\(lhs), \(binder.bind(needle))) > 0, 0)"
        case .beginsWith: return "coalesce(instr(\(lhs), \(binder.bind(needle))) = 1, 0)"
        case .endsWith:
            let a = binder.bind(needle), b = binder.bind(needle), c = binder.bind(needle)
            return "coalesce(length(\(lhs)) >= length(\(a)) AND substr(\(lhs), length(\(lhs)) - length(\(b)) + 1) = \(c), 0)"
        case .like:
            return "coalesce(\(lhs) GLOB \(binder.bind(.text(LikePattern.glob(text, options: options)))), 0)"
        default: return nil
        }
    }
}

/// SQLite's dialect: every default of `RelationalDialect`.
package struct SQLiteRelationalDialect: RelationalDialect {
    package init() {}
}

/// The values bound so far to one statement's placeholders, which it numbers as the
/// dialect spells them: a subquery's binder continues its outer query's numbering.
package struct RelationalBinder {
    package let dialect: any RelationalDialect
    /// Values bound before this binder's first (by an outer query).
    let base: Int
    package private(set) var values: [RelationalValue] = []

    package init(dialect: any RelationalDialect, base: Int = 0) {
        self.dialect = dialect
        self.base = base
    }

    /// Appends `value` and returns its placeholder.
    package mutating func bind(_ value: RelationalValue) -> String {
        values.append(value)
        return dialect.placeholder(base + values.count)
    }

    /// A binder for a subquery, numbering after every value bound here so far.
    func nested() -> RelationalBinder { RelationalBinder(dialect: dialect, base: base + values.count) }

    /// Takes over the values a nested binder bound (right after this one's).
    mutating func adopt(_ nested: RelationalBinder) { values += nested.values }

    /// Takes back the values bound after the first `count`.
    mutating func truncate(to count: Int) { values.removeSubrange(count...) }
}
