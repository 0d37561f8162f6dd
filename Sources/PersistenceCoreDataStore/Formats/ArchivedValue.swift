import Foundation
import PersistenceModel

/// A value decoded from a keyed archive: Foundation's property-list classes as Swift
/// values, and any other class as an `ArchivedObject`.
///
/// The classes and what they become: `NSString`/`NSMutableString` → `string`; `NSNumber`
/// (stored inline) → `integer`, `unsignedInteger`, `real` or `bool`; `NSData`/`NSMutableData`
/// → `data`; `NSDate` → `date`; `NSUUID` → `uuid`; `NSURL` → `url` (relative to its base
/// when it has one); `NSArray`/`NSMutableArray` → `array`; `NSSet`/`NSMutableSet` → `set`;
/// `NSDictionary`/`NSMutableDictionary` → `dictionary`; `NSNull` and `$null` → `null`.
public indirect enum ArchivedValue: Sendable, Hashable {
    /// `NSNull`, or the archive's `$null` (a nil reference).
    case null
    /// An `NSString`.
    case string(String)
    /// An integer `NSNumber`.
    case integer(Int64)
    /// An integer `NSNumber` above `Int64.max`.
    case unsignedInteger(UInt64)
    /// A floating-point `NSNumber`.
    case real(Double)
    /// A Boolean `NSNumber`.
    case bool(Bool)
    /// An `NSData`.
    case data(Data)
    /// An `NSDate`.
    case date(Date)
    /// An `NSUUID`.
    case uuid(UUID)
    /// An `NSURL`.
    case url(URL)
    /// An `NSArray`.
    case array([ArchivedValue])
    /// An `NSSet`, in the order archived.
    case set([ArchivedValue])
    /// An `NSDictionary`.
    case dictionary([ArchivedValue: ArchivedValue])
    /// An object of any other class, with its fields as archived.
    case object(ArchivedObject)

    /// The value as a Foundation or Swift value: `String`, `Int64`, `UInt64`, `Double`,
    /// `Bool`, `Data`, `Date`, `UUID`, `URL`, `[Any]`, `[AnyHashable: Any]` (keys as their
    /// `foundationValue`), `NSNull` for null, and the `ArchivedObject` itself for an object.
    public var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .string(let text): return text
        case .integer(let number): return number
        case .unsignedInteger(let number): return number
        case .real(let number): return number
        case .bool(let flag): return flag
        case .data(let bytes): return bytes
        case .date(let date): return date
        case .uuid(let uuid): return uuid
        case .url(let url): return url
        case .array(let elements), .set(let elements): return elements.map(\.foundationValue)
        case .dictionary(let entries):
            var result: [AnyHashable: Any] = [:]
            for (key, value) in entries {
                result[(key.foundationValue as? AnyHashable) ?? AnyHashable(key)] =
                    value.foundationValue
            }
            return result
        case .object(let object): return object
        }
    }
}

/// An archived object of a class that is not one of Foundation's property-list classes: its
/// class and superclasses as archived, and its fields as stored.
///
/// A field that refers to another object holds `.uid(n)`; `KeyedArchive.decodeField(_:of:)`
/// decodes it. Transformers registered under the class name (see
/// `KeyedArchive.transformedValue(from:)`) decode such objects into app values.
public struct ArchivedObject: Sendable, Hashable {
    /// The object's number in the archive's `$objects`.
    public var uid: UInt64
    /// The class chain, most specific first: `["UIColor", "NSObject"]`.
    public var classNames: [String]
    /// The fields the object encoded, by key, as stored (references as `.uid`).
    public var fields: [String: PropertyListValue]

    /// Creates an object description.
    public init(uid: UInt64 = 0, classNames: [String], fields: [String: PropertyListValue]) {
        self.uid = uid
        self.classNames = classNames
        self.fields = fields
    }

    /// The object's class name, the first of `classNames`.
    public var className: String { classNames.first ?? "" }
}

/// An archived object (one nested in a property-list value too) is taken by the untyped
/// setters of transformable attributes.
extension ArchivedObject: TransformableValue {}
