import PersistenceModel

// To-many key paths: `ANY`/`ALL`/`NONE`, `@count` and the other collection operators, as
// correlated subqueries on the destination's table, linked through the inverse to-one's column
// or the join table.

extension RelationalFetchCompiler {
    /// A key path cut at its first to-many relationship.
    struct ToManySplit {
        /// The source row's key, in the outer query.
        var owner: String
        /// The destination entity.
        var destination: EntitySchema
        var link: RelationalToManyLink
        /// The key path after the to-many.
        var rest: [String]
    }

    /// nil when `steps` goes through no to-many; `.some(nil)` when it does but SQL cannot
    /// follow it (left to memory); else the path cut at its first to-many.
    mutating func toManySplit(_ steps: [String]) -> ToManySplit?? {
        var current = schema
        for (index, step) in steps.enumerated() {
            guard let position = current.propertyIndex[step],
                case .relationship(let relationship) = current.properties[position],
                let destination = layout.model.schemas[relationship.destinationEntityName]
            else { return nil }
            if relationship.isToMany {
                guard !relationship.isTransient, let link = layout.toManyLink(relationship: step, entity: current) else {
                    return .some(nil)
                }
                let owner: String
                if index == 0 {
                    owner = "\(quotedIdentifier(alias)).\(quotedIdentifier(layout.keyColumn))"
                } else {
                    guard case .toOne(let key)? = resolve(Array(steps[..<index])) else { return .some(nil) }
                    owner = key
                }
                return ToManySplit(owner: owner, destination: destination, link: link, rest: Array(steps[(index + 1)...]))
            }
            current = destination
        }
        return nil
    }

    /// A compiler over the destination of `split`, and the subquery's `FROM … WHERE link`
    /// with `%JOINS%` where the inner compiler's joins go.
    private mutating func subquery(_ split: ToManySplit) -> (compiler: RelationalFetchCompiler, head: String)? {
        guard let table = layout.tableName(root: split.destination.rootName) else { return nil }
        subqueries += 1
        var inner = RelationalFetchCompiler(
            layout: layout, schema: split.destination, alias: "\(alias)s\(subqueries)", binder: binder.nested())
        let a = quotedIdentifier(inner.alias)
        var restriction = ""
        if !split.destination.ancestors.isEmpty,
            let sql = layout.entityRestriction(
                alias: inner.alias, entityNames: split.destination.hierarchyNames, binder: &inner.binder)
        {
            restriction = " AND " + sql
        }
        let key = quotedIdentifier(layout.keyColumn)
        switch split.link {
        case .inverseColumn(let column):
            return (inner, "FROM \(quotedIdentifier(table)) AS \(a) %JOINS% WHERE \(a).\(quotedIdentifier(column)) = \(split.owner)\(restriction)")
        case .joinTable(let joinTable, let own, let other):
            let l = quotedIdentifier(inner.alias + "l")
            return (
                inner,
                "FROM \(quotedIdentifier(joinTable)) AS \(l) JOIN \(quotedIdentifier(table)) AS \(a) ON \(a).\(key) = \(l).\(quotedIdentifier(other)) "
                    + "%JOINS% WHERE \(l).\(quotedIdentifier(own)) = \(split.owner)\(restriction)"
            )
        }
    }

    /// `ANY`/`ALL`/`NONE` over a to-many key path: whether some, every or no destination
    /// passes the comparison of its key path after the to-many.
    mutating func quantified(
        _ quantifier: PredicateNode.Quantifier, _ split: ToManySplit, _ comparison: PredicateNode.Comparison
    ) -> String? {
        guard !split.rest.isEmpty else { return nil }
        switch comparison.right {
        case .constant, .aggregate: break
        default: return nil
        }
        guard case (var inner, let head)? = subquery(split) else { return nil }
        var element = comparison
        element.quantifier = nil
        element.left = .keyPath(split.rest)
        // ALL is NOT EXISTS … AND NOT condition: the condition is negated there.
        inner.negated = quantifier == .all
        guard let condition = inner.compile(element) else { return nil }
        let sql = head.replacingOccurrences(of: "%JOINS%", with: inner.joins.joined(separator: " "))
        binder.adopt(inner.binder)
        switch quantifier {
        case .any: return "EXISTS (SELECT 1 \(sql) AND \(condition))"
        case .all: return "(NOT EXISTS (SELECT 1 \(sql) AND NOT \(condition)))"
        case .noElement: return "(NOT EXISTS (SELECT 1 \(sql) AND \(condition)))"
        }
    }

    /// `collection.@count` compared with a number.
    mutating func count(_ collection: [String], _ op: PredicateNode.Operator, _ right: PredicateNode.Operand) -> String? {
        guard case .some(.some(let split)) = toManySplit(collection), split.rest.isEmpty,
            case .constant(let literal) = right
        else { return nil }
        switch op {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: break
        default: return nil
        }
        switch literal {
        case .integer: break
        case .double(let d): if d.isNaN { return op == .notEqualTo ? dialect.alwaysTrue : dialect.alwaysFalse }
        default: return nil
        }
        guard let (inner, head) = subquery(split) else { return nil }
        let sql = "(SELECT count(*) " + head.replacingOccurrences(of: "%JOINS%", with: inner.joins.joined(separator: " ")) + ")"
        binder.adopt(inner.binder)
        let rhs: String
        switch literal {
        case .integer(let i): rhs = bind(.integer(i))
        case .double(let d): rhs = bind(.real(d))
        default: return nil
        }
        return comparison(sql, op, rhs)
    }

    /// `collection.@min.key`, `@max` or `@sum` compared as the key's column compares, for
    /// the types whose SQL aggregate is the evaluator's answer exactly: the least and greatest
    /// integer or floating-point value (SQL's `min` and `max` skip NULL, and the layout's
    /// compared value reads NaN as NULL, which the evaluator skips too; an empty collection's
    /// NULL compares as its nil does), and the sum of 16- and 32-bit integers (0 when empty, as
    /// in memory, and far from overflowing). Averages, decimals, dates, and sums of 64-bit
    /// integers (which go on past Int64 in memory, where SQL's `sum` fails) are left to the
    /// caller, as is a destination whose subquery binds values of its own (the comparison may
    /// spell its left side more than once, and a `?` is bound once).
    mutating func aggregate(
        _ function: PredicateNode.CollectionFunction, _ collection: [String], _ key: [String],
        _ op: PredicateNode.Operator, _ right: PredicateNode.Operand
    ) -> String? {
        guard !key.isEmpty, case .some(.some(let split)) = toManySplit(collection), split.rest.isEmpty,
            var (inner, head) = subquery(split),
            case .attribute(let column, let attribute, let entity, let alias)? = inner.resolve(key),
            layout.comparesInSQL(attribute), inner.bindings.isEmpty
        else { return nil }
        let value = layout.comparedValue(column, of: attribute)
        let expression: String
        var result = attribute
        switch (function, attribute.type) {
        case (.min, .integer16), (.min, .integer32), (.min, .integer64), (.min, .double), (.min, .float):
            expression = "min(\(value))"
        case (.max, .integer16), (.max, .integer32), (.max, .integer64), (.max, .double), (.max, .float):
            expression = "max(\(value))"
        case (.sum, .integer16), (.sum, .integer32):
            expression = "coalesce(sum(\(value)), 0)"
            result = AttributeDescription(name: attribute.name, type: .integer64)
        default: return nil
        }
        let sql = "(SELECT \(expression) " + head.replacingOccurrences(of: "%JOINS%", with: inner.joins.joined(separator: " ")) + ")"
        return compare(Target(column: sql, attribute: result, entity: entity, alias: alias), op, [], right)
    }
}
