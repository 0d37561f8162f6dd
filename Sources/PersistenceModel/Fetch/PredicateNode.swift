/// The syntax tree of a ``FetchPredicate``: a boolean expression over comparisons.
///
/// The tree is a plain value (`Sendable`, `Hashable`) so that it can be cached, compared and
/// compiled: the in-memory evaluator walks it, and the SQL compiler turns it into a `WHERE`
/// clause with every ``PredicateLiteral`` bound as a parameter. Key paths are arrays of
/// components (`["author", "name"]`); collection operators are their own node
/// (``Operand/collectionFunction(_:collection:key:)``).
///
/// `AND` and `OR` chains are n-ary: the parser turns `a AND b AND c` into one
/// ``and(_:)`` with three children and keeps a parenthesized group as a nested node, so
/// ``description`` re-parses to the identical tree. An empty ``and(_:)`` is true and an
/// empty ``or(_:)`` is false, as with Core Data's `NSCompoundPredicate`.
public indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE`: matches every object.
    case truePredicate
    /// `FALSEPREDICATE`: matches no object.
    case falsePredicate
    /// True when every child is true (`AND`, `&&`).
    case and([PredicateNode])
    /// True when at least one child is true (`OR`, `||`).
    case or([PredicateNode])
    /// True when the child is false (`NOT`, `!`).
    case not(PredicateNode)
    /// A comparison such as `title BEGINSWITH[c] "a"` or `ANY books.price > 10`.
    case comparison(Comparison)

    // MARK: - Comparison

    /// One comparison: `[quantifier] left operator[options] right`.
    public struct Comparison: Sendable, Hashable {
        /// `ANY`/`SOME`, `ALL` or `NONE` before the left operand, or `nil`.
        public var quantifier: Quantifier?
        /// The left operand.
        public var left: Operand
        /// The operator.
        public var `operator`: Operator
        /// The `[c]`, `[d]` or `[cd]` modifiers.
        public var options: Options
        /// The right operand.
        public var right: Operand

        /// Creates a comparison.
        public init(
            _ left: Operand, _ operator: Operator, _ right: Operand,
            options: Options = [], quantifier: Quantifier? = nil
        ) {
            self.quantifier = quantifier
            self.left = left
            self.operator = `operator`
            self.options = options
            self.right = right
        }
    }

    /// A comparison operator.
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `==` or `=`.
        case equalTo = "=="
        /// `!=` or `<>`.
        case notEqualTo = "!="
        /// `<`.
        case lessThan = "<"
        /// `<=` or `=<`.
        case lessThanOrEqualTo = "<="
        /// `>`.
        case greaterThan = ">"
        /// `>=` or `=>`.
        case greaterThanOrEqualTo = ">="
        /// `BETWEEN {low, high}`: inclusive at both ends.
        case between = "BETWEEN"
        /// `IN {…}` (membership) or `IN "text"` (substring).
        case `in` = "IN"
        /// `CONTAINS`: substring of a string, or membership in a collection.
        case contains = "CONTAINS"
        /// `BEGINSWITH`.
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`.
        case endsWith = "ENDSWITH"
        /// `LIKE`: `*` matches any run, `?` one character, `\` escapes.
        case like = "LIKE"
        /// `MATCHES`: a regular expression that must match the whole string.
        case matches = "MATCHES"

        /// The operator that compares the same way with its operands swapped (`5 < price`
        /// is `price > 5`, `"x" IN tags` is `tags CONTAINS "x"`), for compilers that want the
        /// key path on the left; nil for an operator whose operands cannot trade places.
        package var mirrored: Operator? {
            switch self {
            case .lessThan: return .greaterThan
            case .lessThanOrEqualTo: return .greaterThanOrEqualTo
            case .greaterThan: return .lessThan
            case .greaterThanOrEqualTo: return .lessThanOrEqualTo
            case .equalTo, .notEqualTo: return self
            case .in: return .contains
            case .between, .contains, .beginsWith, .endsWith, .like, .matches: return nil
            }
        }
    }

    /// The `[c]` and `[d]` comparison modifiers.
    ///
    /// They apply when both compared values are strings. `[c]` lowercases both sides, `[d]`
    /// removes diacritics from both, and `[cd]` folds both to the project's canonical form
    /// with `CanonicalText.fold(_:)` (which also maps letters such as `Ł` and `ø`).
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Creates options from raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `[c]`: case-insensitive.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 2)
    }

    /// The quantifier in front of a to-many left operand.
    public enum Quantifier: String, Sendable, Hashable, CaseIterable {
        /// `ANY` / `SOME`: at least one element satisfies the comparison.
        case any = "ANY"
        /// `ALL`: every element does (true for an empty collection).
        case all = "ALL"
        /// `NONE`: no element does (true for an empty collection). Not named `none`, which
        /// would be confused with `Optional.none` wherever a quantifier is optional.
        case noElement = "NONE"
    }

    /// A collection operator applied to a to-many key path.
    public enum CollectionFunction: String, Sendable, Hashable, CaseIterable {
        /// `@count`: the number of elements.
        case count = "@count"
        /// `@sum.key`: the sum of the elements' key (0 when empty).
        case sum = "@sum"
        /// `@avg.key`: the mean (nil when empty).
        case avg = "@avg"
        /// `@min.key`: the smallest value (nil when empty).
        case min = "@min"
        /// `@max.key`: the largest value (nil when empty).
        case max = "@max"
    }

    // MARK: - Operand

    /// A value in a comparison.
    public indirect enum Operand: Sendable, Hashable {
        /// A typed constant.
        case constant(PredicateLiteral)
        /// A key path from the evaluated object, one component per key: `["author", "name"]`.
        case keyPath([String])
        /// `SELF`: the evaluated object itself.
        case evaluatedObject
        /// `$name`: a substitution variable, replaced by ``FetchPredicate/substituting(_:)``.
        case variable(String)
        /// `{a, b, …}` or an array argument: a list of operands.
        case aggregate([Operand])
        /// `collection.@count` or `collection.@sum.key` (`@avg`, `@min`, `@max`): `key` is
        /// empty for `@count`.
        case collectionFunction(CollectionFunction, collection: [String], key: [String])
    }
}

// MARK: - Traversal

extension PredicateNode {
    /// Rebuilds the tree with `transform` applied to every comparison.
    func mapComparisons(
        _ transform: (Comparison) throws -> Comparison
    ) rethrows -> PredicateNode {
        switch self {
        case .truePredicate, .falsePredicate: return self
        case .and(let children): return .and(try children.map { try $0.mapComparisons(transform) })
        case .or(let children): return .or(try children.map { try $0.mapComparisons(transform) })
        case .not(let child): return .not(try child.mapComparisons(transform))
        case .comparison(let comparison): return .comparison(try transform(comparison))
        }
    }

    /// Calls `body` for every comparison in the tree, depth first.
    func forEachComparison(_ body: (Comparison) throws -> Void) rethrows {
        switch self {
        case .truePredicate, .falsePredicate: return
        case .and(let children), .or(let children):
            for child in children { try child.forEachComparison(body) }
        case .not(let child): try child.forEachComparison(body)
        case .comparison(let comparison): try body(comparison)
        }
    }
}

extension PredicateNode.Operand {
    /// Calls `body` for every variable name in this operand.
    package func forEachVariable(_ body: (String) -> Void) {
        switch self {
        case .variable(let name): body(name)
        case .aggregate(let items): for item in items { item.forEachVariable(body) }
        case .constant, .keyPath, .evaluatedObject, .collectionFunction: return
        }
    }
}
