import Foundation

/// Sums and differences of constants for the translation of `$0.pages + 2 > limit`, with
/// an integer overflow thrown rather than trapping.
enum ExactArithmetic {
    /// An overflow, or an operand of another type than the expression's.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `a + b` as `N`.
    static func sum<N: Numeric>(_ a: Any?, _ b: Any?, as type: N.Type) throws -> N {
        try combine(a, b, as: type, subtracting: false)
    }

    /// `a - b` as `N`.
    static func difference<N: Numeric>(_ a: Any?, _ b: Any?, as type: N.Type) throws -> N {
        try combine(a, b, as: type, subtracting: true)
    }

    /// Whether `factor`, which multiplies a key path, is negative (a comparison with the
    /// product turns round); zero, which makes the key path irrelevant, throws.
    static func isNegative<N: Numeric>(_ factor: N) throws -> Bool {
        guard factor != .zero else { throw Failure(description: "a key path is multiplied by zero") }
        guard let double = double(factor) else {
            throw Failure(description: "a key path is multiplied by a \(N.self), which has no exact Double")
        }
        return double < 0
    }

    /// `value / factor`: what a key path multiplied by `factor` is compared with. For an
    /// integer key path the quotient is a Double (`n * 2 > 7` is `n > 3.5`, exact for every
    /// integer `n`); a Decimal stays a Decimal.
    static func quotient<N: Numeric>(_ value: Any?, _ factor: N) throws -> Any {
        guard let value = value as? N else { throw Failure(description: "a constant is not a \(N.self)") }
        if let value = value as? Decimal, let factor = factor as? Decimal { return value / factor }
        guard let numerator = double(value), let denominator = double(factor) else {
            throw Failure(description: "\(value) / \(factor) has no exact Double")
        }
        return numerator / denominator
    }

    /// `value` as a Double when it converts exactly (any float is taken as it is).
    private static func double<N: Numeric>(_ value: N) -> Double? {
        switch value {
        case let integer as any BinaryInteger: return exactDouble(integer)
        case let float as any BinaryFloatingPoint: return Double(float)
        case let decimal as Decimal: return Double(exactly: NSDecimalNumber(decimal: decimal).doubleValue)
        default: return nil
        }
    }

    private static func exactDouble<I: BinaryInteger>(_ value: I) -> Double? { Double(exactly: value) }

    private static func combine<N: Numeric>(_ a: Any?, _ b: Any?, as type: N.Type, subtracting: Bool) throws -> N {
        guard let a = a as? N, let b = b as? N else {
            throw Failure(description: "a constant is not a \(N.self)")
        }
        if let integer = a as? any FixedWidthInteger {
            guard let result = exact(integer, b, subtracting: subtracting) as? N else {
                throw Failure(description: "\(a) \(subtracting ? "-" : "+") \(b) overflows \(N.self)")
            }
            return result
        }
        return subtracting ? a - b : a + b
    }

    private static func exact<I: FixedWidthInteger>(_ a: I, _ b: Any, subtracting: Bool) -> I? {
        guard let b = b as? I else { return nil }
        let (result, overflow) = subtracting ? a.subtractingReportingOverflow(b) : a.addingReportingOverflow(b)
        return overflow ? nil : result
    }
}
