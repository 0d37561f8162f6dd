import Foundation
import PersistenceModel

/// A Swift type whose values an attribute of one type holds as they are, so that a typed
/// setter stores them without going through `Any` (see
/// `ManagedObject.setAttribute(_:forKey:at:)`).
///
/// Each conforming type names the one attribute type it matches exactly (`String` a String
/// attribute, `Int16` an Integer 16 one, `Float` a Float one); any other pairing goes through
/// the checked, coercing path of `setValue(_:forKey:)`.
public protocol AttributeValueStorable: AttributeValueConvertible {
    /// The attribute type that holds this type's values unchanged.
    static var storedAttributeType: AttributeType { get }
    /// The value as an attribute of `storedAttributeType` holds it.
    var storedAttributeValue: AttributeValue { get }
}

extension String: AttributeValueStorable {
    /// String attributes.
    @inlinable public static var storedAttributeType: AttributeType { .string }
    /// `.string(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .string(self) }
}

extension Int64: AttributeValueStorable {
    /// Integer 64 attributes.
    @inlinable public static var storedAttributeType: AttributeType { .integer64 }
    /// `.integer(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .integer(self) }
}

extension Int32: AttributeValueStorable {
    /// Integer 32 attributes.
    @inlinable public static var storedAttributeType: AttributeType { .integer32 }
    /// `.integer(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Int16: AttributeValueStorable {
    /// Integer 16 attributes.
    @inlinable public static var storedAttributeType: AttributeType { .integer16 }
    /// `.integer(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .integer(Int64(self)) }
}

extension Double: AttributeValueStorable {
    /// Double attributes.
    @inlinable public static var storedAttributeType: AttributeType { .double }
    /// `.double(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .double(self) }
}

extension Float: AttributeValueStorable {
    /// Float attributes.
    @inlinable public static var storedAttributeType: AttributeType { .float }
    /// `.double(self)`, exactly the Float's value.
    @inlinable public var storedAttributeValue: AttributeValue { .double(Double(self)) }
}

extension Bool: AttributeValueStorable {
    /// Boolean attributes.
    @inlinable public static var storedAttributeType: AttributeType { .boolean }
    /// `.bool(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .bool(self) }
}

extension Decimal: AttributeValueStorable {
    /// Decimal attributes.
    @inlinable public static var storedAttributeType: AttributeType { .decimal }
    /// `.decimal(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .decimal(self) }
}

extension Date: AttributeValueStorable {
    /// Date attributes.
    @inlinable public static var storedAttributeType: AttributeType { .date }
    /// `.date(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .date(self) }
}

extension UUID: AttributeValueStorable {
    /// UUID attributes.
    @inlinable public static var storedAttributeType: AttributeType { .uuid }
    /// `.uuid(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .uuid(self) }
}

extension URL: AttributeValueStorable {
    /// URI attributes.
    @inlinable public static var storedAttributeType: AttributeType { .uri }
    /// `.url(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .url(self) }
}

extension Data: AttributeValueStorable {
    /// Binary Data attributes.
    @inlinable public static var storedAttributeType: AttributeType { .binaryData }
    /// `.data(self)`.
    @inlinable public var storedAttributeValue: AttributeValue { .data(self) }
}
