import Foundation
import PersistenceModel
import PersistenceSQLite

// Comparisons between Decimal and Double, exact and in step with the evaluator
// (`Number.compare`): a Double means its shortest round-trip decimal (see
// `DecimalText.plainText(of:)`), and no side is rounded through `CAST(… AS REAL)`.

extension PredicateSQLCompiler {
    /// A Double column's value, with NaN (stored as the text `NaN`) read as NULL, which
    /// makes it unordered as in memory.
    func doubleColumnValue(_ sql: String) -> String {
        "(CASE WHEN typeof(\(sql)) = 'text' THEN NULL ELSE \(sql) END)"
    }

    /// A Decimal column (canonical text) against a Double literal: the literal's shortest
    /// decimal as text, compared with the `DECIMAL` collation. An infinity is beyond every
    /// Decimal, so the answer only depends on the column being set.
    mutating func decimalColumn(_ lhs: String, _ op: PredicateNode.Operator, comparedWith double: Double) -> String {
        guard let text = DecimalText.plainText(of: double) else {
            // ±infinity (NaN is answered before this is reached).
            let below: Bool =
                switch op {
                case .lessThan, .lessThanOrEqualTo: double > 0
                case .greaterThan, .greaterThanOrEqualTo: double < 0
                default: false
                }
            if op == .notEqualTo { return "1" }
            return below ? "(\(lhs) IS NOT NULL)" : "0"
        }
        return decimalColumn(lhs, op, comparedWithText: text)
    }

    /// A Decimal column (canonical text) against a decimal's canonical `text`, compared with
    /// the `DECIMAL` collation: exact, but a call into Swift per row.
    ///
    /// Below or at a value (`<`, `<=`), a plain column is first checked against a bound in
    /// REAL, which SQLite compares itself: only rows that pass it reach the collation. The
    /// bound is conservative: SQLite's text-to-REAL conversion errs by far less than the
    /// millionth of a millionth it is given above the value, so every row the collation would
    /// keep passes (a NULL fails both; a text the collation does not read as a number orders
    /// after every number, so it fails the collation wherever it falls in REAL). Above a
    /// value no REAL bound can keep those texts, and an expression (`lhs` other than a
    /// column) would be evaluated twice for a bound, so neither gets one.
    ///
    /// A NaN (stored as the text `NaN`) is unordered, as in memory: the collation orders it
    /// after every number, so above a value it is ruled out by name (for an expression too,
    /// which is then read twice: correctness first).
    mutating func decimalColumn(_ lhs: String, _ op: PredicateNode.Operator, comparedWithText text: String) -> String {
        var bound = ""
        if op == .lessThan || op == .lessThanOrEqualTo, !lhs.contains("("), let value = Double(text), value.isFinite {
            let upper = value + value.magnitude * 1e-12 + Double.leastNormalMagnitude
            bound = "CAST(\(lhs) AS REAL) <= \(bind(.real(upper))) AND "  // bound first: placeholders are positional
        }
        let placeholder = bind(.text(text))
        let exact = comparison(lhs, op, placeholder, suffix: " COLLATE DECIMAL")
        if op == .greaterThan || op == .greaterThanOrEqualTo {
            return "(\(exact) AND \(lhs) IS NOT '\(DecimalText.format(.nan))')"
        }
        return bound.isEmpty ? exact : "(\(bound)\(exact))"
    }

    /// A Double column (`lhs`, NaN already read as NULL) against a Decimal literal, in plain
    /// REAL comparisons against the Double nearest the Decimal (see
    /// `DecimalText.nearestDouble(to:)`): when that Double's shortest decimal is not the
    /// Decimal itself, no Double equals it and the ordering shifts by one side of it.
    mutating func doubleColumn(_ lhs: String, _ op: PredicateNode.Operator, comparedWith decimal: Decimal) -> String {
        guard let (nearest, order) = DecimalText.nearestDouble(to: decimal) else {
            return op == .notEqualTo ? "1" : "0"
        }
        var adjusted = op
        switch (order, op) {
        case (.orderedSame, _): break
        case (_, .equalTo): return "0"
        case (_, .notEqualTo): return "1"
        // The decimal is above `nearest`'s own decimal: d < decimal exactly when d <= nearest.
        case (.orderedDescending, .lessThan): adjusted = .lessThanOrEqualTo
        case (.orderedDescending, .greaterThanOrEqualTo): adjusted = .greaterThan
        // The decimal is below it: d > decimal exactly when d >= nearest.
        case (.orderedAscending, .lessThanOrEqualTo): adjusted = .lessThan
        case (.orderedAscending, .greaterThan): adjusted = .greaterThanOrEqualTo
        default: break
        }
        let placeholder = bind(.real(nearest))  // before the call: see `ordered`
        return comparison(lhs, adjusted, placeholder)
    }
}
