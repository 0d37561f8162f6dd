import Foundation

extension AttributeDescription {
    /// The default value, parsed from `defaultValueString` by the attribute type's rules, or
    /// `nil` when there is none or it does not parse (validation reports the latter).
    ///
    /// The rules, which are those of the text Xcode writes:
    /// - Integer 16/32/64: a whole number in the type's range (`-12`, `+7`).
    /// - Decimal: a decimal number, exactly, never through `Double` (`19.99`, `-1.5e3`).
    /// - Double, Float: a decimal number with an optional exponent, or `inf`, `infinity`
    ///   (either sign, any case) for an infinity; NaN and hexadecimal forms are refused.
    ///   A Float must lie within Float's range and is rounded to Float precision.
    /// - Boolean: `YES`, `NO`, `true`, `false`, `1` or `0`.
    /// - Date: seconds since 2001-01-01 00:00:00 UTC, as Xcode writes
    ///   `defaultDateTimeInterval` (`0`, `-978307200`, `86400.5`).
    /// - UUID: the canonical 8-4-4-4-12 hexadecimal form.
    /// - URI: an absolute URI with a scheme (`https://example.com`).
    /// - String: the text as it is.
    /// - Binary, Transformable, ObjectID, Undefined: no default can be written.
    public var defaultValue: AttributeValue? {
        guard let text = defaultValueString else { return nil }
        return try? Self.modelValue(parsing: text, as: type)
    }

    /// Parses `text` as a value of `type` by the rules `defaultValue` lists.
    ///
    /// - Throws: `ModelValueTextError` saying why the text is not a value of the type.
    package static func modelValue(
        parsing text: String, as type: AttributeType
    ) throws(ModelValueTextError) -> AttributeValue {
        switch type {
        case .integer16, .integer32, .integer64:
            guard let value = Int64(text) else {
                throw ModelValueTextError(
                    "'\(text)' is not a whole number within \(type.rawValue)'s range")
            }
            if let range = type.integerRange, !range.contains(value) {
                throw ModelValueTextError(
                    "\(value) is outside \(type.rawValue)'s range "
                        + "\(range.lowerBound)…\(range.upperBound)")
            }
            return .integer(value)
        case .decimal:
            do {
                return .decimal(try DecimalText.parse(text))
            } catch {
                throw ModelValueTextError("'\(text)' is not a decimal number")
            }
        case .double:
            return .double(try floatingPoint(text, type: type))
        case .float:
            let value = try floatingPoint(text, type: type)
            guard value.isInfinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
                throw ModelValueTextError("'\(text)' is outside Float's range")
            }
            return .double(Double(Float(value)))
        case .boolean:
            switch text {
            case "YES", "true", "1": return .bool(true)
            case "NO", "false", "0": return .bool(false)
            default:
                throw ModelValueTextError(
                    "'\(text)' is not a Boolean (YES, NO, true, false, 1 or 0)")
            }
        case .date:
            guard let seconds = finiteNumber(text) else {
                throw ModelValueTextError(
                    "'\(text)' is not a date as seconds since 2001-01-01 (a finite number)")
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            guard let uuid = UUID(uuidString: text) else {
                throw ModelValueTextError("'\(text)' is not a UUID")
            }
            return .uuid(uuid)
        case .uri:
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
                throw ModelValueTextError("'\(text)' is not an absolute URI with a scheme")
            }
            return .url(url)
        case .string:
            return .string(text)
        case .binaryData, .transformable, .objectID, .undefined:
            throw ModelValueTextError("\(type.rawValue) attributes can't have a default value")
        }
    }

    /// A finite number in plain decimal notation with an optional exponent, or `nil`.
    package static func finiteNumber(_ text: String) -> Double? {
        guard isDecimalNotation(text), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static func floatingPoint(
        _ text: String, type: AttributeType
    ) throws(ModelValueTextError) -> Double {
        switch text.lowercased() {
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard let value = finiteNumber(text) else {
                throw ModelValueTextError("'\(text)' is not a number")
            }
            return value
        }
    }

    /// Whether `text` is `[+-]digits[.digits][(e|E)[+-]digits]` (digits on at least one side
    /// of the point). Swift's `Double(_:)` also takes `nan`, hex and padded forms; this does not.
    private static func isDecimalNotation(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            var count = 0
            while let first = scalars.first, ("0"..."9").contains(first) {
                scalars.removeFirst()
                count += 1
            }
            return count
        }
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars.removeFirst() }
        var mantissa = digits()
        if scalars.first == "." {
            scalars.removeFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = scalars.first, e == "e" || e == "E" {
            scalars.removeFirst()
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }
}

/// Text that is not a value of an attribute's type: why, as a sentence fragment.
package struct ModelValueTextError: Error, Sendable, CustomStringConvertible {
    /// Why the text is refused ("'abc' is not a whole number within Integer 16's range").
    package var reason: String

    /// Creates the error.
    package init(_ reason: String) { self.reason = reason }

    /// The reason.
    package var description: String { reason }
}
