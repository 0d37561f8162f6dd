/// A filter for fetch requests, written in Core Data's predicate format language.
///
/// ```swift
/// let recent = try FetchPredicate("publishDate > %@ AND title CONTAINS[cd] %@", cutoff, "anos")
/// let template = try FetchPredicate("author.name == $NAME")
/// let byAuthor = try template.substituting(["NAME": "Gabriel García Márquez"])
/// ```
///
/// Foundation on Linux cannot parse `NSPredicate` format strings; this type parses the same
/// language into a ``PredicateNode`` tree. Arguments are substituted while parsing
/// and become typed ``PredicateLiteral`` constants, never text spliced into the format, so a
/// `%@` argument cannot change the predicate's structure. Quoted text is never searched
/// for specifiers.
///
/// The supported language: `==` `=` `!=` `<>` `<` `<=` `=<` `>` `>=` `=>`, `BETWEEN`,
/// `IN`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` with `[c]`, `[d]`, `[cd]`;
/// `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `TRUEPREDICATE`, `FALSEPREDICATE`;
/// `ANY`/`SOME`, `ALL`, `NONE`; `SELF`; key paths with `@count`, `@sum`, `@avg`, `@min`,
/// `@max`; `%@`, `%K`, `%d`/`%i`/`%ld`, `%f`/`%lf`; `$variables`; `NIL`/`NULL`,
/// `TRUE`/`YES`, `FALSE`/`NO`; quoted strings with `\n \t \r \" \' \\ \uXXXX` escapes;
/// integers, exact decimals, exponents; `#` to escape a key spelled like a keyword (`#IN`);
/// `CAST(…, "NSDate" | "Double" | "NSDecimalNumber" | "UUID" | "URL" | "Data")`. Keywords
/// are case-insensitive. Arithmetic, `SUBQUERY` and `FUNCTION` are not supported.
///
/// Beyond Core Data's own syntax, which compares a date only with a date (a `%@` `Date`
/// argument or `CAST(…, "NSDate")`): a Date attribute compared with a string compares with
/// the date the string names in ISO 8601 form, `publishDate > "2020-01-01"`. A year
/// (`"2020"`), a month (`"2020-03"`) and a day name the instant they start in UTC; a date
/// and time carries its zone (`"2020-01-01T12:00:00+02:00"`). The in-memory evaluator and
/// the SQLite store read the text alike; text that is not such a date is an error naming it.
/// Predicates that use this do not parse as `NSPredicate`s on Apple platforms the same way.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The root of the parsed tree.
    public let expression: PredicateNode

    /// A predicate that matches every object (`TRUEPREDICATE`).
    public static let alwaysTrue = FetchPredicate(expression: .truePredicate)
    /// A predicate that matches no object (`FALSEPREDICATE`).
    public static let alwaysFalse = FetchPredicate(expression: .falsePredicate)

    /// Parses `format`, substituting `arguments` for its `%@`, `%K`, `%d` and `%f`
    /// specifiers in order.
    ///
    /// Accepted argument types: `String`, integers of any width, `Double`, `Float`, `Bool`,
    /// `Decimal`, `Date`, `UUID`, `URL`, `Data`, `nil`/`NSNull`, and for `%@` an array or set
    /// of these (which becomes an aggregate, as for `IN %@`). `%K` takes a `String` key path.
    ///
    /// - Throws: ``FetchPredicateError`` naming the position and what was expected when the format
    ///   is malformed, or the argument's index and type when an argument is missing, surplus
    ///   or unsupported.
    public init(_ format: String, _ arguments: Any?...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses `format` with an array of arguments; see ``init(_:_:)``.
    ///
    /// - Throws: ``FetchPredicateError`` as ``init(_:_:)`` does.
    public init(format: String, argumentArray: [Any?]) throws {
        self.expression = try PredicateParser.parse(format, arguments: argumentArray)
    }

    /// Wraps an already-built tree.
    public init(expression: PredicateNode) {
        self.expression = expression
    }

    /// The normalized format: parsing it gives back an equal predicate.
    public var description: String { expression.description }

    /// The names of the `$variables` still waiting for ``substituting(_:)``.
    public var variableNames: Set<String> {
        var names: Set<String> = []
        expression.forEachComparison { comparison in
            comparison.left.forEachVariable { names.insert($0) }
            comparison.right.forEachVariable { names.insert($0) }
        }
        return names
    }

    /// Replaces `$variables` with values, as Core Data does for fetch-request templates.
    ///
    /// Values take the same types as `%@` arguments; an array becomes an aggregate (for
    /// `IN $LIST` or `BETWEEN $RANGE`). Variables missing from `variables` stay in place, so
    /// a template can be filled in steps; evaluating one that is still unbound throws.
    /// Names are case-sensitive.
    ///
    /// - Throws: ``FetchPredicateError`` (`.substitution`) when a value's type is not supported,
    ///   or when `BETWEEN $x` receives something other than two values.
    public func substituting(_ variables: [String: Any?]) throws -> FetchPredicate {
        let format = description
        func substitute(_ operand: PredicateNode.Operand) throws -> PredicateNode.Operand {
            switch operand {
            case .variable(let name):
                guard let entry = variables[name] else { return operand }
                switch PredicateLiteral.from(argument: entry) {
                case .scalar(let literal): return .constant(literal)
                case .array(let literals): return .aggregate(literals.map { .constant($0) })
                case nil:
                    throw FetchPredicateError(
                        kind: .substitution, format: format,
                        message: "the value for $\(name) must be one of "
                            + "\(PredicateLiteral.acceptedTypes), or an array of these, not "
                            + PredicateLiteral.typeName(of: entry))
                }
            case .aggregate(let items): return .aggregate(try items.map(substitute))
            case .constant, .keyPath, .evaluatedObject, .collectionFunction: return operand
            }
        }
        let substituted = try expression.mapComparisons { comparison in
            var result = comparison
            result.left = try substitute(comparison.left)
            result.right = try substitute(comparison.right)
            if result.operator == .between, case .variable(let name) = comparison.right {
                switch result.right {
                case .aggregate(let items) where items.count == 2: break
                case .variable: break
                default:
                    throw FetchPredicateError(
                        kind: .substitution, format: format,
                        message: "BETWEEN $\(name) needs an array of two values, but was given "
                            + result.right.description)
                }
            }
            return result
        }
        return FetchPredicate(expression: substituted)
    }
}
