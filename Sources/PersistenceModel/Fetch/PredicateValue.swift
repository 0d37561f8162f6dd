import Foundation

/// An object the in-memory evaluator can read keys from.
///
/// Implement one key step; the evaluator walks key paths (`author.name`) itself, through
/// to-one objects (``PredicateValue/object(_:)``) and to-many collections
/// (``PredicateValue/collection(_:)``).
public protocol PredicateEvaluable {
    /// The value of one key (no dots) of this object.
    ///
    /// Return `.null` for a missing optional value, `.object` for a to-one relationship and
    /// `.collection` of `.object`s for a to-many relationship.
    ///
    /// - Throws: Any error, typically ``FetchPredicateError/unknownKey(_:on:)`` for a key the
    ///   object does not have; the evaluator passes it on.
    func predicateValue(forKey key: String) throws -> PredicateValue
}

/// A value met while evaluating a predicate in memory: an attribute's value, a related
/// object, or a to-many collection.
///
/// Not `Sendable`: ``object(_:)`` holds a live object such as a managed object, which
/// belongs to one context.
public enum PredicateValue {
    /// No value (`nil`).
    case null
    /// A boolean; compares with numbers as 0 or 1.
    case bool(Bool)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// An exact decimal number.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A date.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case url(URL)
    /// Binary data.
    case data(Data)
    /// A related object (a to-one relationship's destination, or `SELF`).
    case object(any PredicateEvaluable)
    /// The elements of a to-many relationship, or of an aggregate `{…}`.
    case collection([PredicateValue])

    /// An attribute's value as a predicate compares it: a transformable value as its bytes,
    /// nil when it is an app's object (no predicate compares those). One conversion for
    /// objects and for stores that evaluate predicates over their rows; inlinable, since
    /// every fetch that filters or sorts in memory makes it per value.
    @inlinable package init(_ value: AttributeValue) {
        self = switch value {
        case .null: .null
        case .integer(let v): .integer(v)
        case .double(let v): .double(v)
        case .decimal(let v): .decimal(v)
        case .bool(let v): .bool(v)
        case .string(let v): .string(v)
        case .date(let v): .date(v)
        case .uuid(let v): .uuid(v)
        case .url(let v): .url(v)
        case .data(let v): .data(v)
        case .transformable(let v):
            if let data = v as? Data { .data(data) } else if let bytes = v as? TransformableBytes { .data(bytes.data) } else { .null }
        }
    }

    /// The value of a syntax-tree constant.
    public init(_ literal: PredicateLiteral) {
        switch literal {
        case .null: self = .null
        case .bool(let v): self = .bool(v)
        case .integer(let v): self = .integer(v)
        case .double(let v): self = .double(v)
        case .decimal(let v): self = .decimal(v)
        case .string(let v): self = .string(v)
        case .date(let v): self = .date(v)
        case .uuid(let v): self = .uuid(v)
        case .url(let v): self = .url(v)
        case .data(let v): self = .data(v)
        }
    }

    /// Converts a Swift value: the types `%@` accepts, a ``PredicateEvaluable`` object, or an
    /// array or set of these; `nil` when the type is not supported.
    public init?(swiftValue: Any?) {
        guard let value = PredicateLiteral.unwrapped(swiftValue) else {
            self = .null
            return
        }
        if let literal = PredicateLiteral.from(scalar: value) {
            self.init(literal)
        } else if let object = value as? any PredicateEvaluable {
            self = .object(object)
        } else {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .collection || mirror.displayStyle == .set else {
                return nil
            }
            var elements: [PredicateValue] = []
            for child in mirror.children {
                guard let element = PredicateValue(swiftValue: child.value) else { return nil }
                elements.append(element)
            }
            self = .collection(elements)
        }
    }

    /// A short English name of the value's type with its article, for error messages.
    public var typeDescription: String {
        switch self {
        case .null: "nil"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double: "a double"
        case .decimal: "a decimal"
        case .string: "a string"
        case .date: "a date"
        case .uuid: "a UUID"
        case .url: "a URL"
        case .data: "data"
        case .object(let object): "an object (\(type(of: object)))"
        case .collection: "a collection"
        }
    }

    /// Whether this is ``null``.
    var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
