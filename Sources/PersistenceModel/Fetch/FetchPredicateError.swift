/// An error from parsing, substituting or evaluating a ``FetchPredicate``.
///
/// The error carries the format string (or, for substitution and evaluation, the predicate's
/// normalized description), the 0-based character position where parsing failed, and what
/// went wrong. Its ``description`` reads as one sentence:
///
/// ```
/// Unable to parse predicate "title ==" at position 8: expected a value after '=='
/// ```
///
/// ``diagnostic`` adds the format and a caret line under the failing position.
public struct FetchPredicateError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The stage and nature of a predicate error.
    public enum Kind: Sendable, Hashable {
        /// The format string is not valid predicate syntax.
        case syntax
        /// A format argument is missing, surplus, or of a type the specifier does not accept.
        case argument
        /// A substitution variable's value cannot be used.
        case substitution
        /// Two values of incompatible types were compared, or an operator was applied to a
        /// value it does not accept.
        case typeMismatch
        /// A `$variable` was evaluated before `substituting(_:)` gave it a value.
        case unboundVariable
        /// An object was asked for a key it does not have.
        case unknownKey
        /// A value is unusable for its operator, such as an invalid `MATCHES` pattern.
        case invalidValue
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The format string being parsed, or the description of the predicate being evaluated.
    public let format: String
    /// The 0-based character (grapheme cluster) offset in ``format`` where parsing failed,
    /// or `nil` when the failure has no single position.
    public let position: Int?
    /// What went wrong, without the leading context, e.g. `expected a value after '=='`.
    public let message: String

    /// Creates an error from its parts.
    public init(kind: Kind, format: String, position: Int? = nil, message: String) {
        self.kind = kind
        self.format = format
        self.position = position
        self.message = message
    }

    /// One sentence naming the predicate, the position (when known) and the problem; a long
    /// predicate is quoted in part, with `…` for what is left out.
    public var description: String {
        let verb: String
        switch kind {
        case .syntax, .argument: verb = "parse"
        case .substitution: verb = "substitute variables in"
        case .typeMismatch, .unboundVariable, .unknownKey, .invalidValue: verb = "evaluate"
        }
        // A long predicate is quoted as about 80 characters around the failing position
        // (a 120 KB predicate must not make a 120 KB message); the position still counts
        // characters of the whole predicate.
        let reason = QuotedText.excerpt(message, limit: 4 * QuotedText.excerptLength)
        if let position {
            let shown = QuotedText.excerpt(format, around: position).text
            return "Unable to \(verb) predicate \"\(shown)\" at position \(position): \(reason)"
        }
        return "Unable to \(verb) predicate \"\(QuotedText.excerpt(format))\": \(reason)"
    }

    /// The format on one line and a caret under ``position`` on the next, or `nil` when
    /// the error has no position.
    ///
    /// Line breaks and tabs in the format are shown as spaces so that the caret lines up.
    public var caretLine: String? {
        guard let position else { return nil }
        let shown = String(format.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        return shown + "\n" + String(repeating: " ", count: position) + "^"
    }

    /// ``description`` followed, when there is a position, by ``caretLine`` indented by two
    /// spaces: suitable for a terminal.
    public var diagnostic: String {
        guard let caretLine else { return description }
        let indented = caretLine.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "  " + $0 }.joined(separator: "\n")
        return description + "\n" + indented
    }

    /// An error for a ``PredicateEvaluable`` that has no value for `key`.
    ///
    /// Conforming types throw this from `predicateValue(forKey:)` so that the evaluator's
    /// error names the key and the object's type; the evaluator fills in ``format``.
    public static func unknownKey(_ key: String, on typeName: String) -> FetchPredicateError {
        FetchPredicateError(
            kind: .unknownKey, format: "",
            message: "\(typeName) has no key '\(key)'")
    }

    /// The same error with ``format`` set, used when an error thrown deep in evaluation is
    /// reported against the whole predicate.
    func with(format newFormat: String) -> FetchPredicateError {
        FetchPredicateError(kind: kind, format: newFormat, position: position, message: message)
    }
}
