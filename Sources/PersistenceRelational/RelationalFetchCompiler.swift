import Foundation
import PersistenceModel

/// Compiles a `FetchRequest` into SQL over a store's `RelationalLayout`: the entity
/// restriction, the predicate's terms, key paths through to-ones (as `LEFT JOIN`s), the
/// sorts, the window and the count, reproducing what `PredicateEvaluator` and
/// `SortValueOrder` answer in memory.
///
/// Exact or not at all: each top-level `AND` term the layout can answer exactly becomes SQL,
/// and the others (a to-many key path, `MATCHES`, a decimal, a value the layout's encoding
/// cannot compare) are left as the query's `residual`, which the store evaluates in memory
/// on the rows the SQL returns. A sort key SQL cannot order as memory does leaves the whole
/// sort to memory, and a residual or an in-memory sort leaves the window to memory too.
///
/// Every compiled comparison is 0 or 1, never NULL (two-valued logic), so `NOT` behaves as in
/// memory; literals are bound, never spliced. The request is expected to be checked already
/// (known keys, no transient ones): anything the compiler does not recognise is left to
/// memory, where the evaluator reports it.
package struct RelationalFetchCompiler {
    let layout: any RelationalLayout
    let schema: EntitySchema
    /// The root table's alias (a subquery's own, inside a to-many's subquery).
    let alias: String
    var joins: [String] = []
    private var joinAliases: [String: (alias: String, schema: EntitySchema)] = [:]
    var bindings: [RelationalValue] = []
    /// Subqueries made so far, for unique aliases.
    var subqueries = 0
    /// Whether the condition being compiled is under a `NOT`, where a comparison must be
    /// false, never NULL, for a NULL operand (NOT NULL is NULL, where the evaluator's NOT
    /// false is true). Elsewhere NULL reads as false, so a comparison stays the bare
    /// `column = ?` an index can answer, not `coalesce(column = ?, 0)`, which it cannot.
    var negated = false

    init(layout: any RelationalLayout, schema: EntitySchema, alias: String = "t") {
        self.layout = layout
        self.schema = schema
        self.alias = alias
    }

    /// The query for `request` over `layout`, or nil when the layout has no table for its
    /// entity. With `searchKeyPaths` (the string key paths a search of the request compares),
    /// the search text narrows the rows in SQL to those where each of its words is in one of
    /// them, folded as a search folds (`SearchText.matches`); the caller still ranks, and
    /// checks, the rows in memory.
    package static func compile(
        _ request: FetchRequest, layout: any RelationalLayout, searchKeyPaths: [[String]]? = nil
    ) -> RelationalQuery? {
        guard let schema = layout.model.schemas[request.entityName], let table = layout.tableName(root: schema.rootName)
        else { return nil }
        var compiler = RelationalFetchCompiler(layout: layout, schema: schema)
        var conditions: [String] = []
        let names: [String]? =
            !request.includesSubentities ? [schema.name] : schema.ancestors.isEmpty ? nil : schema.hierarchyNames
        if let names, let restriction = layout.entityRestriction(alias: compiler.alias, entityNames: names) {
            conditions.append(restriction)
        }
        var residual: [PredicateNode] = []
        if let predicate = request.predicate {
            for term in Self.conjuncts(predicate.expression) {
                if let sql = compiler.attempt(term) {
                    conditions.append(sql)
                } else {
                    residual.append(term)
                    if let narrowing = compiler.narrowing(term) { conditions.append(narrowing) }
                }
            }
        }
        if let text = request.searchText, let searchKeyPaths, let narrowing = compiler.searchNarrowing(text, searchKeyPaths) {
            conditions.append(narrowing)
        }
        var order: [String] = []
        var sortsInSQL = true
        for key in request.sortDescriptors {
            guard let sql = compiler.sortExpression(key.keyPath) else {
                sortsInSQL = false
                break
            }
            order.append(sql + (key.ascending ? " ASC" : " DESC"))
        }
        let tieBreak = "\(quotedIdentifier(compiler.alias)).\(quotedIdentifier(layout.keyColumn))"
        return RelationalQuery(
            alias: compiler.alias,
            from: "\(quotedIdentifier(table)) AS \(quotedIdentifier(compiler.alias))"
                + compiler.joins.map { " " + $0 }.joined(),
            condition: conditions.isEmpty ? nil : conditions.joined(separator: " AND "),
            residual: residual.isEmpty ? nil : residual.count == 1 ? residual[0] : .and(residual),
            ordering: ((sortsInSQL ? order : []) + [tieBreak + " ASC"]).joined(separator: ", "),
            sortsInSQL: sortsInSQL, bindings: compiler.bindings, limit: request.fetchLimit, offset: request.fetchOffset)
    }

    /// The terms of a top-level `AND`, nested ones flattened.
    private static func conjuncts(_ node: PredicateNode) -> [PredicateNode] {
        if case .and(let children) = node { return children.flatMap(conjuncts) }
        return [node]
    }

    /// `node` as SQL, or nil (its bindings taken back) when it cannot be answered exactly.
    private mutating func attempt(_ node: PredicateNode) -> String? {
        let mark = bindings.count
        guard let sql = condition(node) else {
            bindings.removeSubrange(mark...)
            return nil
        }
        return sql
    }

    private mutating func condition(_ node: PredicateNode) -> String? {
        switch node {
        case .truePredicate: return "1"
        case .falsePredicate: return "0"
        case .and(let children), .or(let children):
            let isAnd = if case .and = node { true } else { false }
            guard !children.isEmpty else { return isAnd ? "1" : "0" }
            var parts: [String] = []
            for child in children {
                guard let part = condition(child) else { return nil }
                parts.append(part)
            }
            return "(" + parts.joined(separator: isAnd ? " AND " : " OR ") + ")"
        case .not(let child):
            let outer = negated
            negated = true
            defer { negated = outer }
            return condition(child).map { "(NOT \($0))" }
        case .comparison(let comparison): return compile(comparison)
        }
    }

    // MARK: - Key paths

    /// Where a key path through to-ones ends.
    enum Resolved {
        /// An attribute's column (qualified) and description.
        case attribute(String, AttributeDescription)
        /// A to-one's destination row, joined: its key column (qualified), NULL when there is
        /// no destination (none set, or a key naming no row).
        case toOne(String)
    }

    /// The column a key path ends at, joining the to-ones before it; nil for an unknown,
    /// transient or to-many step.
    mutating func resolve(_ steps: [String]) -> Resolved? {
        var current = schema
        var currentAlias = alias
        for (index, step) in steps.enumerated() {
            guard let position = current.propertyIndex[step] else { return nil }
            let property = current.properties[position]
            if property.isTransient { return nil }
            let isLast = index == steps.count - 1
            switch property {
            case .attribute(let attribute):
                guard isLast, let column = layout.column(property: step, entity: current) else { return nil }
                return .attribute("\(quotedIdentifier(currentAlias)).\(quotedIdentifier(column))", attribute)
            case .relationship(let relationship):
                guard !relationship.isToMany, let column = layout.column(property: step, entity: current),
                    let destination = layout.model.schemas[relationship.destinationEntityName],
                    let table = layout.tableName(root: destination.rootName)
                else { return nil }
                let path = steps[...index].joined(separator: ".")
                if let existing = joinAliases[path] {
                    currentAlias = existing.alias
                } else {
                    let joined = "\(alias)j\(joinAliases.count)"
                    joins.append(
                        "LEFT JOIN \(quotedIdentifier(table)) AS \(quotedIdentifier(joined)) ON "
                            + "\(quotedIdentifier(joined)).\(quotedIdentifier(layout.keyColumn)) = "
                            + "\(quotedIdentifier(currentAlias)).\(quotedIdentifier(column))")
                    joinAliases[path] = (joined, destination)
                    currentAlias = joined
                }
                if isLast { return .toOne("\(quotedIdentifier(currentAlias)).\(quotedIdentifier(layout.keyColumn))") }
                current = destination
            }
        }
        return nil
    }

    /// The ORDER BY expression of a sort key path, or nil when SQL cannot order it as memory.
    private mutating func sortExpression(_ keyPath: String) -> String? {
        guard case .attribute(let column, let attribute)? = resolve(keyPath.split(separator: ".").map(String.init)),
            layout.sortsInSQL(attribute)
        else { return nil }
        return column
    }

    // MARK: - Narrowing

    /// Each word of the search `text` in one of the fields at `keyPaths` (string attributes,
    /// through to-ones), folded canonically: "0" for text without a word, which matches
    /// nothing; nil when a key path is not a string column the dialect can fold.
    mutating func searchNarrowing(_ text: String, _ keyPaths: [[String]]) -> String? {
        let words = SearchText(text).words
        guard !words.isEmpty else { return "0" }
        var fields: [String] = []
        for path in keyPaths {
            guard case .attribute(let column, let attribute)? = resolve(path), attribute.type == .string,
                let folded = layout.folded(column, [.caseInsensitive, .diacriticInsensitive])
            else { return nil }
            fields.append(folded)
        }
        var parts: [String] = []
        for word in words {
            var alternatives: [String] = []
            for field in fields { alternatives.append("coalesce(instr(\(field), \(bind(.text(word)))) > 0, 0)") }
            parts.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        return "(" + parts.joined(separator: " AND ") + ")"
    }

    /// A condition every row passing `term` passes, when `term` compares a column the layout
    /// narrows approximately (`narrowsApproximately`) with a number: rows whose value is not
    /// an INTEGER or REAL pass, the others pass when within a relative millionth of a
    /// millionth of the bound, far beyond any rounding between Decimal and Double. The term
    /// stays the residual, which decides exactly.
    mutating func narrowing(_ term: PredicateNode) -> String? {
        guard case .comparison(var comparison) = term, comparison.quantifier == nil, comparison.options.isEmpty else {
            return nil
        }
        if case .constant = comparison.left, case .keyPath = comparison.right {
            guard let mirrored = comparison.operator.mirrored, mirrored != .contains else { return nil }
            swap(&comparison.left, &comparison.right)
            comparison.operator = mirrored
        }
        guard case .keyPath(let steps) = comparison.left, toManySplit(steps) == nil,
            case .attribute(let column, let attribute)? = resolve(steps), layout.narrowsApproximately(attribute)
        else { return nil }
        func number(_ operand: PredicateNode.Operand) -> Double? {
            guard case .constant(let literal) = operand else { return nil }
            let value: Double? =
                switch literal {
                case .integer(let i): Double(i)
                case .double(let d): d
                case .decimal(let d): Double(d.description)
                default: nil
                }
            return value.flatMap { $0.isFinite ? $0 : nil }
        }
        func slack(_ v: Double) -> Double { v.magnitude * 1e-12 + 1e-300 }
        let loose = "typeof(\(column)) NOT IN ('integer', 'real')"
        switch comparison.operator {
        case .lessThan, .lessThanOrEqualTo:
            guard let v = number(comparison.right) else { return nil }
            return "(\(loose) OR \(column) <= \(bind(.real(v + slack(v)))))"
        case .greaterThan, .greaterThanOrEqualTo:
            guard let v = number(comparison.right) else { return nil }
            return "(\(loose) OR \(column) >= \(bind(.real(v - slack(v)))))"
        case .equalTo:
            guard let v = number(comparison.right) else { return nil }
            return "(\(loose) OR \(column) BETWEEN \(bind(.real(v - slack(v)))) AND \(bind(.real(v + slack(v)))))"
        case .between:
            guard case .aggregate(let bounds) = comparison.right, bounds.count == 2, let low = number(bounds[0]),
                let high = number(bounds[1])
            else { return nil }
            return "(\(loose) OR \(column) BETWEEN \(bind(.real(low - slack(low)))) AND \(bind(.real(high + slack(high)))))"
        default: return nil
        }
    }

    // MARK: - Comparisons

    mutating func bind(_ value: RelationalValue) -> String {
        bindings.append(value)
        return "?"
    }

    mutating func compile(_ comparison: PredicateNode.Comparison) -> String? {
        if case .collectionFunction(let function, let collection, let key) = comparison.left {
            guard comparison.quantifier == nil, function == .count, key.isEmpty, comparison.options.isEmpty else { return nil }
            return count(collection, comparison.operator, comparison.right)
        }
        if case .keyPath(let steps) = comparison.left, let split = toManySplit(steps) {
            guard let quantifier = comparison.quantifier, let split else { return nil }
            return quantified(quantifier, split, comparison)
        }
        guard comparison.quantifier == nil else { return nil }
        var comparison = comparison
        // `5 < price` reads as `price > 5`.
        if case .constant = comparison.left, case .keyPath = comparison.right {
            switch comparison.operator {
            case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
                guard let mirrored = comparison.operator.mirrored else { return nil }
                swap(&comparison.left, &comparison.right)
                comparison.operator = mirrored
            default: return nil
            }
        }
        guard case .keyPath(let steps) = comparison.left, let resolved = resolve(steps) else { return nil }
        switch resolved {
        case .toOne(let key):
            guard comparison.options.isEmpty, case .constant(.null) = comparison.right else { return nil }
            switch comparison.operator {
            case .equalTo: return "(\(key) IS NULL)"
            case .notEqualTo: return "(\(key) IS NOT NULL)"
            default: return nil
            }
        case .attribute(let column, let attribute):
            guard layout.comparesInSQL(attribute) else { return nil }
            return compare(column, attribute, comparison.operator, comparison.options, comparison.right)
        }
    }

    private mutating func compare(
        _ column: String, _ attribute: AttributeDescription, _ op: PredicateNode.Operator,
        _ options: PredicateNode.Options, _ right: PredicateNode.Operand
    ) -> String? {
        switch op {
        case .in:
            switch right {
            case .aggregate(let items):
                guard !items.isEmpty else { return "0" }
                var parts: [String] = []
                for item in items {
                    guard let part = compare(column, attribute, .equalTo, options, item) else { return nil }
                    parts.append(part)
                }
                return "(" + parts.joined(separator: " OR ") + ")"
            case .constant(.null): return "0"
            default: return nil
            }
        case .between:
            guard case .aggregate(let bounds) = right, bounds.count == 2,
                let low = compare(column, attribute, .greaterThanOrEqualTo, options, bounds[0]),
                let high = compare(column, attribute, .lessThanOrEqualTo, options, bounds[1])
            else { return nil }
            return "(\(low) AND \(high))"
        default: break
        }
        guard case .constant(let literal) = right else { return nil }
        if case .null = literal {
            guard options.isEmpty else { return nil }
            switch op {
            case .equalTo: return "(\(column) IS NULL)"
            case .notEqualTo: return "(\(column) IS NOT NULL)"
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: return "0"
            default: return nil
            }
        }
        if attribute.type == .string { return stringComparison(column, op, options, literal) }
        guard options.isEmpty else { return nil }
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            // NaN is unordered: equal to nothing, unequal to everything, nil included.
            if case .double(let d) = literal, d.isNaN, attribute.type.isNumeric { return op == .notEqualTo ? "1" : "0" }
            guard let value = layout.encoded(literal, for: attribute) else { return nil }
            return comparison(layout.comparedValue(column, of: attribute), op, bind(value))
        default: return nil
        }
    }

    /// `lhs op rhs` where a NULL side makes `==` and the orderings false and `!=` true, as
    /// in the evaluator (under a `NOT` spelled out with `coalesce`; see ``negated``).
    func comparison(_ lhs: String, _ op: PredicateNode.Operator, _ rhs: String) -> String {
        switch op {
        case .equalTo: return negated ? "coalesce(\(lhs) = \(rhs), 0)" : "(\(lhs) = \(rhs))"
        case .notEqualTo: return "(NOT coalesce(\(lhs) = \(rhs), 0))"
        default: return negated ? "coalesce(\(lhs) \(op.rawValue) \(rhs), 0)" : "(\(lhs) \(op.rawValue) \(rhs))"
        }
    }

    /// A string column against a string: folded by the dialect for `[c]`, `[d]`, `[cd]`,
    /// compared by code point (byte order of UTF-8), as the evaluator compares.
    private mutating func stringComparison(
        _ column: String, _ op: PredicateNode.Operator, _ options: PredicateNode.Options, _ literal: PredicateLiteral
    ) -> String? {
        guard case .string(let text) = literal else { return nil }
        let lhs: String
        if options.isEmpty { lhs = column } else if let folded = layout.folded(column, options) { lhs = folded } else { return nil }
        let needle = RelationalValue.text(PredicateEvaluator.fold(text, options))
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            return comparison(lhs, op, bind(needle))
        case .contains: return "coalesce(instr(\(lhs), \(bind(needle))) > 0, 0)"
        case .beginsWith: return "coalesce(instr(\(lhs), \(bind(needle))) = 1, 0)"
        case .endsWith:
            let a = bind(needle), b = bind(needle), c = bind(needle)
            return "coalesce(length(\(lhs)) >= length(\(a)) AND substr(\(lhs), length(\(lhs)) - length(\(b)) + 1) = \(c), 0)"
        case .like:
            return "coalesce(\(lhs) GLOB \(bind(.text(LikePattern.glob(text, options: options)))), 0)"
        default: return nil
        }
    }
}

extension AttributeType {
    /// Whether the evaluator reads the attribute's values as numbers.
    var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: true
        default: false
        }
    }
}
