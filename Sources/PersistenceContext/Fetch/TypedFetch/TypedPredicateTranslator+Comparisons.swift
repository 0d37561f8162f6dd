import Foundation
import PersistenceModel

// Comparisons between terms, and the quantifiers of to-many conditions.

extension TypedPredicateTranslator {
    /// `lhs op rhs` as a term. `constants` compares two Swift values as the expression would
    /// (nil when they are not of its operand type), for operands known before the fetch.
    func compare(
        _ lhs: TypedTerm, _ op: PredicateNode.Operator, _ rhs: TypedTerm, in expression: Any,
        constants: @escaping (Any?, Any?) -> Bool?
    ) throws -> TypedTerm {
        func keyPathComparison(_ path: TypedPath, _ op: PredicateNode.Operator, _ value: Any?) throws -> PredicateNode {
            guard !path.isToMany else {
                throw unsupported(expression, "a to-many relationship is compared as a value; use contains(where:), count or isEmpty")
            }
            return .comparison(.init(.keyPath(path.components), op, .constant(try literal(value, in: expression))))
        }
        switch (lhs, rhs) {
        case (.constant(let a), .constant(let b)):
            guard let result = constants(a, b) else { throw unsupported(expression, "its operands do not compare") }
            return .condition(result ? .truePredicate : .falsePredicate)
        case (.constant, _):
            guard let mirrored = op.mirrored else { throw unsupported(expression, "its operands cannot trade places") }
            return try compare(rhs, mirrored, lhs, in: expression) { constants($1, $0) }
        case (.path(let path), .constant(let value)):
            return .condition(try keyPathComparison(path, op, value))
        case (.path(let left), .path(let right)):
            guard !left.isToMany, !right.isToMany else {
                throw unsupported(expression, "a to-many relationship is compared as a value")
            }
            return .condition(.comparison(.init(.keyPath(left.components), op, .keyPath(right.components))))
        case (.shifted(let path, let inverse, let decreasing), .constant(let value)):
            let shifted: Any?
            do { shifted = try inverse(value) } catch { throw unsupported(expression, "\(error)") }
            guard let turned = decreasing ? op.mirrored : op else {
                throw unsupported(expression, "its operands cannot trade places")
            }
            return .condition(try keyPathComparison(path, turned, shifted))
        case (.coalesced(let path, let fallback), .constant(let value)):
            guard let whenNil = constants(fallback, value) else {
                throw unsupported(expression, "its operands do not compare")
            }
            let present = PredicateNode.comparison(.init(.keyPath(path.components), .notEqualTo, .constant(.null)))
            let absent = PredicateNode.comparison(.init(.keyPath(path.components), .equalTo, .constant(.null)))
            let compared = PredicateNode.and([present, try keyPathComparison(path, op, value)])
            return .condition(whenNil ? .or([compared, absent]) : compared)
        case (.count(let path), .constant(let value)):
            let count = PredicateNode.Operand.collectionFunction(.count, collection: path.components, key: [])
            return .condition(.comparison(.init(count, op, .constant(try literal(value, in: expression)))))
        case (.filteredCount(let path, let test), .constant(let value)):
            guard let number = PredicateLiteral.unwrapped(value) as? Int else {
                throw unsupported(expression, "a count is compared with a value that is not an Int")
            }
            switch (op, number) {
            case (.greaterThan, 0), (.greaterThanOrEqualTo, 1), (.notEqualTo, 0):
                return .condition(try quantified(test, over: path, every: false, in: expression))
            case (.equalTo, 0), (.lessThan, 1), (.lessThanOrEqualTo, 0):
                return .condition(.not(try quantified(test, over: path, every: false, in: expression)))
            default:
                throw unsupported(
                    expression,
                    "a store can test only whether some element passes a filter (count > 0, == 0), "
                        + "not how many do")
            }
        case (.condition(let node), .constant(let value)) where op == .equalTo || op == .notEqualTo:
            guard let bool = PredicateLiteral.unwrapped(value) as? Bool else {
                throw unsupported(expression, "a condition is compared with a value that is not a Bool")
            }
            return .condition((bool == (op == .equalTo)) ? node : .not(node))
        default:
            throw unsupported(expression, "a store compares a key path with a constant or another key path only")
        }
    }

    /// `ANY` (or, with `every`, `ALL`) element of the to-many `collection` satisfies
    /// `condition`, whose key paths start at the element.
    ///
    /// A store quantifies one comparison at a time, so the condition must split into them:
    /// some element satisfies `a || b` when some satisfies `a` or some satisfies `b`, every
    /// element satisfies `a && b` when every one satisfies `a` and every one `b`; `!` is
    /// moved inward (`ANY !a` is `!(ALL a)`, `ALL !a` is `NONE a`). `a && b` for some element,
    /// or `a || b` for every one, would need a subquery and throws.
    func quantified(
        _ condition: PredicateNode, over collection: TypedPath, every: Bool, in expression: Any
    ) throws -> PredicateNode {
        guard collection.isToMany, !collection.isInElement else {
            throw unsupported(expression, "it quantifies over something that is not a to-many relationship of the object")
        }
        let marker = Self.elementMarker
        func element(_ path: [String]) -> [String]? {
            guard path.first == marker else { return nil }
            return collection.components + path.dropFirst()
        }
        func mentionsElement(_ operand: PredicateNode.Operand) -> Bool {
            switch operand {
            case .keyPath(let path): return path.first == marker
            case .collectionFunction(_, let path, let key): return path.first == marker || key.first == marker
            case .aggregate(let items): return items.contains(where: mentionsElement)
            case .constant, .evaluatedObject, .variable: return false
            }
        }
        func quantify(_ node: PredicateNode, every: Bool, negated: Bool) throws -> PredicateNode {
            switch node {
            case .truePredicate, .falsePredicate:
                let holds = (node == .truePredicate) != negated
                // Some element: true when there is one; every element: true unless one fails.
                if every { return holds ? .truePredicate : isEmpty }
                return holds ? .not(isEmpty) : .falsePredicate
            case .not(let child):
                return try quantify(child, every: every, negated: !negated)
            case .and(let children), .or(let children):
                // Under a negation, AND and OR trade places (De Morgan).
                let isAnd = (node == .and(children)) != negated
                guard isAnd == every || children.count <= 1 else {
                    throw unsupported(
                        expression,
                        every
                            ? "every element must satisfy one of several conditions, which needs a subquery"
                            : "some element must satisfy several conditions at once, which needs a subquery; "
                                + "test each with its own contains(where:) if any elements may satisfy them")
                }
                let parts = try children.map { try quantify($0, every: every, negated: negated) }
                return every ? .and(parts) : .or(parts)
            case .comparison(var comparison):
                guard comparison.quantifier == nil, let path = element(keyPath(comparison.left)),
                    !mentionsElement(comparison.right)
                else {
                    throw unsupported(
                        expression,
                        "its condition must compare each property of the element with a constant")
                }
                comparison.left = .keyPath(path)
                // ANY !a = !(ALL a); ALL !a = NONE a.
                switch (every, negated) {
                case (false, false): comparison.quantifier = .any
                case (false, true):
                    comparison.quantifier = .all
                    return .not(.comparison(comparison))
                case (true, false): comparison.quantifier = .all
                case (true, true): comparison.quantifier = .noElement
                }
                return .comparison(comparison)
            }
        }
        var isEmpty: PredicateNode {
            .comparison(.init(.collectionFunction(.count, collection: collection.components, key: []), .equalTo, .constant(.integer(0))))
        }
        func keyPath(_ operand: PredicateNode.Operand) -> [String] {
            if case .keyPath(let path) = operand { return path }
            return []
        }
        return try quantify(condition, every: every, negated: false)
    }
}
