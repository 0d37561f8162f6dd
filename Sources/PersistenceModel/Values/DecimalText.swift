import Foundation

/// Exact conversions between `Decimal` and text, never through `Double`.
///
/// Foundation's own `Decimal(string:)` accepts prefixes silently (`"19,99"` → 19) and a
/// `Decimal` literal goes through `Double` (`19.99` → 19.98999…), so the store and the
/// command line use these instead:
///
/// - ``parse(_:)`` reads strict decimal notation, with an optional exponent, and builds the
///   value from its digits exactly;
/// - ``plainParse(_:)`` reads what a person types as a price: digits and an optional
///   fraction, nothing else;
/// - ``format(_:)`` writes the canonical plain text the store keeps: every significant
///   digit, no exponent, no trailing fractional zeros;
/// - ``compare(_:_:)-(UnsafeRawBufferPointer,UnsafeRawBufferPointer)`` orders canonical texts
///   numerically, for the SQLite collation `DECIMAL`.
public enum DecimalText {
    /// The most significant digits a `Decimal` holds exactly.
    public static let maximumSignificantDigits = 38

    /// Parses strict decimal notation into the exact `Decimal` it denotes.
    ///
    /// The grammar is an optional sign (`-` or `+`), digits with an optional `.` and
    /// fraction digits (at least one digit in all, so `5.` and `.5` are accepted but `.` is
    /// not), then an optional exponent: `e` or `E`, an optional sign and digits. Nothing else
    /// is accepted: no spaces, no grouping separators, no `,` as decimal separator.
    ///
    /// `"19.99"` is exactly 1999 × 10⁻², `"-0"` is zero.
    ///
    /// - Throws: ``DecimalTextError`` naming the text and the reason when the text is not in
    ///   that grammar, has more than ``maximumSignificantDigits`` significant digits, or
    ///   denotes a value whose exponent is outside `Decimal`'s range (10⁻¹²⁸ to 10¹²⁷ times
    ///   the significand).
    public static func parse(_ text: String) throws(DecimalTextError) -> Decimal {
        try parse(text, allowingExponent: true)
    }

    /// Parses UTF-8 `bytes` as ``parse(_:)`` does, without making a `String` first (a fetch
    /// reads each price from SQLite's buffer); nil where ``parse(_:)`` throws.
    package static func parse(bytes: UnsafeRawBufferPointer) -> Decimal? {
        guard case .success(let parts) = scan(bytes, allowingExponent: true) else { return nil }
        return parts.decimal
    }

    /// Parses a price as a person types it: optional leading `-`, digits, optional `.` and
    /// fraction digits. No `+`, no exponent, nothing else; callers decide whether negative
    /// values are allowed.
    ///
    /// - Throws: ``DecimalTextError`` naming the text and the reason, as ``parse(_:)`` does.
    public static func plainParse(_ text: String) throws(DecimalTextError) -> Decimal {
        try parse(text, allowingExponent: false)
    }

    /// The canonical plain text of `value`: `-` for negative values, every significant
    /// digit, a `.` only when there is a fraction, no exponent and no trailing zeros in the
    /// fraction.
    ///
    /// `12.990` → `"12.99"`, `1E+3` → `"1000"`, `1E-5` → `"0.00001"`, negative zero → `"0"`.
    /// A 38-digit value comes back with all 38 digits, and ``parse(_:)`` of the result gives
    /// the same value. NaN formats as `"NaN"`, which no parser here accepts.
    public static func format(_ value: Decimal) -> String {
        guard let parts = DecimalParts(value) else { return "NaN" }
        return parts.plainText
    }

    /// Compares two canonical plain decimal texts given as UTF-8 bytes, numerically.
    ///
    /// This is the comparison of the SQLite collation `DECIMAL`: it allocates nothing and
    /// accepts what ``format(_:)`` writes (an optional `-`, digits, an optional `.` and
    /// digits; leading and trailing zeros are tolerated). Any other text sorts after every
    /// number, and such texts compare bytewise among themselves.
    ///
    /// - Returns: A negative value when `a` sorts first, 0 when they are equal numbers (or
    ///   identical other texts), a positive value when `b` sorts first.
    public static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int32 {
        let left = PlainDecimalText(a)
        let right = PlainDecimalText(b)
        switch (left, right) {
        case (let left?, let right?):
            return PlainDecimalText.compare(left, right, a, b)
        case (nil, .some):
            return 1
        case (.some, nil):
            return -1
        case (nil, nil):
            return compareBytes(a, b)
        }
    }

    /// Compares two decimals by value.
    public static func compare(_ a: Decimal, _ b: Decimal) -> ComparisonResult {
        if a < b { return .orderedAscending }
        if b < a { return .orderedDescending }
        return .orderedSame
    }

    /// ``format(_:)`` through Foundation's `description` instead of the `Decimal` memory
    /// layout: the exact fallback taken if that layout ever changes. Exposed for tests.
    package static func formatWithoutLayout(_ value: Decimal) -> String {
        guard let parts = DecimalParts(value, readingLayout: false) else { return "NaN" }
        return parts.plainText
    }

    /// Whether ``format(_:)`` reads `Decimal`'s memory directly (the fast path) rather than
    /// its description; false would mean Foundation changed the layout. Exposed for tests.
    package static var readsDecimalLayout: Bool { DecimalLayout.isKnown }

    // MARK: - Parsing

    /// Parses `text`; `allowingExponent` selects between ``parse(_:)`` and
    /// ``plainParse(_:)``.
    private static func parse(
        _ text: String, allowingExponent: Bool
    ) throws(DecimalTextError) -> Decimal {
        var scanned: DecimalScan<DecimalParts> = .failure(.empty)
        var copy = text
        copy.withUTF8 { bytes in
            scanned = scan(UnsafeRawBufferPointer(bytes), allowingExponent: allowingExponent)
        }
        switch scanned {
        case .success(let parts):
            return parts.decimal
        case .failure(let reason):
            throw DecimalTextError(text: text, reason: reason)
        }
    }

    /// Reads the digits, point and exponent of `bytes` into sign, significand and exponent.
    fileprivate static func scan(
        _ bytes: UnsafeRawBufferPointer, allowingExponent: Bool,
        digitLimit: Int = maximumSignificantDigits
    ) -> DecimalScan<DecimalParts> {
        let count = bytes.count
        guard count > 0 else { return .failure(.empty) }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || (allowingExponent && bytes[0] == UInt8(ascii: "+")) {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var digits = DigitAccumulator(limit: digitLimit)
        var sawDigit = false
        var sawPoint = false
        var fractionDigits = 0
        while index < count {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                sawDigit = true
                if sawPoint { fractionDigits += 1 }
                digits.append(byte &- 0x30)
            } else if byte == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else {
            return .failure(index == count ? .noDigits : .unexpectedCharacter(offset: index))
        }
        var exponent = 0
        if index < count {
            let byte = bytes[index]
            guard allowingExponent, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else {
                return .failure(.unexpectedCharacter(offset: index))
            }
            index += 1
            var exponentNegative = false
            if index < count,
                bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
            {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count else { return .failure(.exponentWithoutDigits) }
            while index < count {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return .failure(.unexpectedCharacter(offset: index)) }
                // Saturate: any exponent this large is out of range unless the value is 0.
                exponent = min(exponent * 10 + Int(digit), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard digits.count <= digitLimit else {
            return .failure(.tooManyDigits(digits.count))
        }
        guard digits.count > 0 else { return .success(DecimalParts.zero) }
        let finalExponent = exponent - fractionDigits + digits.pendingZeros
        guard DecimalParts.exponentRange.contains(finalExponent) else {
            return .failure(.outOfRange)
        }
        return .success(
            DecimalParts(
                negative: negative, magnitude: digits.magnitude, exponent: finalExponent))
    }

    /// Compares byte strings lexicographically, a proper prefix first.
    private static func compareBytes(
        _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer
    ) -> Int32 {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let order = memcmp(left, right, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

// MARK: - Errors

/// Text that ``DecimalText`` refused, and why.
///
/// The description names the text and the reason, for example
/// `'19,99' is not a decimal number: unexpected ',' at position 3`.
public struct DecimalTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why a text is not an exact decimal number.
    public enum Reason: Equatable, Sendable {
        /// The text is empty.
        case empty
        /// A character that the grammar does not allow, at this UTF-8 byte offset.
        case unexpectedCharacter(offset: Int)
        /// Only a sign or a point, no digit.
        case noDigits
        /// An `e` or `E` with no digits after it.
        case exponentWithoutDigits
        /// More significant digits than a `Decimal` holds exactly (38).
        case tooManyDigits(Int)
        /// The value's exponent is outside `Decimal`'s range.
        case outOfRange
    }

    /// The text that was refused.
    public let text: String
    /// Why it was refused.
    public let reason: Reason

    /// Creates an error for `text`.
    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    /// A sentence naming the text and the reason.
    public var description: String {
        switch reason {
        case .empty:
            return "'' is not a decimal number: the text is empty"
        case .unexpectedCharacter(let offset):
            let prefix = text.utf8.prefix(offset)
            let position = (String(decoding: prefix, as: UTF8.self).unicodeScalars.count) + 1
            let rest = String(decoding: text.utf8.dropFirst(offset), as: UTF8.self)
            let character = rest.unicodeScalars.first.map { QuotedText.forMessage(String($0)) } ?? ""
            return "'\(QuotedText.excerpt(text))' is not a decimal number: unexpected '\(character)' at position "
                + "\(position)"
        case .noDigits:
            return "'\(QuotedText.excerpt(text))' is not a decimal number: it has no digits"
        case .exponentWithoutDigits:
            return "'\(QuotedText.excerpt(text))' is not a decimal number: the exponent has no digits"
        case .tooManyDigits(let count):
            return "'\(QuotedText.excerpt(text))' has \(count) significant digits, more than the "
                + "\(DecimalText.maximumSignificantDigits) a Decimal holds exactly"
        case .outOfRange:
            return "'\(QuotedText.excerpt(text))' is out of Decimal's range"
        }
    }
}

// MARK: - Sign, significand and exponent

/// The outcome of reading text: a value, or why there is none. (`Result` would require the
/// reason to be an `Error` itself.)
private enum DecimalScan<Value> {
    case success(Value)
    case failure(DecimalTextError.Reason)
}

/// A finite decimal as sign, 128-bit significand and exponent: the exact meeting point of
/// text and `Decimal`.
private struct DecimalParts {
    /// The exponents a `Decimal` can hold.
    static let exponentRange = -128...127

    static let zero = DecimalParts(negative: false, magnitude: DecimalMagnitude(), exponent: 0)

    var negative: Bool
    var magnitude: DecimalMagnitude
    var exponent: Int

    init(negative: Bool, magnitude: DecimalMagnitude, exponent: Int) {
        self.negative = negative && !magnitude.isZero
        self.magnitude = magnitude
        self.exponent = magnitude.isZero ? 0 : exponent
    }

    /// The parts of `value`, or nil for NaN; from `value`'s memory when `readingLayout` and
    /// the layout is the known one, else from its description.
    init?(_ value: Decimal, readingLayout: Bool = true) {
        if value.isNaN { return nil }
        if readingLayout, let raw = DecimalLayout.parts(of: value) {
            self = raw
        } else {
            // Foundation's own text is exact (no exponent, every digit), only slow.
            let text = value.description
            var copy = text
            // It has up to 39 significant digits (any 128-bit significand), no exponent.
            let scanned = copy.withUTF8 { bytes in
                DecimalText.scan(
                    UnsafeRawBufferPointer(bytes), allowingExponent: false,
                    digitLimit: 39)
            }
            guard case .success(let parts) = scanned else { return nil }
            self = parts
        }
        // A value that is not compact may carry trailing zeros in its significand.
        while !magnitude.isZero && magnitude.remainder(dividingBy: 10) == 0 {
            _ = magnitude.divide(by: 10)
            exponent += 1
        }
    }

    /// The exact `Decimal`, built from integer pieces (never through `Double`).
    var decimal: Decimal {
        if magnitude.isZero { return Decimal() }
        var quotient = magnitude
        let significand: Decimal
        if quotient.high == 0 {
            significand = Decimal(quotient.low)
        } else {
            // Below 10^38, so the quotient by 10^19 fits in 64 bits; the product and sum fit
            // in Decimal's 128-bit significand and are exact.
            let remainder = quotient.divide(by: DecimalMagnitude.tenToThe19)
            significand =
                Decimal(quotient.low) * Decimal(DecimalMagnitude.tenToThe19)
                + Decimal(remainder)
        }
        return Decimal(
            sign: negative ? .minus : .plus, exponent: exponent,
            significand: significand)
    }

    /// The canonical plain text: see ``DecimalText/format(_:)``.
    var plainText: String {
        if magnitude.isZero { return "0" }
        // At most 39 digits for a 128-bit significand, filled from the right.
        var digitBuffer: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digitBuffer) { digits in
            var start = digits.count
            var rest = magnitude
            while !rest.isZero {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: rest.divide(by: 10)) &+ 0x30
            }
            let digitCount = digits.count - start
            let fractionCount = max(0, -exponent)
            let integerCount = digitCount - fractionCount
            var length = (negative ? 1 : 0) + max(integerCount, 1) + max(exponent, 0)
            if fractionCount > 0 { length += 1 + fractionCount }
            return String(unsafeUninitializedCapacity: length) { output in
                var written = 0
                func put(_ byte: UInt8) {
                    output[written] = byte
                    written += 1
                }
                if negative { put(UInt8(ascii: "-")) }
                if integerCount > 0 {
                    for offset in 0..<integerCount { put(digits[start + offset]) }
                    for _ in 0..<max(exponent, 0) { put(UInt8(ascii: "0")) }
                } else {
                    put(UInt8(ascii: "0"))
                }
                if fractionCount > 0 {
                    put(UInt8(ascii: "."))
                    for _ in 0..<max(0, -integerCount) { put(UInt8(ascii: "0")) }
                    for offset in max(0, integerCount)..<digitCount {
                        put(digits[start + offset])
                    }
                }
                return written
            }
        }
    }
}

/// Digits being read: significant digits so far, with zeros after the last non-zero digit
/// held back so that they become exponent rather than significand.
private struct DigitAccumulator {
    /// Significant digits read, from the first non-zero digit to the last non-zero digit.
    private(set) var count = 0
    /// Zeros read since the last non-zero digit.
    private(set) var pendingZeros = 0
    /// The significant digits as an integer, while there are at most `limit` of them.
    private(set) var magnitude = DecimalMagnitude()
    /// The most digits to accumulate: 38, or 39 for Foundation's own text, whose values
    /// always fit in 128 bits.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Appends one digit (0–9).
    mutating func append(_ digit: UInt8) {
        if digit == 0 {
            if count > 0 { pendingZeros += 1 }
            return
        }
        count += pendingZeros + 1
        if count <= limit {
            for _ in 0..<pendingZeros { magnitude.multiply(by: 10, adding: 0) }
            magnitude.multiply(by: 10, adding: UInt64(digit))
        }
        pendingZeros = 0
    }
}

/// An unsigned 128-bit integer as two 64-bit halves (portable: no `UInt128`).
private struct DecimalMagnitude {
    static let tenToThe19: UInt64 = 10_000_000_000_000_000_000

    var high: UInt64 = 0
    var low: UInt64 = 0

    var isZero: Bool { high == 0 && low == 0 }

    /// self = self × factor + addend. The caller guarantees the result fits in 128 bits.
    mutating func multiply(by factor: UInt64, adding addend: UInt64) {
        let (lowCarry, lowProduct) = low.multipliedFullWidth(by: factor)
        let (sum, overflow) = lowProduct.addingReportingOverflow(addend)
        low = sum
        high = high &* factor &+ lowCarry &+ (overflow ? 1 : 0)
    }

    /// self = self / divisor; returns the remainder.
    mutating func divide(by divisor: UInt64) -> UInt64 {
        let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: divisor)
        let (lowQuotient, remainder) = divisor.dividingFullWidth((highRemainder, low))
        high = highQuotient
        low = lowQuotient
        return remainder
    }

    /// self % divisor.
    func remainder(dividingBy divisor: UInt64) -> UInt64 {
        var copy = self
        return copy.divide(by: divisor)
    }
}

// MARK: - Reading a Decimal's significand

/// Reads sign, exponent and significand straight from a `Decimal`'s memory.
///
/// Foundation on Linux makes the fields of `Decimal` internal, and its only public way to
/// the digits, `description`, builds a string per value. The layout of swift-foundation's
/// `Decimal` is 8 bits of exponent, 4 bits of length (high nibble), a sign bit and a compact
/// bit, 18 reserved bits, then eight 16-bit words of significand, least significant first.
/// It is verified once against known values; if it ever differs, ``parts(of:)`` returns nil
/// and callers take the slow, exact `description` path instead.
private enum DecimalLayout {
    /// Whether this process's `Decimal` has the layout described above.
    static let isKnown: Bool = {
        guard MemoryLayout<Decimal>.size == 20 else { return false }
        // 0x0004_0003_0002_0001 = 1125912791875585: four distinct 16-bit words.
        let probe = Decimal(
            sign: .minus, exponent: -3,
            significand: Decimal(UInt64(0x0004_0003_0002_0001)))
        guard let parts = read(probe), parts.negative, parts.exponent == -3,
            parts.magnitude.high == 0, parts.magnitude.low == 0x0004_0003_0002_0001
        else { return false }
        let positive = Decimal(sign: .plus, exponent: 5, significand: Decimal(UInt64(7)))
        guard let other = read(positive), !other.negative, other.exponent == 5,
            other.magnitude.low == 7, other.magnitude.high == 0
        else { return false }
        return true
    }()

    /// The parts of a finite `value`, or nil when the layout is not the known one.
    static func parts(of value: Decimal) -> DecimalParts? {
        isKnown ? read(value) : nil
    }

    /// Reads `value` assuming the known layout.
    private static func read(_ value: Decimal) -> DecimalParts? {
        withUnsafeBytes(of: value) { raw -> DecimalParts? in
            guard raw.count >= 20 else { return nil }
            let exponent = Int(Int8(bitPattern: raw[0]))
            let length = Int(raw[1] >> 4)
            let negative = raw[1] & 0x08 != 0
            guard length <= 8 else { return nil }
            var magnitude = DecimalMagnitude()
            for index in 0..<length {
                let word = UInt64(raw[4 + 2 * index]) | UInt64(raw[5 + 2 * index]) << 8
                if index < 4 {
                    magnitude.low |= word << UInt64(16 * index)
                } else {
                    magnitude.high |= word << UInt64(16 * (index - 4))
                }
            }
            return DecimalParts(negative: negative, magnitude: magnitude, exponent: exponent)
        }
    }
}

// MARK: - Comparing plain texts

/// A plain decimal text located in a byte buffer: sign, integer digits without leading
/// zeros, fraction digits without trailing zeros.
private struct PlainDecimalText {
    var negative: Bool
    var integer: Range<Int>
    var fraction: Range<Int>

    var isZero: Bool { integer.isEmpty && fraction.isEmpty }

    /// Locates the parts of `bytes`, or nil when it is not `-?[0-9]*(\.[0-9]*)?` with at
    /// least one digit. Inlined: the DECIMAL collation locates both sides of every
    /// comparison a filter or sort on a Decimal makes.
    @inline(__always)
    init?(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        var index = 0
        negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let integerStart = index
        while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
        let integerEnd = index
        var fractionStart = index
        var fractionEnd = index
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
            fractionEnd = index
        }
        guard index == count, integerEnd > integerStart || fractionEnd > fractionStart else {
            return nil
        }
        var first = integerStart
        while first < integerEnd, bytes[first] == UInt8(ascii: "0") { first += 1 }
        var last = fractionEnd
        while last > fractionStart, bytes[last - 1] == UInt8(ascii: "0") { last -= 1 }
        integer = first..<integerEnd
        fraction = fractionStart..<last
    }

    /// Numeric order of two located numbers.
    package static func compare(
        _ a: PlainDecimalText, _ b: PlainDecimalText,
        _ aBytes: UnsafeRawBufferPointer, _ bBytes: UnsafeRawBufferPointer
    ) -> Int32 {
        let aSign: Int32 = a.isZero ? 0 : (a.negative ? -1 : 1)
        let bSign: Int32 = b.isZero ? 0 : (b.negative ? -1 : 1)
        if aSign != bSign { return aSign < bSign ? -1 : 1 }
        if aSign == 0 { return 0 }
        let magnitudeOrder = compareMagnitudes(a, b, aBytes, bBytes)
        return aSign < 0 ? -magnitudeOrder : magnitudeOrder
    }

    private static func compareMagnitudes(
        _ a: PlainDecimalText, _ b: PlainDecimalText,
        _ aBytes: UnsafeRawBufferPointer, _ bBytes: UnsafeRawBufferPointer
    ) -> Int32 {
        if a.integer.count != b.integer.count { return a.integer.count < b.integer.count ? -1 : 1 }
        for offset in 0..<a.integer.count {
            let left = aBytes[a.integer.lowerBound + offset]
            let right = bBytes[b.integer.lowerBound + offset]
            if left != right { return left < right ? -1 : 1 }
        }
        let common = min(a.fraction.count, b.fraction.count)
        for offset in 0..<common {
            let left = aBytes[a.fraction.lowerBound + offset]
            let right = bBytes[b.fraction.lowerBound + offset]
            if left != right { return left < right ? -1 : 1 }
        }
        // Trailing zeros are trimmed, so the longer fraction has a non-zero digit left.
        if a.fraction.count == b.fraction.count { return 0 }
        return a.fraction.count < b.fraction.count ? -1 : 1
    }
}
