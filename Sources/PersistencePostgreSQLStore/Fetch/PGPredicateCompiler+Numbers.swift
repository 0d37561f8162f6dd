#if PostgreSQL
import Foundation
import PersistenceModel

// Numeric comparisons in step with `Number.compare`: integers against doubles exactly (never
// through a rounding cast), decimals against doubles through the double's shortest
// round-trip decimal, NaN unordered. Booleans count as 0 and 1.

extension PGPredicateCompiler {
    /// An integer (or boolean, as 0 and 1) column against a numeric constant.
    mutating func integerColumn(_ sql: String, _ op: PredicateNode.Operator, _ literal: PredicateLiteral) throws(Unsupported) -> String {
        switch literal {
        case .integer(let i): return Self.comparison(sql, op, bind(.integer(i)))
        case .bool(let b): return Self.comparison(sql, op, bind(.integer(b ? 1 : 0)))
        case .decimal(let d):
            if d.isNaN { return Self.constant(sql, op, holds: false) }
            return Self.comparison("(\(sql))::numeric", op, bind(.numeric(DecimalText.format(d))))
        case .double(let d):
            return integerColumn(sql, op, comparedWith: d)
        default: throw Unsupported()
        }
    }

    /// An integer column against a Double, exactly: past the Int64 range the answer is the
    /// same for every set value; a whole Double compares as that integer; a fractional one
    /// is never equal and orders as its floor (`i < 2.5` is `i <= 2`, `i > 2.5` is `i > 2`).
    private mutating func integerColumn(_ sql: String, _ op: PredicateNode.Operator, comparedWith d: Double) -> String {
        if d.isNaN { return Self.constant(sql, op, holds: false) }
        if d >= 9_223_372_036_854_775_808.0 || d < -9_223_372_036_854_775_808.0 {
            let above = d > 0
            switch op {
            case .lessThan, .lessThanOrEqualTo: return Self.constant(sql, op, holds: above)
            case .greaterThan, .greaterThanOrEqualTo: return Self.constant(sql, op, holds: !above)
            default: return Self.constant(sql, op, holds: false)
            }
        }
        let floor = d.rounded(.down)
        let whole = Int64(floor)
        if floor == d { return Self.comparison(sql, op, bind(.integer(whole))) }
        switch op {
        case .equalTo, .notEqualTo: return Self.constant(sql, op, holds: false)
        case .lessThan, .lessThanOrEqualTo: return Self.comparison(sql, .lessThanOrEqualTo, bind(.integer(whole)))
        default: return Self.comparison(sql, .greaterThan, bind(.integer(whole)))
        }
    }

    /// A Double column against a numeric constant; a stored NaN is unordered, as in memory
    /// (PostgreSQL itself orders NaN above every number and equal to itself).
    mutating func doubleColumn(_ sql: String, _ op: PredicateNode.Operator, _ literal: PredicateLiteral) throws(Unsupported) -> String {
        let notNaN = "\(sql) <> 'NaN'::float8"
        switch literal {
        case .double(let d):
            if d.isNaN { return Self.constant(sql, op, holds: false) }
            return Self.comparison(sql, op, bind(.double(d)), requiring: notNaN)
        case .integer(let i):
            // Exact as a Double only within ±2⁵³; beyond, memory compares exactly.
            guard i.magnitude <= 1 << 53 else { throw Unsupported() }
            return Self.comparison(sql, op, bind(.double(Double(i))), requiring: notNaN)
        case .bool(let b):
            return Self.comparison(sql, op, bind(.double(b ? 1 : 0)), requiring: notNaN)
        case .decimal(let decimal):
            // The Double nearest the Decimal, and whether that Double's own decimal is the
            // Decimal: when not, no Double equals it and the ordering moves to one side of it.
            guard let (nearest, order) = DecimalText.nearestDouble(to: decimal) else {
                return Self.constant(sql, op, holds: false)
            }
            var adjusted = op
            switch (order, op) {
            case (.orderedSame, _): break
            case (_, .equalTo), (_, .notEqualTo): return Self.constant(sql, op, holds: false)
            case (.orderedDescending, .lessThan): adjusted = .lessThanOrEqualTo
            case (.orderedDescending, .greaterThanOrEqualTo): adjusted = .greaterThan
            case (.orderedAscending, .lessThanOrEqualTo): adjusted = .lessThan
            case (.orderedAscending, .greaterThan): adjusted = .greaterThanOrEqualTo
            default: break
            }
            return Self.comparison(sql, adjusted, bind(.double(nearest)), requiring: notNaN)
        default: throw Unsupported()
        }
    }

    /// A Decimal column (`numeric`, exact) against a numeric constant; a Double means its
    /// shortest round-trip decimal, as in memory.
    mutating func decimalColumn(_ sql: String, _ op: PredicateNode.Operator, _ literal: PredicateLiteral) throws(Unsupported) -> String {
        let notNaN = "\(sql) <> 'NaN'::numeric"
        let text: String
        switch literal {
        case .decimal(let d):
            if d.isNaN { return Self.constant(sql, op, holds: false) }
            text = DecimalText.format(d)
        case .integer(let i): text = String(i)
        case .bool(let b): text = b ? "1" : "0"
        case .double(let d):
            if d.isNaN { return Self.constant(sql, op, holds: false) }
            guard let plain = DecimalText.plainText(of: d) else {
                // ±infinity: beyond every Decimal.
                switch op {
                case .lessThan, .lessThanOrEqualTo: return Self.constant(sql, op, holds: d > 0)
                case .greaterThan, .greaterThanOrEqualTo: return Self.constant(sql, op, holds: d < 0)
                default: return Self.constant(sql, op, holds: false)
                }
            }
            text = plain
        default: throw Unsupported()
        }
        return Self.comparison(sql, op, bind(.numeric(text)), requiring: notNaN)
    }
}
#endif
