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
