import Foundation

/// A value that can stand on the right of a built comparison: the `%@` argument types.
public protocol PredicateLiteralConvertible {
    /// The value as a syntax-tree constant.
    var predicateLiteral: PredicateLiteral { get }
}

extension String: PredicateLiteralConvertible {
    /// The string as a constant.
    public var predicateLiteral: PredicateLiteral { .string(self) }
}
extension Int: PredicateLiteralConvertible {
    /// The integer as a constant.
    public var predicateLiteral: PredicateLiteral { .integer(Int64(self)) }
}
extension Int64: PredicateLiteralConvertible {
    /// The integer as a constant.
    public var predicateLiteral: PredicateLiteral { .integer(self) }
}
extension Int32: PredicateLiteralConvertible {
    /// The integer as a constant.
    public var predicateLiteral: PredicateLiteral { .integer(Int64(self)) }
}
extension Double: PredicateLiteralConvertible {
    /// The double as a constant.
    public var predicateLiteral: PredicateLiteral { .double(self) }
}
extension Bool: PredicateLiteralConvertible {
    /// The boolean as a constant.
    public var predicateLiteral: PredicateLiteral { .bool(self) }
}
extension Decimal: PredicateLiteralConvertible {
    /// The decimal as an exact constant.
    public var predicateLiteral: PredicateLiteral { .decimal(self) }
}
extension Date: PredicateLiteralConvertible {
    /// The date as a constant.
    public var predicateLiteral: PredicateLiteral { .date(self) }
}
extension UUID: PredicateLiteralConvertible {
    /// The UUID as a constant.
    public var predicateLiteral: PredicateLiteral { .uuid(self) }
}
extension URL: PredicateLiteralConvertible {
    /// The URL as a constant.
    public var predicateLiteral: PredicateLiteral { .url(self) }
}
extension Data: PredicateLiteralConvertible {
    /// The data as a constant.
    public var predicateLiteral: PredicateLiteral { .data(self) }
}

/// The left side of a comparison built in Swift: a key path, optionally quantified.
///
/// ```swift
/// let cheap: FetchPredicate = .key("price") < 10 && .key("title").contains("anos", .cd)
/// let early: FetchPredicate = .any("books.title").beginsWith("A") || !(.key("author") == nil)
/// ```
///
/// Each builder produces the same tree as the equivalent format string. Key paths are split
/// on dots; use ``count`` and ``sum(_:)`` (etc.) for collection operators.
public struct PredicateKey: Sendable {
    /// The operand this key stands for.
    public let operand: PredicateNode.Operand
    /// The quantifier for a to-many key path, if any.
    public let quantifier: PredicateNode.Quantifier?

    /// A key path such as `"author.name"`.
    public static func key(_ path: String) -> PredicateKey {
        PredicateKey(
            operand: .keyPath(path.split(separator: ".").map(String.init)), quantifier: nil)
    }
    /// `SELF`, the evaluated object.
    public static var evaluatedObject: PredicateKey {
        PredicateKey(operand: .evaluatedObject, quantifier: nil)
    }
    /// `ANY path`: at least one element of a to-many key path.
    public static func any(_ path: String) -> PredicateKey { key(path).quantified(.any) }
    /// `ALL path`: every element of a to-many key path.
    public static func all(_ path: String) -> PredicateKey { key(path).quantified(.all) }
    /// `NONE path`: no element of a to-many key path.
    public static func none(_ path: String) -> PredicateKey { key(path).quantified(.noElement) }

    /// `path.@count`.
    public var count: PredicateKey { function(.count, []) }
    /// `path.@sum.key`.
    public func sum(_ key: String) -> PredicateKey { function(.sum, key) }
    /// `path.@avg.key`.
    public func average(_ key: String) -> PredicateKey { function(.avg, key) }
    /// `path.@min.key`.
    public func min(_ key: String) -> PredicateKey { function(.min, key) }
    /// `path.@max.key`.
    public func max(_ key: String) -> PredicateKey { function(.max, key) }

    private func function(_ function: PredicateNode.CollectionFunction, _ key: String)
        -> PredicateKey
    {
        self.function(function, key.split(separator: ".").map(String.init))
    }

    private func function(_ function: PredicateNode.CollectionFunction, _ key: [String])
        -> PredicateKey
    {
        guard case .keyPath(let collection) = operand else { return self }
        return PredicateKey(
            operand: .collectionFunction(function, collection: collection, key: key),
            quantifier: quantifier)
    }

    private func quantified(_ quantifier: PredicateNode.Quantifier) -> PredicateKey {
        PredicateKey(operand: operand, quantifier: quantifier)
    }

    /// A comparison of this key with `operand`.
    public func compared(
        _ op: PredicateNode.Operator, _ operand: PredicateNode.Operand,
        _ options: PredicateNode.Options = []
    ) -> FetchPredicate {
        FetchPredicate(
            expression: .comparison(
                .init(self.operand, op, operand, options: options, quantifier: quantifier)))
    }

    /// `key CONTAINS[options] text`.
    public func contains(_ text: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        compared(.contains, .constant(.string(text)), options)
    }
    /// `key BEGINSWITH[options] text`.
    public func beginsWith(_ text: String, _ options: PredicateNode.Options = []) -> FetchPredicate
    {
        compared(.beginsWith, .constant(.string(text)), options)
    }
    /// `key ENDSWITH[options] text`.
    public func endsWith(_ text: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        compared(.endsWith, .constant(.string(text)), options)
    }
    /// `key LIKE[options] pattern`.
    public func like(_ pattern: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        compared(.like, .constant(.string(pattern)), options)
    }
    /// `key MATCHES[options] regex`.
    public func matches(_ regex: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        compared(.matches, .constant(.string(regex)), options)
    }
    /// `key IN {values…}`.
    public func isIn<V: PredicateLiteralConvertible>(_ values: [V]) -> FetchPredicate {
        compared(.in, .aggregate(values.map { .constant($0.predicateLiteral) }))
    }
    /// `key BETWEEN {low, high}`.
    public func between<V: PredicateLiteralConvertible>(_ low: V, _ high: V) -> FetchPredicate {
        compared(
            .between,
            .aggregate([.constant(low.predicateLiteral), .constant(high.predicateLiteral)]))
    }

    // MARK: Operators

    /// `key == value`.
    public static func == <V: PredicateLiteralConvertible>(key: PredicateKey, value: V)
        -> FetchPredicate
    {
        key.compared(.equalTo, .constant(value.predicateLiteral))
    }
    /// `key == nil`.
    public static func == (key: PredicateKey, _: PredicateNil) -> FetchPredicate {
        key.compared(.equalTo, .constant(.null))
    }
    /// `key != value`.
    public static func != <V: PredicateLiteralConvertible>(key: PredicateKey, value: V)
        -> FetchPredicate
    {
        key.compared(.notEqualTo, .constant(value.predicateLiteral))
    }
    /// `key != nil`.
    public static func != (key: PredicateKey, _: PredicateNil) -> FetchPredicate {
        key.compared(.notEqualTo, .constant(.null))
    }
    /// `key < value`.
    public static func < <V: PredicateLiteralConvertible>(key: PredicateKey, value: V)
        -> FetchPredicate
    {
        key.compared(.lessThan, .constant(value.predicateLiteral))
    }
    /// `key <= value`.
    public static func <= <V: PredicateLiteralConvertible>(key: PredicateKey, value: V)
        -> FetchPredicate
    {
        key.compared(.lessThanOrEqualTo, .constant(value.predicateLiteral))
    }
    /// `key > value`.
    public static func > <V: PredicateLiteralConvertible>(key: PredicateKey, value: V)
        -> FetchPredicate
    {
        key.compared(.greaterThan, .constant(value.predicateLiteral))
    }
    /// `key >= value`.
    public static func >= <V: PredicateLiteralConvertible>(key: PredicateKey, value: V)
        -> FetchPredicate
    {
        key.compared(.greaterThanOrEqualTo, .constant(value.predicateLiteral))
    }
    /// `key == otherKey`.
    public static func == (key: PredicateKey, other: PredicateKey) -> FetchPredicate {
        key.compared(.equalTo, other.operand)
    }
}

/// The `nil` in `.key("author") == nil`.
public struct PredicateNil: ExpressibleByNilLiteral, Sendable {
    /// Creates the nil marker.
    public init(nilLiteral: ()) {}
}

extension PredicateNode.Options {
    /// `[cd]`: case- and diacritic-insensitive.
    public static let cd: PredicateNode.Options = [.caseInsensitive, .diacriticInsensitive]
}

extension FetchPredicate {
    /// A key path to compare, for chains such as `.key("title").contains("x")` where a
    /// `FetchPredicate` is expected; the same as ``PredicateKey/key(_:)``.
    public static func key(_ path: String) -> PredicateKey { PredicateKey.key(path) }
    /// `ANY path`, for chains where a `FetchPredicate` is expected.
    public static func any(_ path: String) -> PredicateKey { PredicateKey.any(path) }
    /// `ALL path`, for chains where a `FetchPredicate` is expected.
    public static func all(_ path: String) -> PredicateKey { PredicateKey.all(path) }
    /// `NONE path`, for chains where a `FetchPredicate` is expected.
    public static func none(_ path: String) -> PredicateKey { PredicateKey.none(path) }

    /// `lhs AND rhs`; an `AND` on either side is flattened into one list.
    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        func children(_ p: FetchPredicate) -> [PredicateNode] {
            if case .and(let list) = p.expression { return list }
            return [p.expression]
        }
        return FetchPredicate(expression: .and(children(lhs) + children(rhs)))
    }

    /// `lhs OR rhs`; an `OR` on either side is flattened into one list.
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
        func children(_ p: FetchPredicate) -> [PredicateNode] {
            if case .or(let list) = p.expression { return list }
            return [p.expression]
        }
        return FetchPredicate(expression: .or(children(lhs) + children(rhs)))
    }

    /// `NOT predicate`.
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(expression: .not(predicate.expression))
    }
}
