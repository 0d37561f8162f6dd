#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// Compiles a predicate into a WHERE condition that PostgreSQL answers exactly as
/// `PredicateEvaluator` answers it in memory, or tells that it cannot.
///
/// Every value is a bound parameter (`$1`, `$2`, …, typed by `PGValue`) and every table or
/// column a quoted identifier; no text of a predicate ever becomes SQL. Every comparison
/// compiles to a condition that is true or false, never NULL (`coalesce(…, false)`), so that
/// `NOT` behaves as in memory (two-valued logic, Core Data's nil semantics: `x == nil` is
/// true for nil, `x != 5` is true for nil, orderings and string operators are false for nil).
///
/// **Compiled**: AND, OR, NOT, TRUEPREDICATE, FALSEPREDICATE; `==`, `!=`, `<`, `<=`, `>`,
/// `>=` of a stored attribute (through stored to-one relationships, as LEFT JOINs) with a
/// constant of its kind: integers and booleans (exact against doubles and decimals), doubles
/// (NaN unordered, as in memory), decimals (`numeric`, exact), dates (and ISO 8601 date text,
/// read by `PredicateEvaluator.typedDate`), strings (by code point), UUIDs, URLs and data;
/// `IN` a list of constants, `BETWEEN` two constants, nil comparisons of attributes and
/// to-ones; `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` on strings. `[cd]` and `[c]`
/// compile when the attribute's entity stores a `canonical:(x)` (for `[cd]`) or
/// `lowercase:(x)` (for `[c]`) attribute of it, compared against the constant folded the same
/// way.
///
/// **Left to memory** (the whole request then runs in memory: candidate rows read, the
/// predicate evaluated by `PredicateEvaluator`): `MATCHES` (ICU's regular expressions are
/// not PostgreSQL's), `[d]` alone and `[c]`/`[cd]` without a stored folded copy, key paths
/// through to-many relationships, `ANY`/`ALL`/`NONE`, `SUBQUERY` and collection operators
/// (`@count`, `@sum`, …), comparisons of two key paths, variables, `SELF`, transformable
/// values, a to-one compared with anything but nil, comparisons whose types differ (which
/// memory reports as errors for the rows that reach them), and lists of more than
/// `maximumParameters` values.
///
/// Strings are stored with U+0001 as an escape (`PGRowCodec`): equality and order are
/// unchanged by it, and `CONTAINS`, `ENDSWITH` and `LIKE` compile to regular expressions that
/// only match at character boundaries of the unescaped text (see `PGPredicateCompiler+Strings`).
struct PGPredicateCompiler {
    /// Raised inside the compiler for anything it leaves to memory.
    struct Unsupported: Error {}

    /// The most parameters one statement binds; a longer predicate is left to memory.
    static let maximumParameters = 20_000

    var query: PGQuery

    init(query: PGQuery) {
        self.query = query
    }

    /// The condition for `node`, or nil when some part of it must be evaluated in memory.
    mutating func condition(for node: PredicateNode) -> String? {
        let saved = query
        do {
            let sql = try condition(node)
            guard query.parameters.count <= Self.maximumParameters else { throw Unsupported() }
            return sql
        } catch {
            query = saved
            return nil
        }
    }

    private mutating func condition(_ node: PredicateNode) throws(Unsupported) -> String {
        switch node {
        case .truePredicate: return "TRUE"
        case .falsePredicate: return "FALSE"
        case .and(let children):
            guard !children.isEmpty else { return "TRUE" }
            var parts: [String] = []
            for child in children { parts.append(try condition(child)) }
            return Self.balanced(parts, "AND")
        case .or(let children):
            guard !children.isEmpty else { return "FALSE" }
            var parts: [String] = []
            for child in children { parts.append(try condition(child)) }
            return Self.balanced(parts, "OR")
        case .not(let child): return "(NOT \(try condition(child)))"
        case .comparison(let comparison): return try compile(comparison)
        }
    }

    /// `parts` joined by `op` as a balanced tree, so that a long chain nests shallowly.
    static func balanced(_ parts: [String], _ op: String) -> String {
        if parts.count <= 4 { return "(" + parts.joined(separator: " \(op) ") + ")" }
        let middle = parts.count / 2
        return "(" + balanced(Array(parts[..<middle]), op) + " \(op) " + balanced(Array(parts[middle...]), op) + ")"
    }

    // MARK: - Comparisons

    private mutating func compile(_ comparison: PredicateNode.Comparison) throws(Unsupported) -> String {
        guard comparison.quantifier == nil else { throw Unsupported() }
        var comparison = comparison
        // `5 < price` reads as `price > 5`.
        if case .constant = comparison.left, case .keyPath = comparison.right {
            // `"x" IN key` (a substring or a member) is left to memory.
            guard let mirrored = comparison.operator.mirrored, comparison.operator != .in else { throw Unsupported() }
            swap(&comparison.left, &comparison.right)
            comparison.operator = mirrored
        }
        guard case .keyPath(let components) = comparison.left, let column = query.column(components) else {
            throw Unsupported()
        }
        let op = comparison.operator
        switch (op, comparison.right) {
        case (.in, .aggregate(let items)):
            guard !items.isEmpty else { return "FALSE" }
            var parts: [String] = []
            for item in items {
                guard case .constant(let literal) = item else { throw Unsupported() }
                parts.append(try compare(column, .equalTo, comparison.options, literal))
            }
            return Self.balanced(parts, "OR")
        case (.between, .aggregate(let bounds)):
            guard bounds.count == 2, case .constant(let low) = bounds[0], case .constant(let high) = bounds[1] else {
                throw Unsupported()
            }
            let lower = try compare(column, .greaterThanOrEqualTo, comparison.options, low)
            let upper = try compare(column, .lessThanOrEqualTo, comparison.options, high)
            return "(\(lower) AND \(upper))"
        case (.between, _), (.in, _):
            throw Unsupported()
        case (_, .constant(let literal)):
            return try compare(column, op, comparison.options, literal)
        default:
            throw Unsupported()
        }
    }

    /// `column op literal` for one constant.
    private mutating func compare(
        _ column: PGQuery.Column, _ op: PredicateNode.Operator, _ options: PredicateNode.Options,
        _ literal: PredicateLiteral
    ) throws(Unsupported) -> String {
        if case .null = literal {
            let sql: String
            switch column {
            case .attribute(let s, let attribute, _, _):
                // Memory reports a string operator on another type as an error, even against nil.
                if Self.isStringOperator(op), attribute.type != .string { throw Unsupported() }
                sql = s
            case .toOne(let s): sql = s
            }
            switch op {
            case .equalTo: return "(\(sql) IS NULL)"
            case .notEqualTo: return "(\(sql) IS NOT NULL)"
            case .matches: throw Unsupported()
            default: return "FALSE"
            }
        }
        guard case .attribute(let sql, let attribute, let entity, let alias) = column else { throw Unsupported() }
        if Self.isStringOperator(op) {
            guard attribute.type == .string, case .string(let text) = literal else { throw Unsupported() }
            let target = try folded(sql, attribute, entity, alias, options)
            return try stringMatch(target, op, options, text)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return try integerColumn(sql, op, literal)
        case .boolean:
            return try integerColumn("(\(sql))::int", op, literal)
        case .double, .float:
            return try doubleColumn(sql, op, literal)
        case .decimal:
            return try decimalColumn(sql, op, literal)
        case .date:
            let date: Date
            switch literal {
            case .date(let d): date = d
            case .string(let text):
                do { date = try PredicateEvaluator.typedDate(text) } catch { throw Unsupported() }
            default: throw Unsupported()
            }
            guard !date.timeIntervalSince1970.isNaN else { throw Unsupported() }
            return Self.comparison(sql, op, bind(.double(date.timeIntervalSince1970)))
        case .string:
            guard case .string(let text) = literal else { throw Unsupported() }
            let target = try folded(sql, attribute, entity, alias, options)
            let value = bind(.text(PGRowCodec.escape(PredicateEvaluator.fold(text, options))))
            return Self.comparison(target.sql, op, value, requiring: target.requirement, collate: true)
        case .uuid:
            guard case .uuid(let uuid) = literal else { throw Unsupported() }
            return Self.comparison(sql, op, bind(.uuid(uuid)))
        case .uri:
            guard case .url(let url) = literal else { throw Unsupported() }
            return Self.comparison(sql, op, bind(.text(PGRowCodec.escape(url.absoluteString))), collate: true)
        case .binaryData:
            guard case .data(let data) = literal else { throw Unsupported() }
            return Self.comparison(sql, op, bind(.bytes(data)))
        case .transformable, .objectID, .undefined:
            throw Unsupported()
        }
    }

    static func isStringOperator(_ op: PredicateNode.Operator) -> Bool {
        switch op {
        case .contains, .beginsWith, .endsWith, .like, .matches: true
        default: false
        }
    }

    mutating func bind(_ value: PGValue) -> String { query.bind(value) }

    /// `lhs op rhs`, true or false, never NULL: a NULL side makes `==` and the orderings false
    /// and `!=` true, as in memory. `condition`, when given, must hold for the comparison to be
    /// made at all (a NaN is unordered, a folded copy counts only for a set original).
    static func comparison(
        _ lhs: String, _ op: PredicateNode.Operator, _ rhs: String, requiring condition: String? = nil, collate: Bool = false
    ) -> String {
        let left = collate ? "\(lhs) COLLATE \"C\"" : lhs
        let prefix = condition.map { "\($0) AND " } ?? ""
        switch op {
        case .equalTo: return "coalesce(\(prefix)\(left) = \(rhs), false)"
        case .notEqualTo: return "(NOT coalesce(\(prefix)\(left) = \(rhs), false))"
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return "coalesce(\(prefix)\(left) \(op.rawValue) \(rhs), false)"
        default: return "FALSE"
        }
    }

    /// A comparison whose answer does not depend on the row's value (a NaN constant, a
    /// constant beyond every stored value): `==` and the orderings `holds` for set values,
    /// `!=` its opposite, a nil value making `==` and the orderings false.
    static func constant(_ sql: String, _ op: PredicateNode.Operator, holds: Bool) -> String {
        switch op {
        case .notEqualTo: return holds ? "(\(sql) IS NULL)" : "TRUE"
        default: return holds ? "(\(sql) IS NOT NULL)" : "FALSE"
        }
    }
}
#endif
