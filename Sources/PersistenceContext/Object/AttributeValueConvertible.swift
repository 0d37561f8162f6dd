import Foundation
import PersistenceModel

/// A Swift type that an attribute value converts to and from, for typed accessors in
/// `ManagedObject` subclasses.
public protocol AttributeValueConvertible {
    /// The value, if `attributeValue` holds one of this type.
    init?(attributeValue: AttributeValue)
}

extension String: AttributeValueConvertible {
    /// A string attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .string(let v) = attributeValue else { return nil }
        self = v
    }
}

extension Int: AttributeValueConvertible {
    /// An integer attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let v) = attributeValue, let i = Int(exactly: v) else { return nil }
        self = i
    }
}

extension Int64: AttributeValueConvertible {
    /// An integer attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let v) = attributeValue else { return nil }
        self = v
    }
}

extension Int32: AttributeValueConvertible {
    /// An Integer 32 attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let v) = attributeValue, let i = Int32(exactly: v) else { return nil }
        self = i
    }
}

extension Int16: AttributeValueConvertible {
    /// An Integer 16 attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let v) = attributeValue, let i = Int16(exactly: v) else { return nil }
        self = i
    }
}

extension Double: AttributeValueConvertible {
    /// A Double or Float attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .double(let v) = attributeValue else { return nil }
        self = v
    }
}

extension Float: AttributeValueConvertible {
    /// A Float attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .double(let v) = attributeValue else { return nil }
        self = Float(v)
    }
}

extension Bool: AttributeValueConvertible {
    /// A Boolean attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .bool(let v) = attributeValue else { return nil }
        self = v
    }
}

extension Decimal: AttributeValueConvertible {
    /// A Decimal attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .decimal(let v) = attributeValue else { return nil }
        self = v
    }
}

extension Date: AttributeValueConvertible {
    /// A Date attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .date(let v) = attributeValue else { return nil }
        self = v
    }
}

extension UUID: AttributeValueConvertible {
    /// A UUID attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let v) = attributeValue else { return nil }
        self = v
    }
}

extension URL: AttributeValueConvertible {
    /// A URI attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .url(let v) = attributeValue else { return nil }
        self = v
    }
}

extension Data: AttributeValueConvertible {
    /// A Binary attribute's value.
    public init?(attributeValue: AttributeValue) {
        guard case .data(let v) = attributeValue else { return nil }
        self = v
    }
}
