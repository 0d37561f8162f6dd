import Foundation

/// Compiled regular expressions by pattern, for `MATCHES` wherever it is evaluated: a
/// store's (the SQLite store's `regexp` function; SQLite has no REGEXP of its own) and
/// attribute validation's. Patterns match the whole text, as `MATCHES` does in a predicate.
package final class RegularExpressionCache: @unchecked Sendable {
    /// A cache shared by validation.
    package static let shared = RegularExpressionCache()

    /// The most expressions kept. A query with more distinct `MATCHES` patterns than this
    /// compiles them again for every row, so the bound is above the number of patterns a
    /// command line can hold (an argument is at most 128 KiB, and a `MATCHES` term takes
    /// some 20 characters), while still bounding the memory a long-lived store spends.
    static let capacity = 8_192

    /// An empty cache.
    package init() {}

    private let lock = NSLock()
    private var cache: [String: NSRegularExpression] = [:]
    /// How many patterns were compiled, for tests that check the cache keeps them.
    private(set) var compilations = 0

    /// Whether `text` matches `pattern` in full.
    ///
    /// - Throws: `InvalidRegularExpression` when the pattern does not compile.
    package func matches(pattern: String, text: String) throws -> Bool {
        let regex = try expression(pattern)
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, options: [.anchored], range: range) else { return false }
        return match.range == range
    }

    private func expression(_ pattern: String) throws -> NSRegularExpression {
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[pattern] { return cached }
        do {
            let regex = try NSRegularExpression(pattern: pattern)
            compilations += 1
            // Emptied when full rather than evicting one by one: a query whose patterns fit
            // compiles each once.
            if cache.count >= Self.capacity { cache.removeAll() }
            cache[pattern] = regex
            return regex
        } catch {
            throw InvalidRegularExpression(pattern: pattern)
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
