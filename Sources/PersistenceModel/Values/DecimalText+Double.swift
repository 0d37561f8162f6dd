import Foundation

// Comparing a Decimal with a Double exactly, the same way in SQL and in memory.
//
// A Double is taken to mean its shortest round-trip decimal: the digits Swift prints for it
// (`0.1` is 0.1, not 0.1000000000000000055…), which is what a person wrote to get that
// Double. That value is written as canonical plain decimal text, so that the `DECIMAL`
// collation compares it with a stored Decimal's text digit by digit, and the in-memory
// evaluator compares the same two texts with the same function: nothing goes through a
// rounding `Double` conversion, so values past 2⁵³ or with 38 digits stay exact.

extension DecimalText {
    /// The shortest round-trip decimal of a finite `value` as plain decimal text in the form
    /// ``format(_:)`` writes (an optional `-`, digits, a `.` and fraction digits only when
    /// there is a fraction, no exponent): `0.1` → `"0.1"`, `1e16` → `"10000000000000000"`,
    /// `5e-324` → `"0.000…5"`, `-0.0` → `"0"`. Nil for NaN and the infinities.
    ///
    /// Unlike a `Decimal`, the text has no range limit, so every finite Double has one.
    package static func plainText(of value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == 0 { return "0" }
        let text = value.magnitude.description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            guard let parsed = Int(text[text.index(after: e)...]) else { return nil }
            exponent = parsed
        }
        var integer = mantissa
        var fraction: Substring = ""
        if let point = mantissa.firstIndex(of: ".") {
            integer = mantissa[..<point]
            fraction = mantissa[mantissa.index(after: point)...]
        }
        var digits = Array((integer + fraction).utf8)
        guard !digits.isEmpty, digits.allSatisfy({ $0 &- 0x30 < 10 }) else { return nil }
        // Where the point goes, counted in digits from the left.
        var point = integer.utf8.count + exponent
        let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeFirst(leadingZeros)
        point -= leadingZeros
        while digits.last == UInt8(ascii: "0") && digits.count > max(point, 0) { digits.removeLast() }
        guard !digits.isEmpty else { return "0" }
        let zero = UInt8(ascii: "0")
        var result: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        if point <= 0 {
            result += [zero, UInt8(ascii: ".")] + [UInt8](repeating: zero, count: -point) + digits
        } else if point >= digits.count {
            result += digits + [UInt8](repeating: zero, count: point - digits.count)
        } else {
            result += digits[..<point] + [UInt8(ascii: ".")] + digits[point...]
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// How `decimal` orders against `double` taken as its shortest round-trip decimal (see
    /// ``plainText(of:)``): exactly, with the `DECIMAL` collation's comparison. Every Decimal
    /// is below `+infinity` and above `-infinity`; nil when either is NaN (unordered).
    package static func compare(_ decimal: Decimal, _ double: Double) -> ComparisonResult? {
        if decimal.isNaN || double.isNaN { return nil }
        guard let text = plainText(of: double) else {
            return double > 0 ? .orderedAscending : .orderedDescending
        }
        var left = format(decimal)
        var right = text
        let order = left.withUTF8 { l in
            right.withUTF8 { r in compare(UnsafeRawBufferPointer(l), UnsafeRawBufferPointer(r)) }
        }
        return order < 0 ? .orderedAscending : (order == 0 ? .orderedSame : .orderedDescending)
    }

    /// The Double nearest to `decimal` (correctly rounded from its exact digits), and how
    /// that Double's shortest decimal orders against `decimal`: what lets a Double column be
    /// compared with a Decimal in plain SQL (see `PredicateSQLCompiler`). Nil for NaN.
    ///
    /// Shortest decimals increase strictly with the Double, so a Double `d` is below
    /// `decimal` exactly when `d < nearest`, or `d <= nearest` when `nearest`'s own decimal
    /// is below `decimal` (and then no Double equals it).
    package static func nearestDouble(to decimal: Decimal) -> (nearest: Double, order: ComparisonResult)? {
        guard !decimal.isNaN, let nearest = Double(format(decimal)), let order = compare(decimal, nearest) else {
            return nil
        }
        return (nearest, order)
    }
}
