import Foundation

/// Evaluates a ``FetchPredicate`` against objects in memory.
///
/// The semantics are pinned down here because the SQL compiler must reproduce them exactly:
///
/// - **Two-valued logic.** Every comparison is true or false, never "unknown":
///   `NOT (price < 5)` is true when `price` is nil. (SQL must wrap comparisons accordingly.)
/// - **nil**, as Core Data's in-memory `NSPredicate`: `x == nil` is true when `x` is nil;
///   `x == 5` is false and `x != 5` is true when `x` is nil; `<`, `<=`, `>`, `>=`,
///   `BETWEEN`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES` and `IN "text"` are
///   false when either side is nil; `x IN {…}` uses `==`, so nil is in `{nil, 1}`.
/// - **Numbers** (integer, double, decimal; a boolean counts as 0 or 1) compare by value:
///   exactly as `Decimal` when one side is a decimal and neither a double, as `Double` when
///   either is a double (a decimal converts through its exact digits, correctly rounded),
///   as `Int64` otherwise. NaN is unordered: every comparison with it is false except `!=`.
/// - **Strings** compare by Unicode scalar (code point) order, the order of SQLite's
///   `BINARY` collation over UTF-8; `==` is scalar-for-scalar, with no canonical
///   equivalence. `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE` (`?` = one scalar) work on
///   scalars too. `[c]` lowercases both sides, `[d]` strips diacritics, `[cd]` applies
///   `CanonicalText.fold(_:)`; the options apply to every operator when both sides are strings.
/// - **Other types** compare only with their own type: a date with a date, a UUID with a
///   UUID (by bytes), a URL with a URL (by its absolute string), data with data (bytewise,
///   shorter prefix first), an object with an object (by identity). Anything else throws a
///   `.typeMismatch` error naming both operands and their types.
/// - **To-many key paths** yield collections. `ANY`/`SOME` needs one element to match,
///   `ALL` every element (true when empty), `NONE` no element (true when empty); a nil
///   to-one on the way counts as an empty collection. Without a quantifier a collection
///   only allows `CONTAINS` (membership) and `==`/`!=` with another collection; anything
///   else throws. `IN` with a string on the right is a substring test.
/// - **Key paths** through a nil to-one yield nil. Reading a key of a non-object throws.
/// - **Collection operators**: `@count` (nil collection: 0); `@sum` skips nils, is 0 when
///   empty, an integer for integers, a decimal if any element is, a double if any is;
///   `@avg` is a decimal for decimals, otherwise a double, nil when empty (decimals add
///   exactly, as `DecimalSum` and SQL's `decimal_sum` do; a decimal sum beyond `Decimal`'s
///   range throws `.invalidValue`); `@min`/`@max`
///   use the ordering above and are nil when empty.
/// - **Unbound variables** throw `.unboundVariable`.
///
/// An evaluator caches compiled `MATCHES` patterns; reuse one to filter many objects. It is
/// not `Sendable`: use one per thread.
public struct PredicateEvaluator {
    /// The predicate being evaluated.
    public let predicate: FetchPredicate
    let cache = RegexCache()
    /// Values for `$variables`, bound at evaluation rather than substituted as constants:
    /// a value that is no literal (an object, as `$FETCH_SOURCE` of a fetched property is)
    /// can stand for a variable this way.
    package var variables: [String: PredicateValue] = [:]

    /// Creates an evaluator for `predicate`.
    public init(_ predicate: FetchPredicate) {
        self.predicate = predicate
    }

    /// Whether `object` matches the predicate.
    ///
    /// - Throws: ``FetchPredicateError`` for a type mismatch, an unbound variable or an invalid
    ///   `MATCHES` pattern, with the predicate's description as its format; any error the
    ///   object throws from ``PredicateEvaluable/predicateValue(forKey:)`` passes through
    ///   (a ``FetchPredicateError`` gets the predicate's description filled in).
    public func evaluate(_ object: any PredicateEvaluable) throws -> Bool {
        do {
            return try evaluate(predicate.expression, object)
        } catch let error as FetchPredicateError where error.format.isEmpty {
            throw error.with(format: predicate.description)
        }
    }

    // MARK: - Internals

    private func evaluate(_ node: PredicateNode, _ object: any PredicateEvaluable) throws
        -> Bool
    {
        switch node {
        case .truePredicate: return true
        case .falsePredicate: return false
        case .and(let children):
            for child in children where try !evaluate(child, object) { return false }
            return true
        case .or(let children):
            for child in children where try evaluate(child, object) { return true }
            return false
        case .not(let child): return try !evaluate(child, object)
        case .comparison(let comparison): return try evaluate(comparison, object)
        }
    }

    private func evaluate(_ comparison: PredicateNode.Comparison, _ object: any PredicateEvaluable)
        throws -> Bool
    {
        let left = try value(of: comparison.left, object)
        let right = try value(of: comparison.right, object)
        let site = Site(comparison: comparison)
        guard let quantifier = comparison.quantifier else {
            return try compare(left, right, site)
        }
        let elements: [PredicateValue]
        switch left {
        case .collection(let items): elements = items
        case .null: elements = []
        default:
            throw site.error(
                "\(quantifier.rawValue) needs a to-many key path, but \(comparison.left) is "
                    + left.typeDescription)
        }
        let elementSite = Site(comparison: comparison, isElement: true)
        switch quantifier {
        case .any: return try elements.contains { try compare($0, right, elementSite) }
        case .all: return try elements.allSatisfy { try compare($0, right, elementSite) }
        case .noElement: return try !elements.contains { try compare($0, right, elementSite) }
        }
    }

    /// Where a comparison happens, for error messages (built only when one is thrown).
    struct Site {
        let comparison: PredicateNode.Comparison
        var isElement = false

        var op: PredicateNode.Operator { comparison.operator }
        var options: PredicateNode.Options { comparison.options }

        func error(_ message: String, kind: FetchPredicateError.Kind = .typeMismatch)
            -> FetchPredicateError
        {
            FetchPredicateError(kind: kind, format: "", message: message)
        }

        func mismatch(_ left: PredicateValue, _ right: PredicateValue) -> FetchPredicateError {
            let leftText = QuotedText.excerpt("\(comparison.left)")
            let leftName = isElement ? "an element of \(leftText)" : leftText
            var message =
                "cannot compare \(leftName) (\(left.typeDescription)) with "
                + "\(QuotedText.excerpt("\(comparison.right)")) (\(right.typeDescription)) using '\(op.rawValue)'"
            if case .date = left { message += "; a date compares only with a date" }
            if case .date = right { message += "; a date compares only with a date" }
            return error(message)
        }
    }

    // MARK: Operands and key paths

    private func value(of operand: PredicateNode.Operand, _ object: any PredicateEvaluable)
        throws -> PredicateValue
    {
        switch operand {
        case .constant(let literal): return PredicateValue(literal)
        case .evaluatedObject:
            if let subject = object as? PredicateValueSubject { return subject.value }
            return .object(object)
        case .keyPath(let components): return try walk(.object(object), components)
        case .variable(let name):
            if let bound = variables[name] { return bound }
            throw FetchPredicateError(
                kind: .unboundVariable, format: "",
                message: "variable $\(name) has no value; call substituting(_:) first")
        case .aggregate(let items):
            return .collection(try items.map { try value(of: $0, object) })
        case .collectionFunction(let function, let collection, let key):
            let elements: [PredicateValue]
            switch try walk(.object(object), collection) {
            case .collection(let items): elements = items
            case .null: elements = []
            case let other:
                throw FetchPredicateError(
                    kind: .typeMismatch, format: "",
                    message: "\(function.rawValue) needs a to-many key path, but "
                        + "\(PredicateNode.Operand.format(keyPath: collection)) is "
                        + other.typeDescription)
            }
            if function == .count { return .integer(Int64(elements.count)) }
            var values: [PredicateValue] = []
            for element in elements {
                switch try walk(element, key) {
                case .null: continue
                case .collection(let nested): values += nested.filter { !$0.isNull }
                case let single: values.append(single)
                }
            }
            return try aggregate(function, values, operand)
        }
    }

    /// Follows `components` from `start`, one key at a time; through a collection, maps
    /// every element and splices nested collections.
    package func walk(_ start: PredicateValue, _ components: [String]) throws -> PredicateValue {
        var current = start
        for (position, key) in components.enumerated() {
            current = try step(current, key, path: components[..<position])
        }
        return current
    }

    private func step(_ value: PredicateValue, _ key: String, path: ArraySlice<String>) throws
        -> PredicateValue
    {
        switch value {
        case .null: return .null
        case .object(let object): return try object.predicateValue(forKey: key)
        case .collection(let elements):
            var result: [PredicateValue] = []
            for element in elements {
                switch try step(element, key, path: path) {
                case .collection(let nested): result += nested
                case let single: result.append(single)
                }
            }
            return .collection(result)
        default:
            let owner = PredicateNode.Operand.format(keyPath: Array(path))
            throw FetchPredicateError(
                kind: .typeMismatch, format: "",
                message: "cannot read key '\(key)' of \(owner), which is \(value.typeDescription)")
        }
    }
}

extension FetchPredicate {
    /// Whether `object` matches this predicate, evaluated in memory with the semantics
    /// documented on ``PredicateEvaluator``.
    ///
    /// - Throws: ``FetchPredicateError`` for a type mismatch, an unbound variable or an invalid
    ///   `MATCHES` pattern; errors the object throws pass through.
    public func evaluate(with object: any PredicateEvaluable) throws -> Bool {
        try PredicateEvaluator(self).evaluate(object)
    }
}
