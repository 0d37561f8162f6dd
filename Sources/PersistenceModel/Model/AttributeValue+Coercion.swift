import Foundation

extension AttributeValue {
    /// Converts a Swift value into the attribute's value, checking its type.
    ///
    /// Integers of any width fit integer attributes (their range is checked at save, with
    /// the other validation rules); integers also fit Double, Float and Decimal attributes.
    /// A Double is refused for a Decimal attribute, because it would lose digits: pass a
    /// `Decimal` parsed from text. A transformable attribute takes a value passed as `Any` only
    /// when its type shows that it is Sendable (see `SendableProof`); a typed setter passes
    /// it through `coerce(sendable:to:)` instead.
    ///
    /// - Throws: a `String` reason, wrapped by the caller into `ObjectAccessError`.
    package static func coerce(_ value: Any?, to attribute: AttributeDescription) throws(CoercionFailure) -> AttributeValue {
        guard let value, !(value is NSNull) else { return .null }
        if let already = value as? AttributeValue {
            if already.isNull { return .null }
            if case .transformable = already, attribute.type == .transformable { return already }
            return try coerce(already.anyValue, to: attribute)
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            if let v = integer(value) { return .integer(v) }
        case .double, .float:
            var number: Double?
            if let v = value as? Double { number = v } else if let v = value as? Float { number = Double(v) } else if let v = integer(value) { number = Double(v) }
            if let number { return .double(attribute.type == .float ? Double(Float(number)) : number) }
        case .decimal:
            if let v = value as? Decimal { return .decimal(v) }
            if let v = integer(value) { return .decimal(Decimal(v)) }
            if value is Double || value is Float {
                throw CoercionFailure("a Double would lose digits in a Decimal attribute; pass a Decimal")
            }
        case .boolean:
            if let v = value as? Bool { return .bool(v) }
        case .string:
            if let v = value as? String { return .string(v) }
            if let v = value as? Substring { return .string(String(v)) }
        case .date:
            if let v = value as? Date { return .date(v) }
        case .uuid:
            if let v = value as? UUID { return .uuid(v) }
        case .uri:
            if let v = value as? URL { return .url(v) }
        case .binaryData:
            if let v = value as? Data { return .data(v) }
            if let v = value as? [UInt8] { return .data(Data(v)) }
        case .transformable:
            guard let sendable = SendableProof.sendable(value) else {
                throw CoercionFailure(
                    "a \(type(of: value)) passed as Any can't be shown to be Sendable; set it with "
                        + "setTransformableValue(_:forKey:), which has the compiler check it, or conform "
                        + "\(type(of: value)) to TransformableValue")
            }
            return .transformable(sendable)
        case .objectID, .undefined:
            throw CoercionFailure("the attribute's type \(attribute.type.rawValue) holds no values")
        }
        throw CoercionFailure("expected \(Self.expectedKind(attribute.type)), got \(type(of: value))")
    }

    /// Converts a value whose type the compiler checked for `Sendable` into the attribute's
    /// value: for a transformable attribute the value as it is (nil, `NSNull` and `.null` are
    /// no value), for any other the checks of `coerce(_:to:)`.
    ///
    /// - Throws: a `String` reason, wrapped by the caller into `ObjectAccessError`.
    package static func coerce(sendable value: (any Sendable)?, to attribute: AttributeDescription) throws(CoercionFailure) -> AttributeValue {
        guard attribute.type == .transformable, let value else { return try coerce(value as Any?, to: attribute) }
        if value is NSNull { return .null }
        if let already = value as? AttributeValue {
            if already.isNull { return .null }
            if case .transformable = already { return already }
            return try coerce(already as Any?, to: attribute)
        }
        // A nil of an optional type boxed as `any Sendable` (a generic `T?` with `T` itself
        // optional) is no value.
        if let optional = value as? any OptionalValue, optional.isNone { return .null }
        return .transformable(value)
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let v as Int: return Int64(v)
        case let v as Int64: return v
        case let v as Int32: return Int64(v)
        case let v as Int16: return Int64(v)
        case let v as Int8: return Int64(v)
        case let v as UInt8: return Int64(v)
        case let v as UInt16: return Int64(v)
        case let v as UInt32: return Int64(v)
        case let v as UInt: return Int64(exactly: v)
        case let v as UInt64: return Int64(exactly: v)
        default: return nil
        }
    }

    private static func expectedKind(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64: return "an integer"
        case .double, .float: return "a number"
        case .decimal: return "a Decimal"
        case .boolean: return "a Bool"
        case .string: return "a String"
        case .date: return "a Date"
        case .uuid: return "a UUID"
        case .uri: return "a URL"
        case .binaryData: return "Data"
        case .transformable, .objectID, .undefined: return "a value"
        }
    }
}

/// An `Optional`, asked at run time whether it is nil: a generic `T?` whose `T` is itself
/// an optional (as when an `any Sendable` holding one is opened) may hold a nil inside.
package protocol OptionalValue { var isNone: Bool { get } }

extension Optional: OptionalValue {
    package var isNone: Bool { self == nil }
}

/// Why a value does not fit an attribute.
package struct CoercionFailure: Error {
    package let reason: String
    init(_ reason: String) { self.reason = reason }
}
