import Foundation

/// One value of a property list, as a binary property list holds it.
///
/// `BinaryPropertyList` reads and writes these. Dictionaries have string keys (the only keys
/// Core Data and `NSKeyedArchiver` write); `uid` is the object reference of keyed archives.
/// Integers are 64-bit: a 128-bit integer is read when it fits in `Int64` or `UInt64` and
/// refused otherwise.
public indirect enum PropertyListValue: Sendable, Hashable {
    /// The null object (`0x00`); fill bytes (`0x0F`) read as null too.
    case null
    /// A Boolean.
    case bool(Bool)
    /// A signed integer.
    case integer(Int64)
    /// An unsigned integer above `Int64.max` (written as a 128-bit integer).
    case unsignedInteger(UInt64)
    /// A floating-point number (4-byte reals are widened).
    case real(Double)
    /// A date, stored as seconds since 2001-01-01 00:00:00 UTC.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([PropertyListValue])
    /// A set, in the order stored.
    case set([PropertyListValue])
    /// A dictionary with string keys.
    case dictionary([String: PropertyListValue])
    /// A keyed archive's reference to an object in its `$objects`.
    case uid(UInt64)

    // MARK: - Reading

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, if this is an integer that fits in `Int64`.
    public var integerValue: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The bytes, if this is data.
    public var dataValue: Data? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries, if this is a dictionary.
    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    /// The referenced object's index, if this is a UID.
    public var uidValue: UInt64? {
        if case .uid(let index) = self { return index }
        return nil
    }

    /// The kind of value with its article, for messages: "a string", "an array", "data".
    public var kindWithArticle: String {
        switch self {
        case .null, .data: return kindName
        case .integer, .unsignedInteger, .array: return "an \(kindName)"
        default: return "a \(kindName)"
        }
    }

    /// The kind of value, for messages: "string", "array", "UID".
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "Boolean"
        case .integer, .unsignedInteger: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .string: return "string"
        case .array: return "array"
        case .set: return "set"
        case .dictionary: return "dictionary"
        case .uid: return "UID"
        }
    }
}
