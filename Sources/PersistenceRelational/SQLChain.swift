/// Conditions joined by `AND` or `OR` as a balanced tree of parenthesized halves.
///
/// SQLite refuses an expression nested more than 1,000 levels deep, and it nests a flat
/// `a OR b OR c …` one level a term: a predicate of a thousand alternatives (an app's "any
/// of these" filter, a long `IN` spelled term by term) failed with "Expression tree is too
/// large". Grouped into halves, a chain is as deep as the logarithm of its length, and every
/// database reads it as it reads the flat one.
package enum SQLChain {
    /// `parts` joined by `op` (`"AND"` or `"OR"`), at most four to a group; one part is
    /// returned in parentheses as it is.
    package static func joined(_ parts: [String], by op: String) -> String {
        var sql = ""
        func append(_ range: Range<Int>) {
            if range.count <= 4 {
                sql += "(" + parts[range].joined(separator: " \(op) ") + ")"
                return
            }
            let middle = range.lowerBound + range.count / 2
            sql += "("
            append(range.lowerBound..<middle)
            sql += " \(op) "
            append(middle..<range.upperBound)
            sql += ")"
        }
        append(0..<parts.count)
        return sql
    }
}
