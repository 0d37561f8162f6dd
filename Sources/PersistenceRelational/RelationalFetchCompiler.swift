import Foundation
import PersistenceModel

/// Compiles a `FetchRequest` into SQL over a store's `RelationalLayout`: the entity
/// restriction, the predicate's terms, key paths through to-ones (as `LEFT JOIN`s) and
/// through to-manys (`ANY`/`ALL`/`NONE`, `@count`, as correlated subqueries), the sorts, the
/// window and the count, reproducing what `PredicateEvaluator` and `SortValueOrder` answer
/// in memory. The SQL is written in the layout's `RelationalDialect` (SQLite's by default).
///
/// Exact or not at all: each top-level `AND` term the layout can answer exactly becomes SQL,
/// and the others (`MATCHES`, a to-many the layout cannot follow, a value the layout's
/// encoding cannot compare) are left as the query's `residual`, which the store evaluates in
/// memory on the rows the SQL returns. A sort key SQL cannot order as memory does leaves the
/// whole sort to memory, and a residual or an in-memory sort leaves the window to memory too.
///
/// Every compiled comparison is true or false, never NULL (two-valued logic), so `NOT`
/// behaves as in memory; literals are bound, never spliced. The request is expected to be checked already
/// (known keys, no transient ones): anything the compiler does not recognise is left to
/// memory, where the evaluator reports it.
package struct RelationalFetchCompiler {
    let layout: any RelationalLayout
    let schema: EntitySchema
    /// The root table's alias (a subquery's own, inside a to-many's subquery).
    let alias: String
    var joins: [String] = []
    private var joinAliases: [String: (alias: String, schema: EntitySchema)] = [:]
    /// The values bound so far, numbered as the layout's dialect numbers placeholders.
    var binder: RelationalBinder
    var bindings: [RelationalValue] { binder.values }
    var dialect: any RelationalDialect { binder.dialect }
    /// Subqueries made so far, for unique aliases.
    var subqueries = 0
    /// Whether the condition being compiled is under a `NOT`, where a comparison must be
    /// false, never NULL, for a NULL operand (NOT NULL is NULL, where the evaluator's NOT
    /// false is true). Elsewhere NULL reads as false, so a comparison stays the bare
    /// `column = ?` an index can answer, not `coalesce(column = ?, 0)`, which it cannot.
    var negated = false

    /// The length past which a dialect may spell an `IN` list as one bound array
    /// (`RelationalDialect.member`); shorter lists stay a chain of `=` terms, which a
    /// database answers from an index one value at a time.
    package static let longList = 32

    init(layout: any RelationalLayout, schema: EntitySchema, alias: String = "t", binder: RelationalBinder? = nil) {
        self.layout = layout
        self.schema = schema
        self.alias = alias
        self.binder = binder ?? RelationalBinder(dialect: layout.dialect)
    }

    /// The query for `request` over `layout`, or nil when the layout has no table for its
    /// entity. With `searchKeyPaths` (the string key paths a search of the request compares),
    /// the search text narrows the rows in SQL to those where each of its words is in one of
    /// them, folded as a search folds (`SearchText.matches`); when the layout also computes
    /// the rank (`RelationalLayout.searchRank`) and the sorts are SQL's, the rows are ordered
    /// by rank, then the sorts, in SQL (`RelationalQuery.ranksSearch`), else the caller
    /// ranks, sorts and checks them in memory (`sortsInSQL` false), as it does whenever
    /// `ranksSearch` is false.
    package static func compile(
        _ request: FetchRequest, layout: any RelationalLayout, searchKeyPaths: [[String]]? = nil, ranksSearch: Bool = true
    ) -> RelationalQuery? {
        guard let schema = layout.model.schemas[request.entityName], let table = layout.tableName(root: schema.rootName)
        else { return nil }
        var compiler = RelationalFetchCompiler(layout: layout, schema: schema)
        var conditions: [String] = []
        let names: [String]? =
            !request.includesSubentities ? [schema.name] : schema.ancestors.isEmpty ? nil : schema.hierarchyNames
        if let names, let restriction = layout.entityRestriction(alias: compiler.alias, entityNames: names, binder: &compiler.binder) {
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
        var searchMatchesInSQL = false
        if let text = request.searchText, let searchKeyPaths, let narrowing = compiler.searchNarrowing(text, searchKeyPaths) {
            conditions.append(narrowing)
            searchMatchesInSQL = true
        }
        var order: [String] = []
        var sortsInSQL = true
        for key in request.sortDescriptors {
            guard let sql = compiler.sortExpression(key.keyPath) else {
                sortsInSQL = false
                break
            }
            order.append(layout.dialect.sortTerm(sql, ascending: key.ascending))
        }
        // A search orders by its rank first: in SQL when the layout computes it, over the
        // very columns the narrowing matched (its values bound after the condition's, as
        // the rank comes after the condition in the statement); else the whole order is
        // memory's.
        let conditionBindings = compiler.bindings.count
        var ranked = false
        if let text = request.searchText {
            if ranksSearch, sortsInSQL, searchMatchesInSQL, let searchKeyPaths,
                let rank = compiler.searchRank(text, searchKeyPaths)
            {
                order.insert(layout.dialect.sortTerm(rank, ascending: true), at: 0)
                ranked = true
            } else {
                sortsInSQL = false
            }
        }
        let tieBreak = "\(quotedIdentifier(compiler.alias)).\(quotedIdentifier(layout.keyColumn))"
        return RelationalQuery(
            alias: compiler.alias,
            from: "\(quotedIdentifier(table)) AS \(quotedIdentifier(compiler.alias))"
                + compiler.joins.map { " " + $0 }.joined(),
            condition: conditions.isEmpty ? nil : SQLChain.joined(conditions, by: "AND"),
            residual: residual.isEmpty ? nil : residual.count == 1 ? residual[0] : .and(residual),
            ordering: ((sortsInSQL ? order : []) + [layout.dialect.sortTerm(tieBreak, ascending: true)]).joined(separator: ", "),
            sortsInSQL: sortsInSQL, bindings: Array(compiler.bindings[..<conditionBindings]),
            orderingBindings: Array(compiler.bindings[conditionBindings...]), ranksSearch: ranked,
            limit: request.fetchLimit, offset: request.fetchOffset)
    }

    /// The terms of a top-level `AND`, nested ones flattened.
    static func conjuncts(_ node: PredicateNode) -> [PredicateNode] {
        if case .and(let children) = node { return children.flatMap(conjuncts) }
        return [node]
    }

    /// `node` as SQL, or nil (its bindings taken back) when it cannot be answered exactly.
    mutating func attempt(_ node: PredicateNode) -> String? {
        let mark = bindings.count
        guard let sql = condition(node), bindings.count <= dialect.maximumBindings else {
            binder.truncate(to: mark)
            return nil
        }
        return sql
    }

    private mutating func condition(_ node: PredicateNode) -> String? {
        switch node {
        case .truePredicate: return dialect.alwaysTrue
        case .falsePredicate: return dialect.alwaysFalse
        case .and(let children), .or(let children):
            let isAnd = if case .and = node { true } else { false }
            guard !children.isEmpty else { return isAnd ? dialect.alwaysTrue : dialect.alwaysFalse }
            var parts: [String] = []
            for child in children {
                guard let part = condition(child) else { return nil }
                parts.append(part)
            }
            return SQLChain.joined(parts, by: isAnd ? "AND" : "OR")
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
        /// An attribute's column (qualified) and description, and the entity and alias of
        /// the row holding it.
        case attribute(String, AttributeDescription, entity: EntitySchema, alias: String)
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
                return .attribute(
                    "\(quotedIdentifier(currentAlias)).\(quotedIdentifier(column))", attribute, entity: current, alias: currentAlias)
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
        guard case .attribute(let column, let attribute, _, _)? = resolve(keyPath.split(separator: ".").map(String.init)),
            layout.sortsInSQL(attribute)
        else { return nil }
        return attribute.type == .string || attribute.type == .uri ? dialect.byCodePoint(column) : column
    }

    // MARK: - Narrowing

    /// Each word of the search `text` in one of the fields at `keyPaths` (string attributes,
    /// through to-ones), folded canonically: "0" for text without a word, which matches
    /// nothing; nil when a key path is not a string column the dialect can fold.
    mutating func searchNarrowing(_ text: String, _ keyPaths: [[String]]) -> String? {
        let words = SearchText(text).words
        guard !words.isEmpty else { return dialect.alwaysFalse }
        var columns: [String] = []
        for path in keyPaths {
            guard case .attribute(let column, let attribute, _, _)? = resolve(path), attribute.type == .string else { return nil }
            columns.append(column)
        }
        let mark = bindings.count
        var parts: [String] = []
        for word in words {
            var alternatives: [String] = []
            for column in columns {
                guard let match = foldedContains(column, word) else {
                    binder.truncate(to: mark)
                    return nil
                }
                alternatives.append(match)
            }
            parts.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        return SQLChain.joined(parts, by: "AND")
    }

    /// The layout's rank of the search `text` over the fields at `keyPaths` (string
    /// attributes, through to-ones, as ``searchNarrowing(_:_:)`` resolved them), its folded
    /// phrase bound; nil, nothing bound, when the layout computes no rank
    /// (`RelationalLayout.searchRank`) or a key path is not a string column.
    mutating func searchRank(_ text: String, _ keyPaths: [[String]]) -> String? {
        var columns: [String] = []
        for path in keyPaths {
            guard case .attribute(let column, let attribute, _, _)? = resolve(path), attribute.type == .string else { return nil }
            columns.append(column)
        }
        let mark = bindings.count
        let phrase = bind(.text(SearchText(text).phrase))
        guard let rank = layout.searchRank(phrase, fields: columns) else {
            binder.truncate(to: mark)
            return nil
        }
        return rank
    }

    /// `column` folded canonically contains `word` (canonical already): the layout's own
    /// match where it has one (`RelationalLayout.foldedContains`), else `instr` over its fold.
    /// Nil, nothing bound, when the layout has neither.
    private mutating func foldedContains(_ column: String, _ word: String) -> String? {
        let mark = bindings.count
        let needle = bind(.text(word))
        if let sql = layout.foldedContains(column, needle) { return sql }
        guard let folded = layout.folded(column, [.caseInsensitive, .diacriticInsensitive]) else {
            binder.truncate(to: mark)
            return nil
        }
        return "coalesce(instr(\(folded), \(needle)) > 0, 0)"
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
            case .attribute(let column, let attribute, _, _)? = resolve(steps), layout.narrowsApproximately(attribute)
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
        binder.bind(value)
    }

    mutating func compile(_ comparison: PredicateNode.Comparison) -> String? {
        if case .collectionFunction(let function, let collection, let key) = comparison.left {
            guard comparison.quantifier == nil, comparison.options.isEmpty else { return nil }
            guard function == .count else { return aggregate(function, collection, key, comparison.operator, comparison.right) }
            return key.isEmpty ? count(collection, comparison.operator, comparison.right) : nil
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
        case .attribute(let column, let attribute, let entity, let alias):
            guard layout.comparesInSQL(attribute) else { return nil }
            let target = Target(column: column, attribute: attribute, entity: entity, alias: alias)
            return compare(target, comparison.operator, comparison.options, comparison.right)
        }
    }

    /// An attribute's column as a comparison reads it, with the row it is on.
    struct Target {
        var column: String
        var attribute: AttributeDescription
        var entity: EntitySchema
        var alias: String
    }

    mutating func compare(
        _ target: Target, _ op: PredicateNode.Operator, _ options: PredicateNode.Options, _ right: PredicateNode.Operand
    ) -> String? {
        let column = target.column, attribute = target.attribute
        switch op {
        case .in:
            switch right {
            case .aggregate(let items):
                guard !items.isEmpty else { return dialect.alwaysFalse }
                if let member = member(target, options, items) { return member }
                var parts: [String] = []
                for item in items {
                    guard let part = compare(target, .equalTo, options, item) else { return nil }
                    parts.append(part)
                }
                return SQLChain.joined(parts, by: "OR")
            case .constant(.null): return dialect.alwaysFalse
            default: return nil
            }
        case .between:
            guard case .aggregate(let bounds) = right, bounds.count == 2,
                let low = compare(target, .greaterThanOrEqualTo, options, bounds[0]),
                let high = compare(target, .lessThanOrEqualTo, options, bounds[1])
            else { return nil }
            return "(\(low) AND \(high))"
        default: break
        }
        guard case .constant(let literal) = right else { return nil }
        if case .null = literal {
            // Folding does not matter against nil: nil equals only nil, orders with nothing,
            // and no string contains, begins, ends or is like it.
            guard options.isEmpty || attribute.type == .string else { return nil }
            switch op {
            case .equalTo: return "(\(column) IS NULL)"
            case .notEqualTo: return "(\(column) IS NOT NULL)"
            case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: return dialect.alwaysFalse
            case .contains, .beginsWith, .endsWith, .like: return attribute.type == .string ? dialect.alwaysFalse : nil
            default: return nil
            }
        }
        if attribute.type == .string { return stringComparison(target, op, options, literal) }
        guard options.isEmpty else { return nil }
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if let own = layout.ownComparison(column, of: attribute, op, literal, negated: negated, binder: &binder) {
                return own
            }
            guard let comparand = layout.comparison(literal, op, for: attribute) else { return nil }
            let lhs = layout.comparedValue(column, of: attribute)
            switch comparand {
            case .constant(let holds): return constant(lhs, op, holds: holds)
            case .value(let value, let encodedOperator, let cast):
                // Bound first: an argument that binds while `self` is borrowed for the call
                // would copy every value bound so far (quadratic for a long `IN` list).
                let rhs = bind(value) + (cast ?? "")
                return comparison(lhs, encodedOperator, rhs)
            }
        default: return nil
        }
    }

    /// `IN` a list of constants as one condition, when the dialect spells long lists so
    /// (`RelationalDialect.member`): nil to spell it term by term.
    private mutating func member(_ target: Target, _ options: PredicateNode.Options, _ items: [PredicateNode.Operand]) -> String? {
        guard options.isEmpty else { return nil }
        var values: [RelationalValue] = []
        var cast: String?
        for (index, item) in items.enumerated() {
            guard case .constant(let literal) = item else { return nil }
            if target.attribute.type == .string {
                guard case .string(let text) = literal else { return nil }
                values.append(.text(layout.storedText(text)))
                continue
            }
            switch layout.comparison(literal, .equalTo, for: target.attribute) {
            case .constant(holds: false)?: continue
            case .value(let value, .equalTo, let itemCast)? where index == 0 || itemCast == cast:
                cast = itemCast
                values.append(value)
            default: return nil
            }
        }
        guard !values.isEmpty else { return dialect.alwaysFalse }
        return dialect.member(layout.comparedValue(target.column, of: target.attribute), of: values, cast: cast, &binder)
    }

    /// `lhs op rhs` where a NULL side makes `==` and the orderings false and `!=` true, as
    /// in the evaluator (under a `NOT` spelled out with `coalesce`; see ``negated``).
    func comparison(_ lhs: String, _ op: PredicateNode.Operator, _ rhs: String) -> String {
        switch op {
        case .equalTo: return negated ? dialect.orFalse("\(lhs) = \(rhs)") : "(\(lhs) = \(rhs))"
        case .notEqualTo: return "(NOT \(dialect.orFalse("\(lhs) = \(rhs)")))"
        default: return negated ? dialect.orFalse("\(lhs) \(op.rawValue) \(rhs)") : "(\(lhs) \(op.rawValue) \(rhs))"
        }
    }

    /// A comparison whose answer is the same for every set value (`RelationalComparand.constant`).
    private func constant(_ lhs: String, _ op: PredicateNode.Operator, holds: Bool) -> String {
        switch op {
        case .notEqualTo: return holds ? "(\(lhs) IS NULL)" : dialect.alwaysTrue
        default: return holds ? "(\(lhs) IS NOT NULL)" : dialect.alwaysFalse
        }
    }

    /// A string column against a string: folded by the layout for `[c]`, `[d]`, `[cd]`,
    /// compared by code point (byte order of UTF-8), as the evaluator compares; the string
    /// operators as the dialect spells them.
    private mutating func stringComparison(
        _ target: Target, _ op: PredicateNode.Operator, _ options: PredicateNode.Options, _ literal: PredicateLiteral
    ) -> String? {
        guard case .string(let text) = literal else { return nil }
        if op == .contains, options == [.caseInsensitive, .diacriticInsensitive] {
            let mark = bindings.count
            if let sql = layout.foldedContains(target.column, bind(.text(PredicateEvaluator.fold(text, options)))) {
                return sql
            }
            binder.truncate(to: mark)
        }
        let lhs: String
        if options.isEmpty {
            lhs = target.column
        } else if let folded = layout.folded(target.column, options, of: target.attribute, in: target.entity, alias: target.alias) {
            lhs = folded
        } else {
            return nil
        }
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            let needle = RelationalValue.text(layout.storedText(PredicateEvaluator.fold(text, options)))
            let rhs = bind(needle)
            return comparison(layout.comparedValue(lhs, of: target.attribute), op, rhs)
        case .contains, .beginsWith, .endsWith, .like, .matches:
            return dialect.stringMatch(lhs, op, text, options, &binder)
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
