import Foundation
import PersistenceModel

// The `PredicateExpressions` types a typed fetch translates, one conformance each. An
// expression of another type translates only when it reads no variable (it is then a
// constant); otherwise the translation throws, naming it.

// MARK: - Variables, key paths and values

extension PredicateExpressions.Variable: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        switch translator.bindings[key] {
        case .object(let path): return .path(path)
        case .element: return .path(TypedPath(components: [TypedPredicateTranslator.elementMarker], isToMany: false))
        case nil: throw translator.unsupported(self, "it is a variable out of scope")
        }
    }
}

extension PredicateExpressions.KeyPath: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let base = try translator.term(root)
        if let folded = try translator.folded(self, [base]) { return folded }
        switch base {
        case .path(let path):
            if let name = translator.propertyName(keyPath, of: Root.Output.self) {
                guard !path.isToMany else {
                    throw translator.unsupported(
                        self, "it reads \(name) through a to-many relationship; use contains(where:) or allSatisfy")
                }
                return .path(path.appending(name, isToMany: Output.self is any ToManyRelationshipValue.Type))
            }
            if path.isToMany, let collection = Root.Output.self as? any ToManyRelationshipValue.Type {
                if keyPath == collection.countKeyPath { return .count(path) }
                if keyPath == collection.isEmptyKeyPath {
                    let count = PredicateNode.Operand.collectionFunction(.count, collection: path.components, key: [])
                    return .condition(.comparison(.init(count, .equalTo, .constant(.integer(0)))))
                }
            }
            if !path.isToMany, keyPath == \String.isEmpty as AnyKeyPath {
                return .condition(.comparison(.init(.keyPath(path.components), .equalTo, .constant(.string("")))))
            }
            let named = TypedPredicateTranslator.name(ofKeyPath: keyPath)
            if path.isToMany {
                throw translator.unsupported(
                    self,
                    "\(named): of a to-many relationship only count and isEmpty translate; test its elements "
                        + "with contains(where:) or allSatisfy")
            }
            throw translator.unsupported(
                self,
                "\(named) names no property of its entity: generate the class with persistence-codegen or "
                    + "list the key path in its propertyNamesByKeyPath")
        case .filtered(let collection, let test):
            if let type = Root.Output.self as? any ToManyRelationshipValue.Type {
                if keyPath == type.countKeyPath { return .filteredCount(collection, test) }
                if keyPath == type.isEmptyKeyPath {
                    return .condition(.not(try translator.quantified(test, over: collection, every: false, in: self)))
                }
            }
            throw translator.unsupported(self, "of a filter's result only count and isEmpty are known")
        default:
            throw translator.unsupported(
                self,
                "\(TypedPredicateTranslator.name(ofKeyPath: keyPath)) is applied to a value a store does not keep")
        }
    }
}

extension PredicateExpressions.Value: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm { .constant(value) }
}

extension PredicateExpressions.NilLiteral: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm { .constant(nil) }
}

// MARK: - Comparisons

extension PredicateExpressions.Equal: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        try translator.compare(translator.term(lhs), .equalTo, translator.term(rhs), in: self) { a, b in
            guard let a = a as? LHS.Output, let b = b as? LHS.Output else { return nil }
            return a == b
        }
    }
}

extension PredicateExpressions.NotEqual: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        try translator.compare(translator.term(lhs), .notEqualTo, translator.term(rhs), in: self) { a, b in
            guard let a = a as? LHS.Output, let b = b as? LHS.Output else { return nil }
            return a != b
        }
    }
}

extension PredicateExpressions.Comparison: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let op: PredicateNode.Operator
        switch self.op {
        case .lessThan: op = .lessThan
        case .lessThanOrEqual: op = .lessThanOrEqualTo
        case .greaterThan: op = .greaterThan
        case .greaterThanOrEqual: op = .greaterThanOrEqualTo
        @unknown default: throw translator.unsupported(self, "its operator \(self.op) is unknown")
        }
        let compared = self.op
        return try translator.compare(translator.term(lhs), op, translator.term(rhs), in: self) { a, b in
            guard let a = a as? LHS.Output, let b = b as? LHS.Output else { return nil }
            switch compared {
            case .lessThan: return a < b
            case .lessThanOrEqual: return a <= b
            case .greaterThan: return a > b
            case .greaterThanOrEqual: return a >= b
            @unknown default: return nil
            }
        }
    }
}

// MARK: - Logic and conditionals

extension PredicateExpressions.Conjunction: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let left = try translator.condition(of: lhs)
        let right = try translator.condition(of: rhs)
        switch (left, right) {
        case (.falsePredicate, _), (_, .falsePredicate): return .condition(.falsePredicate)
        case (.truePredicate, _): return .condition(right)
        case (_, .truePredicate): return .condition(left)
        case (.and(let a), .and(let b)): return .condition(.and(a + b))
        case (.and(let a), _): return .condition(.and(a + [right]))
        default: return .condition(.and([left, right]))
        }
    }
}

extension PredicateExpressions.Disjunction: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let left = try translator.condition(of: lhs)
        let right = try translator.condition(of: rhs)
        switch (left, right) {
        case (.truePredicate, _), (_, .truePredicate): return .condition(.truePredicate)
        case (.falsePredicate, _): return .condition(right)
        case (_, .falsePredicate): return .condition(left)
        case (.or(let a), .or(let b)): return .condition(.or(a + b))
        case (.or(let a), _): return .condition(.or(a + [right]))
        default: return .condition(.or([left, right]))
        }
    }
}

extension PredicateExpressions.Negation: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        switch try translator.condition(of: wrapped) {
        case .truePredicate: return .condition(.falsePredicate)
        case .falsePredicate: return .condition(.truePredicate)
        case let node: return .condition(.not(node))
        }
    }
}

extension PredicateExpressions.Conditional: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let test = try translator.condition(of: self.test)
        switch test {
        case .truePredicate: return try translator.term(trueBranch)
        case .falsePredicate: return try translator.term(falseBranch)
        default:
            guard Output.self == Bool.self else {
                throw translator.unsupported(self, "a value chosen by a condition on the object is not a store value")
            }
            let yes = try translator.condition(of: trueBranch)
            let no = try translator.condition(of: falseBranch)
            return .condition(.or([.and([test, yes]), .and([.not(test), no])]))
        }
    }
}

// MARK: - Optionals

extension PredicateExpressions.OptionalFlatMap: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let base = try translator.term(wrapped)
        if let folded = try translator.folded(self, [base]) { return folded }
        guard case .path(let path) = base, !path.isToMany else {
            throw translator.unsupported(self, "only a to-one relationship or an optional attribute is unwrapped")
        }
        return try translator.binding(variable.key, to: .object(path)).term(transform)
    }
}

extension PredicateExpressions.NilCoalesce: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let left = try translator.term(lhs)
        let right = try translator.term(rhs)
        if let folded = try translator.folded(self, [left, right]) { return folded }
        guard case .path(let path) = left, !path.isToMany, case .constant(let fallback) = right else {
            throw translator.unsupported(self, "only a key path ?? a constant translates")
        }
        return .coalesced(path, fallback: fallback)
    }
}

extension PredicateExpressions.ForcedUnwrap: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let base = try translator.term(inner)
        if let folded = try translator.folded(self, [base]) { return folded }
        guard case .path = base else { throw translator.unsupported(self, "only a key path is unwrapped with !") }
        return base
    }
}

// MARK: - Arithmetic

extension PredicateExpressions.Arithmetic: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let left = try translator.term(lhs)
        let right = try translator.term(rhs)
        if let folded = try translator.folded(self, [left, right]) { return folded }
        switch (op, left, right) {
        case (.add, _, .constant(let c)), (.add, .constant(let c), _):
            let base = if case .constant = left { right } else { left }
            return try translator.shift(base, in: self, decreasing: false) { x in
                try ExactArithmetic.difference(x, c, as: Output.self)
            }
        case (.subtract, _, .constant(let c)):
            return try translator.shift(left, in: self, decreasing: false) { x in
                try ExactArithmetic.sum(x, c, as: Output.self)
            }
        case (.subtract, .constant(let c), _):
            return try translator.shift(right, in: self, decreasing: true) { x in
                try ExactArithmetic.difference(c, x, as: Output.self)
            }
        case (.multiply, _, .constant(let c)), (.multiply, .constant(let c), _):
            let base = if case .constant = left { right } else { left }
            guard let factor = c as? Output else { throw translator.unsupported(self, "its factor is not a \(Output.self)") }
            let negative: Bool
            do { negative = try ExactArithmetic.isNegative(factor) } catch { throw translator.unsupported(self, "\(error)") }
            return try translator.shift(base, in: self, decreasing: negative) { x in
                try ExactArithmetic.quotient(x, factor)
            }
        default:
            throw translator.unsupported(
                self, "a store compares a key path plus, minus or times constants only, not two key paths")
        }
    }
}

extension PredicateExpressions.UnaryMinus: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let base = try translator.term(wrapped)
        if let folded = try translator.folded(self, [base]) { return folded }
        return try translator.shift(base, in: self, decreasing: true) { x in
            try ExactArithmetic.difference(Output.zero, x, as: Output.self)
        }
    }
}

extension TypedPredicateTranslator {
    /// `base` (a key path, possibly shifted already) shifted once more: a constant compared
    /// with the result is `inverse`d first.
    func shift(
        _ base: TypedTerm, in expression: Any, decreasing: Bool, inverse: @escaping (Any?) throws -> Any?
    ) throws -> TypedTerm {
        switch base {
        case .path(let path) where !path.isToMany:
            return .shifted(path, inverse: inverse, decreasing: decreasing)
        case .shifted(let path, let inner, let innerDecreasing):
            return .shifted(path, inverse: { try inner(inverse($0)) }, decreasing: decreasing != innerDecreasing)
        default:
            throw unsupported(expression, "a store does arithmetic on an attribute and constants only")
        }
    }
}

// MARK: - Strings and sequences

extension PredicateExpressions.CollectionContainsCollection: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let base = try translator.term(self.base)
        let other = try translator.term(self.other)
        if let folded = try translator.folded(self, [base, other]) { return folded }
        return try translator.stringComparison(base, .contains, other, in: self)
    }
}

extension PredicateExpressions.SequenceStartsWith: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let base = try translator.term(self.base)
        let prefix = try translator.term(self.prefix)
        if let folded = try translator.folded(self, [base, prefix]) { return folded }
        return try translator.stringComparison(base, .beginsWith, prefix, in: self)
    }
}

extension PredicateExpressions.SequenceContains: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let sequence = try translator.term(self.sequence)
        let element = try translator.term(self.element)
        if let folded = try translator.folded(self, [sequence, element]) { return folded }
        switch (sequence, element) {
        case (.constant(let values), .path(let path)) where !path.isToMany:
            guard let values = values as? LHS.Output else {
                throw translator.unsupported(self, "its sequence is not a sequence of values")
            }
            let literals = try values.map { try translator.literal($0, in: self) }
            return .condition(.comparison(.init(.keyPath(path.components), .in, .aggregate(literals.map { PredicateNode.Operand.constant($0) }))))
        case (.path, .constant(let character)) where character is Character:
            return try translator.stringComparison(sequence, .contains, .constant(String(describing: character)), in: self)
        default:
            throw translator.unsupported(
                self, "a store tests membership of an attribute in a constant list, or of a character in a string")
        }
    }
}

extension PredicateExpressions.RangeExpressionContains: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        let range = try translator.term(self.range)
        let element = try translator.term(self.element)
        if let folded = try translator.folded(self, [range, element]) { return folded }
        guard case .constant(let bounds) = range, case .path = element else {
            throw translator.unsupported(self, "a store tests an attribute against a constant range only")
        }
        let lower: Element.Output
        let upper: Element.Output
        let upperOp: PredicateNode.Operator
        if let closed = bounds as? ClosedRange<Element.Output> {
            (lower, upper, upperOp) = (closed.lowerBound, closed.upperBound, .lessThanOrEqualTo)
        } else if let open = bounds as? Range<Element.Output> {
            (lower, upper, upperOp) = (open.lowerBound, open.upperBound, .lessThan)
        } else {
            throw translator.unsupported(self, "only a closed or half-open range translates")
        }
        let compare: (Any?, Any?) -> Bool? = { _, _ in nil }
        let low = try translator.compare(element, .greaterThanOrEqualTo, .constant(lower), in: self, constants: compare)
        let high = try translator.compare(element, upperOp, .constant(upper), in: self, constants: compare)
        return .condition(.and([try translator.condition(low, of: self), try translator.condition(high, of: self)]))
    }
}

extension TypedPredicateTranslator {
    /// `path CONTAINS text` or `path BEGINSWITH text` for a String attribute and constant text.
    func stringComparison(
        _ base: TypedTerm, _ op: PredicateNode.Operator, _ text: TypedTerm, in expression: Any
    ) throws -> TypedTerm {
        func string(_ value: Any?) throws -> String {
            switch PredicateLiteral.unwrapped(value) {
            case let text as String: return text
            case let text as Substring: return String(text)
            default: throw unsupported(expression, "it compares a value that is not text")
            }
        }
        guard case .constant(let value) = text else {
            throw unsupported(expression, "a store compares a String attribute with constant text only")
        }
        let needle = try string(value)
        switch base {
        case .path(let path) where !path.isToMany:
            return .condition(.comparison(.init(.keyPath(path.components), op, .constant(.string(needle)))))
        case .coalesced(let path, let fallback):
            // `(title ?? "x").contains(t)`: the attribute's test, or, without a value, the
            // fallback's, which is known now.
            let substitute = try string(fallback)
            let fallbackPasses =
                op == .beginsWith ? substitute.starts(with: needle) : substitute.firstRange(of: needle) != nil
            let test = PredicateNode.comparison(.init(.keyPath(path.components), op, .constant(.string(needle))))
            guard fallbackPasses else { return .condition(test) }
            return .condition(.or([test, .comparison(.init(.keyPath(path.components), .equalTo, .constant(.null)))]))
        default:
            throw unsupported(expression, "a store compares a String attribute with constant text only")
        }
    }
}

// MARK: - To-many relationships

extension PredicateExpressions.SequenceContainsWhere: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        guard case .path(let collection) = try translator.term(sequence) else {
            throw translator.unsupported(self, "contains(where:) applies to a to-many relationship of the object")
        }
        let test = try translator.binding(variable.key, to: .element).condition(of: self.test)
        return .condition(try translator.quantified(test, over: collection, every: false, in: self))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        guard case .path(let collection) = try translator.term(sequence) else {
            throw translator.unsupported(self, "allSatisfy applies to a to-many relationship of the object")
        }
        let test = try translator.binding(variable.key, to: .element).condition(of: self.test)
        return .condition(try translator.quantified(test, over: collection, every: true, in: self))
    }
}

extension PredicateExpressions.Filter: TypedTranslatable {
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm {
        guard case .path(let collection) = try translator.term(sequence), collection.isToMany else {
            throw translator.unsupported(self, "filter applies to a to-many relationship of the object")
        }
        let test = try translator.binding(variable.key, to: .element).condition(of: filter)
        return .filtered(collection, test)
    }
}

// MARK: - To-many values

/// The Swift type of a to-many relationship (`Set<Tag>`, `[Chapter]`): its `count` and
/// `isEmpty` key paths, as `#Predicate` writes them.
protocol ToManyRelationshipValue {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Set: ToManyRelationshipValue where Element: AnyObject {
    static var countKeyPath: AnyKeyPath { \Set.count }
    static var isEmptyKeyPath: AnyKeyPath { \Set.isEmpty }
}

extension Array: ToManyRelationshipValue where Element: AnyObject {
    static var countKeyPath: AnyKeyPath { \Array.count }
    static var isEmptyKeyPath: AnyKeyPath { \Array.isEmpty }
}
