import Foundation
import PersistenceModel

extension RelationalComparand {
    /// An integer column (or a boolean one, as 0 and 1) against `decimal`, exactly, with
    /// no cast: a whole decimal compares as that integer; a fractional one is never equal
    /// and orders as its floor (`i < 2.5` is `i <= 2`, `i > 2.5` is `i > 2`); one past the
    /// Int64 range holds for every set value or for none; NaN for none.
    ///
    /// For a layout whose integer columns keep INTEGER values (SQLite's, PostgreSQL's):
    /// SQL then compares them with the bound integer as the evaluator compares the numbers.
    package static func integerColumn(_ op: PredicateNode.Operator, comparedWith decimal: Decimal) -> RelationalComparand {
        if decimal.isNaN { return .constant(holds: false) }
        var value = decimal
        var floor = Decimal()
        NSDecimalRound(&floor, &value, 0, .down)
        guard let whole = Int64(floor.description) else {
            // Past the Int64 range: above every integer, or below every one.
            let above = floor > 0
            switch op {
            case .lessThan, .lessThanOrEqualTo: return .constant(holds: above)
            case .greaterThan, .greaterThanOrEqualTo: return .constant(holds: !above)
            default: return .constant(holds: false)
            }
        }
        if floor == decimal { return .value(.integer(whole), op) }
        switch op {
        case .equalTo, .notEqualTo: return .constant(holds: false)
        case .lessThan, .lessThanOrEqualTo: return .value(.integer(whole), .lessThanOrEqualTo)
        default: return .value(.integer(whole), .greaterThan)
        }
    }
}
