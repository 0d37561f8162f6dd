import Foundation

/// A property's name typed by the object it belongs to and the Swift type of its values: the
/// keys generated code declares (`Book.title`), usable in predicates and sort keys.
///
/// ```swift
/// let request = FetchRequest(
///     entityName: "Book",
///     predicate: Book.title.contains("anos", .cd) && Book.price < Decimal(20),
///     sortDescriptors: [Book.publishDate.descending])
/// let byAuthor: FetchPredicate = Book.author.appending(Author.name) == "Italo Calvino"
/// ```
///
/// Comparisons accept only values of the key's type, so `Book.price < "cheap"` does not
/// compile. For a to-many relationship, `Value` is the destination's class: compare its
/// elements with ``any(_:)``, ``all(_:)`` or ``none(_:)`` (`Author.books.any(Book.title)`) or count them.
public struct PropertyKey<Root, Value>: Sendable, Hashable, CustomStringConvertible {
    /// The key path as written in a predicate: a property name, or names joined by dots.
    public let keyPath: String

    /// Creates a key for a property name or a dotted key path.
    public init(_ keyPath: String) {
        self.keyPath = keyPath
    }

    /// The key path.
    public var description: String { keyPath }

    /// The untyped predicate key, for the builders ``PredicateKey`` offers.
    public var predicateKey: PredicateKey { .key(keyPath) }

    /// A sort key on this property, smaller values first.
    public var ascending: SortKey { SortKey(keyPath, ascending: true) }

    /// A sort key on this property, larger values first.
    public var descending: SortKey { SortKey(keyPath, ascending: false) }

    /// The key path through this to-one relationship to a property of its destination
    /// (`Book.author.appending(Author.name)` is `author.name`). `next` may be a key of the
    /// destination's superclass (an inherited property), so its root is not checked.
    public func appending<NextRoot, Next>(_ next: PropertyKey<NextRoot, Next>)
        -> PropertyKey<Root, Next>
    {
        PropertyKey<Root, Next>(keyPath + "." + next.keyPath)
    }

    /// `keyPath.@count`: the number of objects in a to-many relationship.
    public var count: PredicateKey { predicateKey.count }

    /// `ANY keyPath.next`: at least one object of this to-many relationship matches.
    public func any<NextRoot, Next>(_ next: PropertyKey<NextRoot, Next>) -> PredicateKey {
        .any(keyPath + "." + next.keyPath)
    }

    /// `ALL keyPath.next`: every object of this to-many relationship matches.
    public func all<NextRoot, Next>(_ next: PropertyKey<NextRoot, Next>) -> PredicateKey {
        .all(keyPath + "." + next.keyPath)
    }

    /// `NONE keyPath.next`: no object of this to-many relationship matches.
    public func none<NextRoot, Next>(_ next: PropertyKey<NextRoot, Next>) -> PredicateKey {
        .none(keyPath + "." + next.keyPath)
    }

    // MARK: - Comparisons with nil

    /// `key == nil`.
    public static func == (key: Self, _: PredicateNil) -> FetchPredicate {
        key.predicateKey == nil
    }

    /// `key != nil`.
    public static func != (key: Self, _: PredicateNil) -> FetchPredicate {
        key.predicateKey != nil
    }
}

extension PropertyKey where Value: PredicateLiteralConvertible {
    /// `key == value`.
    public static func == (key: Self, value: Value) -> FetchPredicate { key.predicateKey == value }
    /// `key != value`.
    public static func != (key: Self, value: Value) -> FetchPredicate { key.predicateKey != value }
    /// `key < value`.
    public static func < (key: Self, value: Value) -> FetchPredicate { key.predicateKey < value }
    /// `key <= value`.
    public static func <= (key: Self, value: Value) -> FetchPredicate { key.predicateKey <= value }
    /// `key > value`.
    public static func > (key: Self, value: Value) -> FetchPredicate { key.predicateKey > value }
    /// `key >= value`.
    public static func >= (key: Self, value: Value) -> FetchPredicate { key.predicateKey >= value }

    /// `key IN {values…}`.
    public func isIn(_ values: [Value]) -> FetchPredicate { predicateKey.isIn(values) }

    /// `key BETWEEN {low, high}`.
    public func between(_ low: Value, _ high: Value) -> FetchPredicate {
        predicateKey.between(low, high)
    }
}

extension PropertyKey where Value == String {
    /// `key CONTAINS[options] text`.
    public func contains(_ text: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        predicateKey.contains(text, options)
    }
    /// `key BEGINSWITH[options] text`.
    public func beginsWith(_ text: String, _ options: PredicateNode.Options = []) -> FetchPredicate
    {
        predicateKey.beginsWith(text, options)
    }
    /// `key ENDSWITH[options] text`.
    public func endsWith(_ text: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        predicateKey.endsWith(text, options)
    }
    /// `key LIKE[options] pattern`.
    public func like(_ pattern: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        predicateKey.like(pattern, options)
    }
    /// `key MATCHES[options] regex`.
    public func matches(_ regex: String, _ options: PredicateNode.Options = []) -> FetchPredicate {
        predicateKey.matches(regex, options)
    }
}

extension Int16: PredicateLiteralConvertible {
    /// The integer as a constant.
    public var predicateLiteral: PredicateLiteral { .integer(Int64(self)) }
}

extension Float: PredicateLiteralConvertible {
    /// The float as a constant, widened to Double as the store keeps it.
    public var predicateLiteral: PredicateLiteral { .double(Double(self)) }
}
