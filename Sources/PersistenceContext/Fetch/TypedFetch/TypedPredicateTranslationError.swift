/// A `#Predicate` or `SortDescriptor` of a ``FetchDescriptor`` that no store can run: an
/// expression with no counterpart in the library's predicate tree, or a key path no
/// ``PropertyKeyPathNaming`` table names.
///
/// The fetch never falls back to evaluating the predicate in memory: it throws this, naming
/// the expression, so that a query that would be slow or different is seen at once.
///
/// ```
/// Can't translate a typed fetch of Book: PredicateExpressions.IntDivision: no store query has this operation
/// ```
public struct TypedPredicateTranslationError: Error, Sendable, CustomStringConvertible {
    /// The class fetched.
    public var root: String
    /// The expression that does not translate, as Foundation names its type
    /// (`PredicateExpressions.IntDivision`) or the key path (`a key path from Book to Optional<String>`).
    public var expression: String
    /// Why, and what to write instead.
    public var reason: String

    /// Creates an error.
    public init(root: String, expression: String, reason: String) {
        self.root = root
        self.expression = expression
        self.reason = reason
    }

    /// One line: what, where and why.
    public var description: String {
        "Can't translate a typed fetch of \(root): \(expression): \(reason)"
    }
}
