import Foundation

extension AttributeValue {
    /// The sum of the numbers among `values` (others count as nothing): an integer while the
    /// integers fit Int64, exactly as a decimal past that or once a Double or Decimal is met.
    package static func sum(of values: some Sequence<AttributeValue>) throws(DecimalSumError) -> AttributeValue {
        var integer: Int64 = 0
        var decimal = DecimalSum()
        var isDecimal = false
        for value in values {
            switch value {
            case .integer(let v):
                // Past Int64 the sum goes on exactly as a decimal; the attribute's type
                // then decides whether it fits.
                let (sum, overflow) = integer.addingReportingOverflow(v)
                if overflow {
                    try decimal.add(Decimal(v))
                    isDecimal = true
                } else {
                    integer = sum
                }
            case .double(let v): try decimal.add(Decimal(v)); isDecimal = true
            case .decimal(let v): try decimal.add(v); isDecimal = true
            default: break
            }
        }
        guard isDecimal else { return .integer(integer) }
        try decimal.add(Decimal(integer))
        return .decimal(decimal.total)
    }
}
