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

    /// A REAL column against `decimal`, exactly, through the Double nearest it
    /// (`DecimalText.nearestDouble(to:)`): when that Double's shortest decimal is not the
    /// decimal itself, no Double equals it and the ordering shifts by one side of it; a
    /// decimal beyond every Double is equal to none.
    package static func doubleColumn(_ op: PredicateNode.Operator, comparedWith decimal: Decimal) -> RelationalComparand {
        guard let (nearest, order) = DecimalText.nearestDouble(to: decimal) else { return .constant(holds: false) }
        var adjusted = op
        switch (order, op) {
        case (.orderedSame, _): break
        case (_, .equalTo), (_, .notEqualTo): return .constant(holds: false)
        // The decimal is above `nearest`'s own decimal: d < decimal exactly when d <= nearest.
        case (.orderedDescending, .lessThan): adjusted = .lessThanOrEqualTo
        case (.orderedDescending, .greaterThanOrEqualTo): adjusted = .greaterThan
        // The decimal is below it: d > decimal exactly when d >= nearest.
        case (.orderedAscending, .lessThanOrEqualTo): adjusted = .lessThan
        case (.orderedAscending, .greaterThan): adjusted = .greaterThanOrEqualTo
        default: break
        }
        return .value(.real(nearest), adjusted)
    }
}
