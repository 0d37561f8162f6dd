import Foundation

/// A typed constant in a predicate's syntax tree: what a literal in the format string, a
/// `%@`/`%d`/`%f` argument, or a substituted `$variable` becomes.
///
/// Every case is a value the SQL compiler can bind as a parameter. Decimal literals written
/// in a format (`19.99`, `1e-3`) are kept exact as ``decimal(_:)``, built from their digits
/// and never through `Double`; `Double` and `Float` arguments stay ``double(_:)``.
public enum PredicateLiteral: Sendable, Hashable {
    /// `nil` / `NULL`, or a `nil`/`NSNull` argument.
    case null
    /// `TRUE`/`YES`, `FALSE`/`NO`, or a `Bool` argument.
    case bool(Bool)
    /// An integer literal or an integer argument of any width that fits in 64 bits.
    case integer(Int64)
    /// A `Double` or `Float` argument, or `CAST("1.5", "Double")`.
    case double(Double)
    /// A decimal literal (`19.99`, `1e3`), an integer too large for `Int64`, or a `Decimal`
    /// argument: always exact.
    case decimal(Decimal)
    /// A quoted string literal or a `String` argument.
    case string(String)
    /// A `Date` argument, or `CAST(<seconds since 2001-01-01>, "NSDate")`.
    case date(Date)
    /// A `UUID` argument, or `CAST("E621E1F8-…", "UUID")`.
    case uuid(UUID)
    /// A `URL` argument, or `CAST("https://…", "URL")`.
    case url(URL)
    /// A `Data` argument, or `CAST("<base64>", "Data")`.
    case data(Data)

    /// A short English name of the value's type with its article, for error messages
    /// (`an integer`, `a date`).
    public var typeDescription: String {
        switch self {
        case .null: "nil"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double: "a double"
        case .decimal: "a decimal"
        case .string: "a string"
        case .date: "a date"
        case .uuid: "a UUID"
        case .url: "a URL"
        case .data: "data"
        }
    }
}

// MARK: - Converting Swift values

/// The result of converting one Swift argument: a single literal or an array of them.
enum ConvertedArgument {
    case scalar(PredicateLiteral)
    case array([PredicateLiteral])
}

extension PredicateLiteral {
    /// The list of accepted argument types, for error messages.
    static let acceptedTypes =
        "String, Int (any width), Double, Float, Bool, Decimal, Date, UUID, URL, Data, nil"

    /// Converts a scalar Swift value, or returns `nil` when its type is not accepted.
    ///
    /// Optionals nested inside `Any` are unwrapped; `NSNull` is `.null`.
    package static func from(scalar value: Any?) -> PredicateLiteral? {
        guard let value = unwrapped(value) else { return .null }
        switch value {
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Bool: return .bool(v)
        case let v as Int: return .integer(Int64(v))
        case let v as Int8: return .integer(Int64(v))
        case let v as Int16: return .integer(Int64(v))
        case let v as Int32: return .integer(Int64(v))
        case let v as Int64: return .integer(v)
        case let v as UInt: return integerOrDecimal(v)
        case let v as UInt8: return .integer(Int64(v))
        case let v as UInt16: return .integer(Int64(v))
        case let v as UInt32: return .integer(Int64(v))
        case let v as UInt64: return integerOrDecimal(v)
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as Decimal: return .decimal(v)
        case let v as Date: return .date(v)
        case let v as UUID: return .uuid(v)
        case let v as URL: return .url(v)
        case let v as Data: return .data(v)
        case is NSNull: return .null
        default: return nil
        }
    }

    /// Converts a `%@` argument or a substitution value: a scalar, or an array (or set) of
    /// scalars for `IN %@`. Returns `nil` when the type (or an element's type) is not accepted.
    static func from(argument value: Any?) -> ConvertedArgument? {
        if let scalar = from(scalar: value) { return .scalar(scalar) }
        guard let value = unwrapped(value) else { return .scalar(.null) }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .collection || mirror.displayStyle == .set else {
            return nil
        }
        var elements: [PredicateLiteral] = []
        for child in mirror.children {
            guard let element = from(scalar: child.value) else { return nil }
            elements.append(element)
        }
        return .array(elements)
    }

    /// The dynamic type name of an argument, for error messages.
    package static func typeName(of value: Any?) -> String {
        guard let value = unwrapped(value) else { return "nil" }
        return String(describing: type(of: value))
    }

    /// Removes any level of `Optional` hidden inside an `Any`.
    package static func unwrapped(_ value: Any?) -> Any? {
        guard var current = value else { return nil }
        while true {
            let mirror = Mirror(reflecting: current)
            guard mirror.displayStyle == .optional else { return current }
            guard let child = mirror.children.first else { return nil }
            current = child.value
        }
    }

    private static func integerOrDecimal<T: BinaryInteger>(_ value: T) -> PredicateLiteral {
        if let small = Int64(exactly: value) { return .integer(small) }
        return .decimal(Decimal(string: String(value)) ?? Decimal(Int64.max))
    }
}

// MARK: - Exact decimal literals

extension PredicateLiteral {
    /// Builds an exact `Decimal` from a numeric literal's text (`-12.50`, `1e-3`, `7E+2`),
    /// digit by digit, never through `Double`.
    ///
    /// Returns `nil` when the text is malformed, has more than 38 significant digits, or its
    /// exponent is outside `Decimal`'s range.
    static func exactDecimal(from text: String) -> Decimal? {
        var scalars = Substring(text).unicodeScalars[...]
        var negative = false
        if scalars.first == "-" {
            negative = true
            scalars = scalars.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var seenDigit = false
        var inFraction = false
        while let c = scalars.first, c != "e", c != "E" {
            scalars = scalars.dropFirst()
            if c == ".", !inFraction {
                inFraction = true
            } else if (48...57).contains(c.value) {
                digits.append(UInt8(c.value - 48))
                seenDigit = true
                if inFraction { exponent -= 1 }
            } else {
                return nil
            }
        }
        guard seenDigit else { return nil }
        if !scalars.isEmpty {
            scalars = scalars.dropFirst()  // the "e"
            guard let written = Int(String(String.UnicodeScalarView(scalars))),
                abs(written) < 100_000
            else { return nil }
            exponent += written
        }
        // Normalise: drop leading zeros, move trailing zeros into the exponent.
        while digits.first == 0 { digits.removeFirst() }
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty { return Decimal(0) }
        guard digits.count <= 38 else { return nil }
        // Decimal's exponent is an Int8.
        guard (-128...127).contains(exponent) else { return nil }
        var significand = Decimal(0)
        for digit in digits {
            significand = significand * 10 + Decimal(Int(digit))
        }
        return Decimal(
            sign: negative ? .minus : .plus, exponent: exponent, significand: significand)
    }
}
