import Foundation

/// A single value that a predicate is evaluated with, standing for `SELF`: the subject of
/// a property's validation predicates, which Core Data evaluates with the property's value
/// as the evaluated object (`SELF != 'bad'`, `SELF BETWEEN {1, 10}`).
///
/// A key path reads the value's own keys, as key-value coding reads an `NSString`'s or
/// `NSData`'s: `length` (`SELF.length`, or plain `length`) is a string's length in UTF-16
/// code units, as `NSString` counts it, or data's length in bytes. Any other key, or
/// `length` of another type, is an ``FetchPredicateError/unknownKey(_:on:)`` error.
public struct PredicateValueSubject: PredicateEvaluable {
    /// The value `SELF` stands for.
    public let value: PredicateValue

    /// Wraps `value` as the evaluated object.
    public init(_ value: PredicateValue) {
        self.value = value
    }

    /// The keys a value has: `length` of a string or data.
    public func predicateValue(forKey key: String) throws -> PredicateValue {
        switch (key, value) {
        case ("length", .string(let text)): return .integer(Int64(text.utf16.count))
        case ("length", .data(let data)): return .integer(Int64(data.count))
        case (_, .null): return .null
        default: throw FetchPredicateError.unknownKey(key, on: "the value (\(value.typeDescription))")
        }
    }
}

extension FetchPredicate {
    /// Whether `value` satisfies this predicate with `SELF` standing for the value, as a
    /// property's validation predicate is evaluated (see ``PredicateValueSubject``).
    ///
    /// - Throws: ``FetchPredicateError`` for a type mismatch (`SELF > 5` with a string), a key
    ///   the value has not got, an unbound variable or an invalid `MATCHES` pattern.
    public func evaluate(withValue value: PredicateValue) throws -> Bool {
        try PredicateEvaluator(self).evaluate(PredicateValueSubject(value))
    }
}
