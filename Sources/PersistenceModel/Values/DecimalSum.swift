import Foundation

/// A running sum and count of decimals: the one arithmetic behind every `@sum` and `@avg`
/// of Decimal values, in memory and in SQL (`decimal_sum`, `decimal_avg`), so that both give
/// the same answer.
///
/// Terms are added with `Decimal`'s own addition, never through `Double`: a sum whose exact
/// value has at most ``DecimalText/maximumSignificantDigits`` (38) significant digits is
/// exact (`0.1 + 0.2` is `0.3`). A sum needing more digits, such as `1E+30 + 1E-30`, keeps
/// only its leading 38 significant digits: `Decimal`'s own addition keeps 38, or 39 when they
/// fit in its 128-bit significand, and a 39th digit is rounded away here (half up), because
/// the store's text (``DecimalText/parse(_:)``) holds 38 and a derived sum must read back.
/// A sum beyond `Decimal`'s range (about 3.4 × 10¹⁶⁵ in magnitude) is an
/// error, ``DecimalSumError``, never a NaN passed on. The average is the sum divided by the
/// count with `Decimal` division, which keeps 38 significant digits and drops the rest
/// (on Linux, -2 / 3 is `-0.66666666666666666666666666666666666666`).
package struct DecimalSum: Sendable {
    /// The sum of the terms added so far; 0 when there are none.
    package private(set) var total = Decimal(0)
    /// How many terms have been added.
    package private(set) var count = 0

    /// An empty sum.
    package init() {}

    /// Adds `term`.
    ///
    /// - Throws: ``DecimalSumError`` when the sum leaves `Decimal`'s range or `term` is NaN;
    ///   the sum is then unchanged.
    package mutating func add(_ term: Decimal) throws(DecimalSumError) {
        guard !term.isNaN else { throw DecimalSumError(total: total, term: term) }
        var next = total + term
        if !next.isNaN, next.significand >= Self.tenToThe38 {
            // 39 significant digits: round the last one away.
            var rounded = Decimal()
            NSDecimalRound(&rounded, &next, -Int(next.exponent) - 1, .plain)
            next = rounded
        }
        guard !next.isNaN else { throw DecimalSumError(total: total, term: term) }
        total = next
        count += 1
    }

    /// 10³⁸: a significand this large has 39 digits.
    private static let tenToThe38 = Decimal(sign: .plus, exponent: 38, significand: 1)

    /// The mean of the terms (the sum divided by the count), or nil when there are none.
    package var average: Decimal? {
        count == 0 ? nil : total / Decimal(count)
    }
}

/// A sum of decimals left `Decimal`'s range.
package struct DecimalSumError: Error, Sendable, CustomStringConvertible {
    /// The sum before the term that did not fit.
    package let total: Decimal
    /// The term that did not fit.
    package let term: Decimal

    /// A sentence naming both numbers.
    package var description: String {
        if term.isNaN { return "cannot add NaN to a sum of decimals" }
        return "the sum of decimals overflows: \(DecimalText.format(total)) + "
            + "\(DecimalText.format(term)) is beyond Decimal's range (about 3.4e165)"
    }
}
