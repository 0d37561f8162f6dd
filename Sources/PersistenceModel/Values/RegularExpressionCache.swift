import Foundation
import Synchronization

/// Compiled regular expressions by pattern, for `MATCHES` wherever it is evaluated: a
/// store's (the SQLite store's `regexp` function; SQLite has no REGEXP of its own) and
/// attribute validation's. Patterns match the whole text, as `MATCHES` does in a predicate.
package final class RegularExpressionCache: Sendable {
    /// A cache shared by validation.
    package static let shared = RegularExpressionCache()

    /// The most expressions kept. A query with more distinct `MATCHES` patterns than this
    /// compiles them again for every row, so the bound is above the number of patterns a
    /// command line can hold (an argument is at most 128 KiB, and a `MATCHES` term takes
    /// some 20 characters), while still bounding the memory a long-lived store spends.
    static let capacity = 8_192

    /// An empty cache.
    package init() {}

    /// What the cache keeps, behind one mutex.
    private struct State {
        var cache: [String: NSRegularExpression] = [:]
        var failure: RegularExpressionTooSlow?
        var compilations = 0
    }

    private let state = Mutex(State())
    /// How many patterns were compiled, for tests that check the cache keeps them.
    var compilations: Int { state.withLock { $0.compilations } }

    /// Whether `text` matches `pattern` in full, within ``RegularExpressionBudget``.
    ///
    /// - Parameters:
    ///   - shownPattern: The pattern as its author wrote it, for the error, when `pattern`
    ///     is a rewriting of it (the SQL compiler anchors and folds `MATCHES` patterns).
    /// - Throws: `InvalidRegularExpression` when the pattern does not compile;
    ///   `RegularExpressionTooSlow` when matching takes more than the budget's steps, which
    ///   is also kept as ``lastFailure`` for a caller that sees it only as SQLite's message.
    package func matches(pattern: String, text: String, shownPattern: String? = nil) throws -> Bool {
        let regex = try expression(pattern)
        let range = NSRange(text.startIndex..., in: text)
        let match: NSTextCheckingResult?
        do {
            match = try RegularExpressionBudget.firstMatch(
                of: regex, in: text, options: [.anchored], pattern: shownPattern ?? pattern)
        } catch {
            state.withLock { $0.failure = error }
            throw error
        }
        guard let match else { return false }
        return match.range == range
    }

    /// The last match abandoned past the budget since the last call, which clears it: the
    /// SQLite store turns a statement that failed in its `regexp` function back into this.
    package func takeFailure() -> RegularExpressionTooSlow? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }

    private func expression(_ pattern: String) throws -> NSRegularExpression {
        try state.withLock { state in
            if let cached = state.cache[pattern] { return cached }
            do {
                let regex = try NSRegularExpression(pattern: pattern)
                state.compilations += 1
                // Emptied when full rather than evicting one by one: a query whose patterns
                // fit compiles each once.
                if state.cache.count >= Self.capacity { state.cache.removeAll() }
                state.cache[pattern] = regex
                return regex
            } catch {
                throw InvalidRegularExpression(pattern: pattern)
            }
        }
    }
}

/// A regular expression that does not compile.
package struct InvalidRegularExpression: Error, Sendable, CustomStringConvertible {
    /// The pattern as given.
    package var pattern: String
    /// "'[a' is not a valid regular expression".
    package var description: String { "'\(QuotedText.excerpt(pattern))' is not a valid regular expression" }
}
