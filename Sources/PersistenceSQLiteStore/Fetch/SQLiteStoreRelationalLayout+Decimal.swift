import Foundation
import PersistenceModel
import PersistenceRelational

// Decimal columns (canonical text) compared exactly under the `DECIMAL` collation, in step
// with the evaluator (`Number.compare`): a Double means its shortest round-trip decimal
// (`DecimalText.plainText(of:)`), and no side is rounded through `CAST(… AS REAL)`.

extension SQLiteStoreRelationalLayout {
    /// A decimal column against a number, as `decimalColumn(_:_:text:negated:binder:)`
    /// writes it; nil for any other column or literal (a literal that is no number is
    /// refused by the store's compiler).
    package func ownComparison(
        _ column: String, of attribute: AttributeDescription, _ op: PredicateNode.Operator, _ literal: PredicateLiteral,
        negated: Bool, binder: inout RelationalBinder
    ) -> String? {
        guard attribute.type == .decimal, let number = Number(PredicateValue(literal)) else { return nil }
        if number.doubleValue.isNaN { return op == .notEqualTo ? "1" : "0" }
        let text: String
        if case .double(let double) = number {
            guard let plain = DecimalText.plainText(of: double) else {
                // ±infinity, beyond every Decimal: the answer only depends on the column being set.
                let below: Bool =
                    switch op {
                    case .lessThan, .lessThanOrEqualTo: double > 0
                    case .greaterThan, .greaterThanOrEqualTo: double < 0
                    default: false
                    }
                if op == .notEqualTo { return "1" }
                return below ? "(\(column) IS NOT NULL)" : "0"
            }
            text = plain
        } else {
            text = DecimalText.format(number.decimalValue)
        }
        return decimalColumn(column, op, text: text, negated: negated, binder: &binder)
    }

    /// A decimal column against a decimal's canonical `text`, compared with the `DECIMAL`
    /// collation: exact, but a call into Swift per row.
    ///
    /// Below or at a value (`<`, `<=`), a plain column is first checked against a bound in
    /// REAL, which SQLite compares itself: only rows that pass it reach the collation. The
    /// bound is conservative: SQLite's text-to-REAL conversion errs by far less than the
    /// millionth of a millionth it is given above the value, so every row the collation
    /// would keep passes (a NULL fails both; a text the collation does not read as a number
    /// orders after every number, so it fails the collation wherever it falls in REAL).
    /// Above a value no REAL bound can keep those texts, and an expression would be
    /// evaluated twice for a bound, so neither gets one.
    ///
    /// A NaN (stored as the text `NaN`) is unordered, as in memory: the collation orders it
    /// after every number, so above a value it is ruled out by name.
    private func decimalColumn(
        _ column: String, _ op: PredicateNode.Operator, text: String, negated: Bool, binder: inout RelationalBinder
    ) -> String {
        var bound = ""
        if op == .lessThan || op == .lessThanOrEqualTo, !column.contains("("), let value = Double(text), value.isFinite {
            let upper = value + value.magnitude * 1e-12 + Double.leastNormalMagnitude
            bound = "CAST(\(column) AS REAL) <= \(binder.bind(.real(upper))) AND "  // bound first: placeholders are positional
        }
        let rhs = binder.bind(.text(text)) + " COLLATE DECIMAL"
        let exact: String
        switch op {
        case .equalTo: exact = negated ? "coalesce(\(column) = \(rhs), 0)" : "(\(column) = \(rhs))"
        case .notEqualTo: exact = "(NOT coalesce(\(column) = \(rhs), 0))"
        default:
            exact = negated ? "coalesce(\(column) \(op.rawValue) \(rhs), 0)" : "(\(column) \(op.rawValue) \(rhs))"
        }
        if op == .greaterThan || op == .greaterThanOrEqualTo {
            return "(\(exact) AND \(column) IS NOT '\(DecimalText.format(.nan))')"
        }
        return bound.isEmpty ? exact : "(\(bound)\(exact))"
    }
}
