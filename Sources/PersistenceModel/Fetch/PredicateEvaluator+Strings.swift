import Foundation

// String operators: folding for [c]/[d]/[cd], BEGINSWITH, ENDSWITH, LIKE and MATCHES.

extension PredicateEvaluator {
    /// `text` folded for the `[c]`/`[d]` options: `[c]` lowercases, `[d]` removes
    /// diacritics, `[cd]` is the canonical form `CanonicalText.fold(_:)`.
    package func fold(_ text: String, _ options: PredicateNode.Options) -> String {
        Self.fold(text, options)
    }

    package static func fold(_ text: String, _ options: PredicateNode.Options) -> String {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (false, false): text
        case (true, false): text.lowercased()
        case (false, true): text.folding(options: .diacriticInsensitive, locale: nil)
        case (true, true): CanonicalText.fold(text)
        }
    }

    /// `BEGINSWITH`, `ENDSWITH`, `LIKE` or `MATCHES` between two strings.
    func match(_ text: String, _ pattern: String, _ site: Site) throws -> Bool {
        switch site.op {
        case .beginsWith:
            return fold(text, site.options).utf8.starts(with: fold(pattern, site.options).utf8)
        case .endsWith:
            return fold(text, site.options).utf8.reversed()
                .starts(with: fold(pattern, site.options).utf8.reversed())
        case .like:
            let tokens = Self.likeTokens(pattern, site.options)
            return Self.like(Array(fold(text, site.options).unicodeScalars), tokens)
        default:
            let regex = try cache.regex(for: pattern, options: site.options)
            let subject = fold(text, site.options)
            // Under a step budget: a catastrophic pattern fails the evaluation instead of
            // running for minutes (see `RegularExpressionBudget`).
            do {
                return try RegularExpressionBudget.firstMatch(of: regex, in: subject, pattern: pattern) != nil
            } catch {
                throw FetchPredicateError(kind: .invalidValue, format: "", message: error.description)
            }
        }
    }

    // MARK: LIKE

    package enum LikeToken: Equatable {
        case scalar(Unicode.Scalar)
        case anyRun
        case anyOne
    }

    /// Splits a `LIKE` pattern into literal scalars and wildcards, folding each literal run
    /// on its own so that folding never touches `*`, `?` or `\`.
    ///
    /// The canonical form (`[cd]`) collapses white space and trims it at the ends of the
    /// whole text; a run between wildcards keeps one space where it began or ended with
    /// white space, so the pattern folds the way the whole subject does. The SQL compiler
    /// uses this to fold `LIKE` patterns the same way.
    package static func likeTokens(_ pattern: String, _ options: PredicateNode.Options)
        -> [LikeToken]
    {
        var tokens: [LikeToken] = []
        var literal = ""
        func flushLiteral(atEnd: Bool) {
            let folded = foldRun(literal, options, atStart: tokens.isEmpty, atEnd: atEnd)
            tokens += folded.unicodeScalars.map { .scalar($0) }
            literal = ""
        }
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "*":
                flushLiteral(atEnd: false)
                tokens.append(.anyRun)
            case "?":
                flushLiteral(atEnd: false)
                tokens.append(.anyOne)
            case "\\":
                literal.unicodeScalars.append(scalars.next() ?? "\\")
            default:
                literal.unicodeScalars.append(scalar)
            }
        }
        flushLiteral(atEnd: true)
        return tokens
    }

    /// Folds one literal run of a `LIKE` pattern; see ``likeTokens(_:_:)``.
    private static func foldRun(
        _ run: String, _ options: PredicateNode.Options, atStart: Bool, atEnd: Bool
    ) -> String {
        let folded = fold(run, options)
        guard options == [.caseInsensitive, .diacriticInsensitive], !run.isEmpty else {
            return folded
        }
        let leading = !atStart && run.unicodeScalars.first?.properties.isWhitespace == true
        let trailing = !atEnd && run.unicodeScalars.last?.properties.isWhitespace == true
        if folded.isEmpty { return leading || trailing ? " " : "" }
        return (leading ? " " : "") + folded + (trailing ? " " : "")
    }

    /// Wildcard matching with one backtrack point per `*`: O(text × pattern), never
    /// exponential.
    static func like(_ text: [Unicode.Scalar], _ pattern: [LikeToken]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == .anyOne || pattern[p] == .scalar(text[t]) {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == .anyRun {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == .anyRun { p += 1 }
        return p == pattern.count
    }
}

// MARK: - Substring search

extension String {
    /// Whether `needle` occurs in this string as a run of UTF-8 bytes: substring search by
    /// Unicode scalars, as SQLite's `instr` does. The empty string occurs everywhere.
    func contains(utf8 needle: String) -> Bool {
        let hay = Array(utf8)
        let pin = Array(needle.utf8)
        if pin.isEmpty { return true }
        if pin.count > hay.count { return false }
        for start in 0...(hay.count - pin.count) where hay[start] == pin[0] {
            if hay[start..<(start + pin.count)].elementsEqual(pin) { return true }
        }
        return false
    }
}

// MARK: - MATCHES

/// Compiled `MATCHES` patterns, keyed by pattern and options.
package final class RegexCache {
    private var compiled: [String: NSRegularExpression] = [:]

    /// An empty cache.
    package init() {}

    /// `pattern` with its non-ASCII runs folded as `[c]`, `[d]` fold the subject; ASCII
    /// (escapes, classes, operators) is left as written. The pattern both evaluators use.
    package static func fold(pattern: String, _ options: PredicateNode.Options) -> String {
        var folded = ""
        var run = ""
        for character in pattern {
            if character.isASCII {
                folded += PredicateEvaluator.fold(run, options)
                run = ""
                folded.append(character)
            } else {
                run.append(character)
            }
        }
        return folded + PredicateEvaluator.fold(run, options)
    }

    /// The regular expression that matches the whole (folded) subject against `pattern`.
    ///
    /// With `[c]` the expression is case-insensitive. Folding is applied only to the
    /// pattern's non-ASCII runs, so escapes such as `\D` or `\p{Lu}` keep their meaning
    /// while literal letters like `ñ` fold the way the subject does.
    ///
    /// - Throws: ``FetchPredicateError`` (`.invalidValue`) when ICU rejects the pattern.
    package func regex(for pattern: String, options: PredicateNode.Options) throws
        -> NSRegularExpression
    {
        let key = "\(options.rawValue):\(pattern)"
        if let regex = compiled[key] { return regex }
        let folded = Self.fold(pattern: pattern, options)
        let regexOptions: NSRegularExpression.Options =
            options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        let regex: NSRegularExpression
        do {
            // Compile the pattern alone first, so that `a)|(b` is refused rather than
            // becoming valid inside the anchoring group.
            _ = try NSRegularExpression(pattern: folded, options: regexOptions)
            regex = try NSRegularExpression(
                pattern: "\\A(?:" + folded + ")\\z", options: regexOptions)
        } catch {
            throw FetchPredicateError(
                kind: .invalidValue, format: "",
                message: "MATCHES pattern \(QuotedText.excerpt(PredicateLiteral.quoted(pattern))) is not a valid "
                    + "regular expression")
        }
        compiled[key] = regex
        return regex
    }
}
