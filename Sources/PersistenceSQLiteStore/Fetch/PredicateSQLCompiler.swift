import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLite
import PersistenceStore

/// Compiles a ``PredicateNode`` into an SQL condition with `?` placeholders and the values to
/// bind, reproducing the in-memory semantics documented on ``PredicateEvaluator``.
///
/// Every comparison compiles to an expression that is 0 or 1, never NULL (two-valued logic),
/// so `NOT` behaves as in memory. Literals are bound, never spliced, and encoded the way the
/// compared column stores its values (``RowCodec``). Key paths through to-one relationships
/// become LEFT JOINs (``FetchCompiler/column(forKeyPath:)``); `ANY`/`ALL`/`NONE` and
/// collection operators on a to-many relationship become correlated subqueries on the
/// destination table, linked through the inverse to-one column or the join table.
package struct PredicateSQLCompiler {
    /// The compiler that resolves key paths and collects joins.
    package var fetch: FetchCompiler
    /// The values to bind, in placeholder order.
    package internal(set) var arguments: [SQLiteValue] = []
    /// Subqueries made so far, for unique aliases.
    var nextSubquery = 0
    /// Whether the condition being compiled is under a `NOT`, where a comparison must be
    /// false, never NULL, for a NULL operand (NOT NULL is NULL, where the evaluator's NOT
    /// false is true). Elsewhere SQLite's NULL reads as false, so a comparison stays the bare
    /// `column = ?` that an index can answer, not `coalesce(column = ?, 0)`, which it cannot.
    var negated = false

    /// Prepares to compile predicates over the entity `fetch` was made for.
    package init(fetch: FetchCompiler) {
        self.fetch = fetch
    }

    /// The SQL condition for `node`; placeholders are appended to ``arguments``.
    ///
    /// - Throws: `FetchError` for an unknown or transient key, an unbound variable, a type
    ///   mismatch, or a form SQL does not support yet.
    package mutating func condition(for node: PredicateNode) throws -> String {
        switch node {
        case .truePredicate: return "1"
        case .falsePredicate: return "0"
        case .and(let children):
            guard !children.isEmpty else { return "1" }
            return SQLChain.joined(try Self.gatheringLists(children, or: false).map { try condition(for: $0) }, by: "AND")
        case .or(let children):
            guard !children.isEmpty else { return "0" }
            return SQLChain.joined(try Self.gatheringLists(children, or: true).map { try condition(for: $0) }, by: "OR")
        case .not(let child):
            let outer = negated
            negated = true
            defer { negated = outer }
            return "(NOT \(try condition(for: child)))"
        case .comparison(let comparison): return try compile(comparison)
        }
    }

    // MARK: - Comparisons

    private var entity: String { fetch.mapping.schema.name }

    func failure(_ reason: String) -> FetchError { FetchError(entity: entity, reason: reason) }

    private mutating func compile(_ comparison: PredicateNode.Comparison) throws -> String {
        try checkVariables(comparison.left)
        try checkVariables(comparison.right)
        var comparison = comparison
        // `5 < price` reads as `price > 5`.
        if case .constant = comparison.left, case .keyPath = comparison.right, comparison.quantifier == nil {
            guard let mirrored = comparison.operator.mirrored else {
                throw failure("a constant on the left of \(comparison.operator.rawValue) is not supported in SQL yet")
            }
            swap(&comparison.left, &comparison.right)
            comparison.operator = mirrored
        }
        switch comparison.left {
        case .keyPath(let components):
            if let split = try toManySplit(components) {
                guard let quantifier = comparison.quantifier else {
                    throw failure(
                        "\(QuotedText.excerpt(components.joined(separator: "."))) is a collection: use ANY, ALL or NONE to compare "
                            + "its elements, or @count for its size")
                }
                return try quantified(quantifier, split, comparison)
            }
            if let quantifier = comparison.quantifier {
                throw failure("\(quantifier.rawValue) needs a to-many key path, but \(QuotedText.excerpt(components.joined(separator: "."))) is not one")
            }
            let target = try column(components)
            return try compare(target, comparison.operator, comparison.options, comparison.right)
        case .collectionFunction(let function, let collection, let key):
            guard comparison.quantifier == nil else { throw failure("a quantifier before \(function.rawValue) is not supported") }
            let target = try aggregate(function, collection, key)
            return try compare(target, comparison.operator, comparison.options, comparison.right)
        default:
            throw failure("the comparison '\(PredicateNode.comparison(comparison))' is not supported in SQL yet")
        }
    }

    private func checkVariables(_ operand: PredicateNode.Operand) throws {
        var names: [String] = []
        operand.forEachVariable { names.append($0) }
        if let name = names.first {
            throw failure("variable $\(name) has no value; call substituting(_:) first")
        }
    }

    /// A compiled left-hand side: SQL and the kind of value it holds.
    struct Target {
        var sql: String
        var kind: ValueKind
        var name: String
    }

    /// What a column or expression holds, for encoding literals and checking types.
    enum ValueKind: Equatable {
        case integer, bool, double, decimal, string, date, uuid, url, data, object, opaque

        init(_ type: AttributeType) {
            switch type {
            case .integer16, .integer32, .integer64: self = .integer
            case .boolean: self = .bool
            case .double, .float: self = .double
            case .decimal: self = .decimal
            case .string: self = .string
            case .date: self = .date
            case .uuid: self = .uuid
            case .uri: self = .url
            case .binaryData: self = .data
            case .transformable, .objectID, .undefined: self = .opaque
            }
        }

        var isNumeric: Bool { [.integer, .bool, .double, .decimal].contains(self) }

        var description: String {
            switch self {
            case .integer: "an integer"
            case .bool: "a boolean"
            case .double: "a double"
            case .decimal: "a decimal"
            case .string: "a string"
            case .date: "a date"
            case .uuid: "a UUID"
            case .url: "a URL"
            case .data: "data"
            case .object: "an object"
            case .opaque: "a transformable value"
            }
        }
    }

    private mutating func column(_ components: [String]) throws -> Target {
        let keyPath = components.joined(separator: ".")
        let (sql, _) = try fetch.column(forKeyPath: keyPath)
        return Target(sql: sql, kind: try kind(ofKeyPath: components, from: fetch.mapping), name: keyPath)
    }

    func kind(ofKeyPath components: [String], from start: EntityMapping) throws -> ValueKind {
        var current = start
        for (index, step) in components.enumerated() {
            guard let position = current.schema.propertyIndex[step] else {
                throw failure("\(current.schema.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            switch current.schema.properties[position] {
            case .attribute(let a): return ValueKind(a.type)
            case .relationship(let r):
                if index == components.count - 1 { return .object }
                guard let next = fetch.schema.entities[r.destinationEntityName] else {
                    throw failure("unknown destination of \(step)")
                }
                current = next
            }
        }
        throw failure("the key path is empty")
    }

    /// The type of the attribute a key path ends at, or nil when it ends at a relationship.
    func attributeType(ofKeyPath components: [String], from start: EntityMapping) throws -> AttributeType? {
        var current = start
        for step in components {
            guard let position = current.schema.propertyIndex[step] else {
                throw failure("\(current.schema.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            switch current.schema.properties[position] {
            case .attribute(let a): return a.type
            case .relationship(let r):
                guard let next = fetch.schema.entities[r.destinationEntityName] else { return nil }
                current = next
            }
        }
        return nil
    }

    // MARK: - Operators

    mutating func bind(_ value: SQLiteValue) -> String {
        arguments.append(value)
        return "?"
    }

    mutating func compare(
        _ target: Target, _ op: PredicateNode.Operator, _ options: PredicateNode.Options,
        _ right: PredicateNode.Operand
    ) throws -> String {
        switch op {
        case .in:
            switch right {
            case .aggregate(let items):
                guard !items.isEmpty else { return "0" }
                if items.count > Self.longListThreshold { return try membership(target, options, items) }
                return SQLChain.joined(try items.map { try compare(target, .equalTo, options, $0) }, by: "OR")
            case .constant(.string(let haystack)) where target.kind == .string:
                let column = folded(target.sql, options)
                return "coalesce(instr(\(bind(.text(PredicateEvaluator.fold(haystack, options)))), \(column)) > 0, 0)"
            case .constant(.null): return "0"
            default: break
            }
        case .between:
            guard case .aggregate(let bounds) = right, bounds.count == 2 else {
                throw failure("BETWEEN needs two values, but \(right) is not a pair")
            }
            let low = try compare(target, .greaterThanOrEqualTo, options, bounds[0])
            let high = try compare(target, .lessThanOrEqualTo, options, bounds[1])
            return "(\(low) AND \(high))"
        default: break
        }
        guard case .constant(let literal) = right else {
            throw failure("comparing \(target.name) with \(right) is not supported in SQL yet; compare with a constant")
        }
        if case .null = literal {
            switch op {
            case .equalTo: return "(\(target.sql) IS NULL)"
            case .notEqualTo: return "(\(target.sql) IS NOT NULL)"
            default: return "0"
            }
        }
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return try ordered(target, op, options, literal)
        case .contains, .beginsWith, .endsWith, .like, .matches, .in:
            guard target.kind == .string, case .string(let text) = literal else {
                throw mismatch(target, literal, op)
            }
            return try stringMatch(target, op, options, text)
        case .between: return "0"
        }
    }

    private func mismatch(_ target: Target, _ literal: PredicateLiteral, _ op: PredicateNode.Operator) -> FetchError {
        failure(
            "cannot compare \(QuotedText.excerpt(target.name)) (\(target.kind.description)) with "
                + "\(QuotedText.excerpt("\(PredicateNode.Operand.constant(literal))")) "
                + "(\(literal.typeDescription)) using '\(op.rawValue)'")
    }

    private mutating func ordered(
        _ target: Target, _ op: PredicateNode.Operator, _ options: PredicateNode.Options,
        _ literal: PredicateLiteral
    ) throws -> String {
        var lhs = target.sql
        var suffix = ""
        let value: SQLiteValue
        switch (target.kind, literal) {
        case (.string, .string(let s)):
            lhs = folded(target.sql, options)
            value = .text(PredicateEvaluator.fold(s, options))
        case (.date, .date(let d)): value = .real(d.timeIntervalSince1970)
        case (.date, .string(let text)):
            // A date typed as text, as the evaluator reads it (beyond Core Data's syntax).
            do { value = .real(try PredicateEvaluator.typedDate(text).timeIntervalSince1970) } catch {
                throw failure(
                    "\(QuotedText.excerpt(target.name)) \(op.rawValue) \(QuotedText.excerpt("\(PredicateNode.Operand.constant(literal))")): "
                        + String(describing: error))
            }
        case (.uuid, .uuid(let u)): value = .text(u.uuidString)
        case (.url, .url(let u)): value = .text(u.absoluteString)
        case (.data, .data(let d)): value = .blob(d)
        case (let kind, _) where kind.isNumeric:
            guard let number = Number(PredicateValue(literal)) else { throw mismatch(target, literal, op) }
            if number.doubleValue.isNaN { return op == .notEqualTo ? "1" : "0" }
            switch (kind, number) {
            case (.decimal, .double(let d)):
                return decimalColumn(target.sql, op, comparedWith: d)
            case (.double, .decimal(let d)):
                return doubleColumn(doubleColumnValue(target.sql), op, comparedWith: d)
            case (.double, _), (_, .double):
                // Compared as Double; NaN, stored as text, is unordered.
                if kind == .double { lhs = doubleColumnValue(target.sql) }
                value = .real(number.doubleValue)
            case (.decimal, _):
                return decimalColumn(target.sql, op, comparedWithText: DecimalText.format(number.decimalValue))
            case (_, .decimal(let d)):
                lhs = "CAST(\(target.sql) AS TEXT)"
                value = .text(DecimalText.format(d))
                suffix = " COLLATE DECIMAL"
            case (_, .integer(let i)): value = .integer(i)
            }
        default: throw mismatch(target, literal, op)
        }
        // Bound first: a method call's receiver is read before its arguments, so binding
        // inside the call's arguments would append to a shared copy of `arguments`, copying
        // the whole array once per comparison: quadratic in a long chain of comparisons.
        let placeholder = bind(value)
        return comparison(lhs, op, placeholder, suffix: suffix)
    }

    /// `lhs op rhs` where a NULL side makes `==` and the orderings false and `!=` true, as
    /// in the evaluator (under a `NOT` spelled out with `coalesce`; see ``negated``).
    func comparison(_ lhs: String, _ op: PredicateNode.Operator, _ rhs: String, suffix: String = "") -> String {
        switch op {
        case .equalTo: return negated ? "coalesce(\(lhs) = \(rhs)\(suffix), 0)" : "(\(lhs) = \(rhs)\(suffix))"
        case .notEqualTo: return "(NOT coalesce(\(lhs) = \(rhs)\(suffix), 0))"
        default:
            return negated
                ? "coalesce(\(lhs) \(op.rawValue) \(rhs)\(suffix), 0)" : "(\(lhs) \(op.rawValue) \(rhs)\(suffix))"
        }
    }

    /// The column folded as `[c]`, `[d]` or `[cd]` fold in memory.
    func folded(_ sql: String, _ options: PredicateNode.Options) -> String {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (false, false): sql
        case (true, true): "canonical(\(sql))"
        default: "predicate_fold(\(sql), \(options.rawValue))"
        }
    }

    private mutating func stringMatch(
        _ target: Target, _ op: PredicateNode.Operator, _ options: PredicateNode.Options, _ text: String
    ) throws -> String {
        let column = folded(target.sql, options)
        let needle = SQLiteValue.text(PredicateEvaluator.fold(text, options))
        switch op {
        case .contains: return "coalesce(instr(\(column), \(bind(needle))) > 0, 0)"
        case .beginsWith: return "coalesce(instr(\(column), \(bind(needle))) = 1, 0)"
        case .endsWith:
            let a = bind(needle), b = bind(needle), c = bind(needle)
            return "coalesce(length(\(column)) >= length(\(a)) AND substr(\(column), length(\(column)) - length(\(b)) + 1) = \(c), 0)"
        case .like:
            return "coalesce(\(column) GLOB \(bind(.text(LikePattern.glob(text, options: options)))), 0)"
        default:
            // Validate as the evaluator does, then anchor so that alternation matches in full.
            do { _ = try RegexCache().regex(for: text, options: options) } catch let error as FetchPredicateError {
                throw failure(error.message)
            }
            let pattern = RegexCache.fold(pattern: text, options)
            let flags = options.contains(.caseInsensitive) ? "(?i)" : ""
            let anchored = bind(.text(flags + "\\A(?:" + pattern + ")\\z"))
            return "coalesce(regexp(\(anchored), \(column), \(bind(.text(text)))), 0)"
        }
    }
}
