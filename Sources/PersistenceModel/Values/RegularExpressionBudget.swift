import Foundation

/// How much work one regular-expression match may do before it is abandoned, and the match
/// that keeps to it: every `MATCHES` and every attribute's regular expression goes through
/// ``firstMatch(of:in:options:pattern:)``.
///
/// ICU, which is `NSRegularExpression` on Linux, backtracks: a pattern such as
/// `(.*){1,32000}b` or `(a+)+b` does exponential work on an ordinary 40-character value (too
/// long for one value, let alone for a query over many books), and a pattern comes from a
/// command line, a predicate or a model file. Compiling such a pattern is cheap (ICU does not
/// unroll counted loops, so even `((.*){1,32000}){1,32000}` compiles at once), so the
/// bound is on matching alone.
///
/// Why steps and not a deadline or a static check of the pattern:
/// - Foundation exposes no time limit (ICU's `uregex_setTimeLimit`), but with
///   `.reportProgress` it installs ICU's match callback (`uregex_setMatchCallback`), which
///   ICU calls every 10,000 steps of its matcher *inside* a single match; setting `stop`
///   there makes ICU abandon the match (a runaway match stops at the first report past the
///   limit). Counting those reports is a step budget.
/// - Steps, unlike a clock, do not depend on the machine's load: the same query over the
///   same data succeeds or fails the same way every time.
/// - A static bound on the pattern (nested or large counted repetition) refuses good
///   patterns and misses bad ones (`(a|aa)*b`); the step budget is exact about what it bounds.
///
/// The budget (10 million steps) is far above what ordinary patterns take:
/// `.*(foo|bar).*baz.*` against a megabyte of text takes about 2 million steps, and a
/// title-sized value a few hundred; a match under 10,000 steps is never even reported.
package enum RegularExpressionBudget {
    /// Progress reports ICU may make while matching one value, one every 10,000 steps.
    package static let reportsPerValue = 1_000

    /// Steps one match of one value may take: ``reportsPerValue`` reports of 10,000 steps.
    package static var stepsPerValue: Int { reportsPerValue * 10_000 }

    /// The first match of `regex` in all of `text`, or nil, giving up past the budget.
    ///
    /// - Parameters:
    ///   - pattern: The pattern as its author wrote it, for the error.
    /// - Throws: ``RegularExpressionTooSlow`` when matching takes more than
    ///   ``stepsPerValue`` steps; nothing is matched then.
    package static func firstMatch(
        of regex: NSRegularExpression, in text: String,
        options: NSRegularExpression.MatchingOptions = [], pattern: String
    ) throws(RegularExpressionTooSlow) -> NSTextCheckingResult? {
        let range = NSRange(text.startIndex..., in: text)
        var found: NSTextCheckingResult?
        var reports = 0
        var exceeded = false
        regex.enumerateMatches(in: text, options: options.union(.reportProgress), range: range) {
            result, _, stop in
            if let result {
                found = result
                stop.pointee = true
                return
            }
            // No result: a progress report, made from inside ICU's matcher.
            reports += 1
            if reports > reportsPerValue {
                exceeded = true
                stop.pointee = true
            }
        }
        if exceeded { throw RegularExpressionTooSlow(pattern: pattern) }
        return found
    }
}

/// A regular expression that took more than ``RegularExpressionBudget/stepsPerValue`` steps
/// to match one value: the match was abandoned.
package struct RegularExpressionTooSlow: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as its author wrote it.
    package var pattern: String

    /// Creates the error for `pattern`.
    package init(pattern: String) { self.pattern = pattern }

    /// `the pattern "(.*){1,32000}b" took too long to match (more than 10 million steps
    /// against one value); simplify it`.
    package var description: String {
        "the pattern \(QuotedText.excerpt(QuotedText.doubleQuoted(pattern))) took too long to match "
            + "(more than \(RegularExpressionBudget.stepsPerValue / 1_000_000) million steps "
            + "against one value); simplify it"
    }
}
