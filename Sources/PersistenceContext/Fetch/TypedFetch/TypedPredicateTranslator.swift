import Foundation
import PersistenceModel

/// Translates Foundation's `Predicate` into the library's ``PredicateNode`` tree, so that a
/// store compiles a `#Predicate` as it compiles a predicate string.
///
/// The walk dispatches on the `PredicateExpressions` types through ``TypedTranslatable``
/// (see `PredicateExpressions+TypedTranslatable.swift`); each expression becomes a
/// ``TypedTerm``. A subexpression that reads no variable (a literal, a captured value, their
/// arithmetic) is evaluated at once by Foundation and becomes a constant.
struct TypedPredicateTranslator {
    /// What a variable of the predicate stands for.
    enum Binding {
        /// The object fetched, or a to-one destination reached from it (`flatMap`).
        case object(TypedPath)
        /// An element of a to-many relationship, in `contains(where:)`, `allSatisfy` and
        /// `filter`.
        case element
    }

    /// The fetched class's name, for errors.
    let rootName: String
    /// The variables in scope.
    private(set) var bindings: [PredicateExpressions.VariableID: Binding] = [:]
    /// The key-path tables read so far, by class.
    let tables: KeyPathTableCache

    /// The first component of a key path that starts at a quantified element; replaced by
    /// the collection's key path and a quantifier once the element's condition is whole.
    static let elementMarker = "#element"

    init(rootName: String, tables: KeyPathTableCache = KeyPathTableCache()) {
        self.rootName = rootName
        self.tables = tables
    }

    // MARK: - Entry points

    /// The library's predicate for `predicate`.
    ///
    /// - Throws: ``TypedPredicateTranslationError`` naming the first expression or key path
    ///   that does not translate.
    static func translate<T: ManagedObject>(_ predicate: Predicate<T>) throws -> FetchPredicate {
        var translator = TypedPredicateTranslator(rootName: "\(T.self)")
        translator.bindings[predicate.variable.key] = .object(TypedPath(components: [], isToMany: false))
        let node = try translator.condition(of: predicate.expression)
        return FetchPredicate(expression: node)
    }

    /// The entity's property name for a key path of `type`, from its
    /// ``PropertyKeyPathNaming`` table.
    func propertyName(_ keyPath: AnyKeyPath, of type: Any.Type) -> String? {
        tables.table(for: type)[keyPath]
    }

    /// The same translator with `variable` bound to `binding`.
    func binding(_ variable: PredicateExpressions.VariableID, to binding: Binding) -> Self {
        var copy = self
        copy.bindings[variable] = binding
        return copy
    }

    // MARK: - Terms

    /// The term of any expression: through its ``TypedTranslatable`` conformance, or, for an
    /// expression of another kind that reads no variable, its value.
    func term(_ expression: Any) throws -> TypedTerm {
        if let translatable = expression as? any TypedTranslatable {
            return try translatable.translate(with: self)
        }
        if let expression = expression as? any PredicateExpression, let value = try? Self.value(of: expression) {
            return .constant(value)
        }
        throw unsupported(expression, "no store query has this operation")
    }

    /// The condition an expression states: a Bool-valued term made a predicate node.
    func condition(of expression: Any) throws -> PredicateNode {
        try condition(try term(expression), of: expression)
    }

    /// `term` as a condition: a comparison, a constant `true`/`false`, a Bool key path
    /// (`$0.isRead` is `isRead == true`), or a Bool key path with `??`.
    func condition(_ term: TypedTerm, of expression: Any) throws -> PredicateNode {
        switch term {
        case .condition(let node): return node
        case .constant(let value):
            guard let bool = PredicateLiteral.unwrapped(value) as? Bool else {
                throw unsupported(expression, "its value is not a Bool")
            }
            return bool ? .truePredicate : .falsePredicate
        case .path(let path) where !path.isToMany:
            return .comparison(.init(.keyPath(path.components), .equalTo, .constant(.bool(true))))
        case .coalesced(let path, let fallback):
            guard let bool = PredicateLiteral.unwrapped(fallback) as? Bool else {
                throw unsupported(expression, "its value is not a Bool")
            }
            let isTrue = PredicateNode.comparison(.init(.keyPath(path.components), .equalTo, .constant(.bool(true))))
            guard bool else { return isTrue }
            return .or([isTrue, .comparison(.init(.keyPath(path.components), .equalTo, .constant(.null)))])
        default:
            throw unsupported(expression, "it is not a condition a store can test")
        }
    }

    /// The value of an expression that reads no variable.
    static func value<E: PredicateExpression>(of expression: E) throws -> Any? {
        try expression.evaluate(PredicateBindings())
    }

    /// `expression`'s value when every operand is a constant, else nil.
    func folded<E: PredicateExpression>(_ expression: E, _ operands: [TypedTerm]) throws -> TypedTerm? {
        guard operands.allSatisfy({ if case .constant = $0 { true } else { false } }) else { return nil }
        do {
            return .constant(try Self.value(of: expression))
        } catch {
            throw unsupported(expression, "evaluating its constant operands failed: \(error)")
        }
    }

    /// A store constant for a Swift value.
    func literal(_ value: Any?, in expression: Any) throws -> PredicateLiteral {
        if PredicateLiteral.unwrapped(value) is ManagedObject {
            throw unsupported(
                expression,
                "an object is compared, which a store cannot bind; compare one of its attributes instead")
        }
        guard let literal = PredicateLiteral.from(scalar: value) else {
            throw unsupported(
                expression, "a value of type \(PredicateLiteral.typeName(of: value)) has no store form")
        }
        return literal
    }

    // MARK: - Errors

    /// An error naming `expression` (its `PredicateExpressions` type without generic
    /// arguments) and why it does not translate.
    func unsupported(_ expression: Any, _ reason: String) -> TypedPredicateTranslationError {
        TypedPredicateTranslationError(root: rootName, expression: Self.name(of: expression), reason: reason)
    }

    /// A key path as an error names it: as Swift writes it (`\Book.title`) when Swift can,
    /// else by its types (`a key path from Book to Optional<String>`), since a computed
    /// property's key path prints as an address.
    static func name(ofKeyPath keyPath: AnyKeyPath) -> String {
        let text = "\(keyPath)"
        guard text.contains("<computed") else { return text }
        let type = Swift.type(of: keyPath)
        return "a key path from \(type.rootType) to \(type.valueType)"
    }

    /// `PredicateExpressions.Filter` for a `Filter<…>`.
    static func name(of expression: Any) -> String {
        let full = String(describing: type(of: expression))
        let base = full.prefix { $0 != "<" }
        return base.contains(".") ? String(base) : "PredicateExpressions." + base
    }
}

/// Each class's ``PropertyKeyPathNaming`` table with its
/// `ManagedObject.additionalPropertyNamesByKeyPath`, read once per translation.
final class KeyPathTableCache {
    private var tables: [ObjectIdentifier: [AnyKeyPath: String]] = [:]

    /// The table of `type`: empty when it names no key paths.
    func table(for type: Any.Type) -> [AnyKeyPath: String] {
        let key = ObjectIdentifier(type)
        if let table = tables[key] { return table }
        var table = (type as? any PropertyKeyPathNaming.Type)?.propertyNamesByKeyPath ?? [:]
        if let objectType = type as? ManagedObject.Type {
            table.merge(objectType.additionalPropertyNamesByKeyPath) { $1 }
        }
        tables[key] = table
        return table
    }
}

/// A key path from the fetched object (or a quantified element) as property names.
struct TypedPath {
    /// The property names, first to last; empty for the object itself.
    var components: [String]
    /// Whether the last property is a to-many relationship.
    var isToMany: Bool

    /// Whether the path starts at a quantified element.
    var isInElement: Bool { components.first == TypedPredicateTranslator.elementMarker }

    /// The path with one more property.
    func appending(_ name: String, isToMany: Bool) -> TypedPath {
        TypedPath(components: components + [name], isToMany: isToMany)
    }
}

/// A translated expression.
enum TypedTerm {
    /// A condition.
    case condition(PredicateNode)
    /// A property's value.
    case path(TypedPath)
    /// A Swift value known before the fetch.
    case constant(Any?)
    /// A property's value plus or minus constants (`$0.pages + 2`): compared with a constant
    /// `c`, the property is compared with `inverse(c)`, the other way round when `decreasing`.
    case shifted(TypedPath, inverse: (Any?) throws -> Any?, decreasing: Bool)
    /// `path ?? fallback`.
    case coalesced(TypedPath, fallback: Any?)
    /// The number of objects of a to-many relationship.
    case count(TypedPath)
    /// `relationship.filter { condition }`: the condition is on the element's paths.
    case filtered(TypedPath, PredicateNode)
    /// `relationship.filter { condition }.count`.
    case filteredCount(TypedPath, PredicateNode)
}

/// A `PredicateExpressions` type the translator knows.
protocol TypedTranslatable {
    /// The term of this expression.
    func translate(with translator: TypedPredicateTranslator) throws -> TypedTerm
}
