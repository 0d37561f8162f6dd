import Foundation

/// A value of an attribute, as a managed object holds it and as the model states defaults.
///
/// Every attribute type maps to one case: the integer types to `integer` (range-checked by
/// the attribute), Double and Float to `double` (a Float is rounded to Float precision when
/// set), Decimal to `decimal` (exact, never through `Double`), Boolean to `bool`, String to
/// `string`, Date to `date`, UUID to `uuid`, URI to `url`, Binary to `data`, and
/// Transformable to `transformable` (the app's own value, encoded by a value transformer
/// or by `Codable` when stored). `null` is the absence of a value.
///
/// Sendable, checked by the compiler: every payload is a Sendable value, the transformable
/// one included (`any Sendable`), so a value may cross contexts, queues and stores (a merge
/// carries it from one context to another).
public enum AttributeValue: Sendable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case bool(Bool)
    case string(String)
    case date(Date)
    case uuid(UUID)
    case url(URL)
    case data(Data)
    /// An app value of a transformable attribute: any `Sendable` value, since a save, a
    /// merge or a store may carry it to another thread. Typed setters
    /// (`ManagedObject.setTransformableValue(_:forKey:)`, the generated properties) have the
    /// compiler check it; untyped ones (`object["key"] = value`) accept only values whose
    /// types show they are Sendable (see `ManagedObject.setValue(_:forKey:)`).
    ///
    /// Indirect, so that the app's value lives in a box of its own: an `any Sendable` inline
    /// is 32 bytes (as an `Any`: a marker protocol adds no witness table), which made every
    /// `AttributeValue` 40 bytes with its case; boxed, the widest payload is a `Decimal` (20
    /// bytes) and a value takes 24 (`FetchDecodeTests` checks the stride). An object keeps a
    /// value for every property of its entity, NULLs included.
    indirect case transformable(any Sendable)

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a plain Swift value (`Int64`, `Double`, `Decimal`, `Bool`, `String`,
    /// `Date`, `UUID`, `URL`, `Data`, or the transformable's own value), or `nil` for null.
    public var anyValue: Any? {
        switch self {
        case .null: return nil
        case .integer(let v): return v
        case .double(let v): return v
        case .decimal(let v): return v
        case .bool(let v): return v
        case .string(let v): return v
        case .date(let v): return v
        case .uuid(let v): return v
        case .url(let v): return v
        case .data(let v): return v
        case .transformable(let v): return v
        }
    }

    /// The name of the case's kind, for error messages ("a String", "a Date", …).
    public var kindDescription: String {
        switch self {
        case .null: return "nil"
        case .integer: return "an integer"
        case .double: return "a floating-point number"
        case .decimal: return "a Decimal"
        case .bool: return "a Boolean"
        case .string: return "a String"
        case .date: return "a Date"
        case .uuid: return "a UUID"
        case .url: return "a URL"
        case .data: return "Data"
        case .transformable(let v): return "a \(type(of: v))"
        }
    }
}

extension AttributeValue: Equatable {
    /// Values are equal when they are the same case with equal payloads. Two transformable
    /// values are equal when both are `Hashable` and equal as `AnyHashable`, or are the same
    /// class instance; otherwise they compare unequal (so setting one always counts as a
    /// change, as in Core Data).
    public static func == (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.decimal(let a), .decimal(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.url(let a), .url(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.transformable(let a), .transformable(let b)):
            if let a = a as? AnyHashable, let b = b as? AnyHashable { return a == b }
            // Instances of classes are the same value when they are the same instance; other
            // values that cannot be compared count as different (a change to save).
            if type(of: a) is AnyClass, type(of: b) is AnyClass { return (a as AnyObject) === (b as AnyObject) }
            return false
        default: return false
        }
    }
}

extension AttributeValue: CustomStringConvertible {
    /// The value as it reads in an error message: strings quoted, others plain.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let v): return String(v)
        case .double(let v): return String(v)
        case .decimal(let v): return "\(v)"
        case .bool(let v): return v ? "true" : "false"
        case .string(let v): return "\"\(v)\""
        case .date(let v): return "\(v)"
        case .uuid(let v): return v.uuidString
        case .url(let v): return v.absoluteString
        case .data(let v): return "<\(v.count) bytes>"
        case .transformable(let v): return "\(v)"
        }
    }
}
