import PersistenceModel

/// A `LIKE` pattern of the predicate language as an SQLite `GLOB` pattern: `*` for any run,
/// `?` for any one character, and the characters `GLOB` treats as special bracketed, so that
/// each matches itself. The text is folded by `options` as the evaluator folds it; compared
/// with a column folded the same way, `GLOB` answers exactly what the evaluator's `LIKE` does.
package enum LikePattern {
    package static func glob(_ text: String, options: PredicateNode.Options) -> String {
        var glob = ""
        for token in PredicateEvaluator.likeTokens(text, options) {
            switch token {
            case .anyRun: glob += "*"
            case .anyOne: glob += "?"
            case .scalar(let s) where s == "*" || s == "?" || s == "[": glob += "[\(s)]"
            case .scalar(let s): glob.unicodeScalars.append(s)
            }
        }
        return glob
    }
}
