import Foundation

/// A type whose values the untyped setters (`object["color"] = color`,
/// `setValue(_:forKey:)`) take for a transformable attribute.
///
/// A transformable attribute's value must be `Sendable` (a save or a merge carries it to
/// another thread), and Swift cannot ask a value passed as `Any` whether it is: `Sendable`
/// leaves nothing to look up at run time. This protocol does: it refines `Sendable`, so the
/// compiler checks a conformance, and a value passed as `Any` can be asked for it. Conform an
/// app type that is stored in a transformable attribute and set by name:
///
/// ```swift
/// struct Color: TransformableValue, Codable { var red, green, blue: UInt8 }
/// try book.setValue(color, forKey: "color")
/// ```
///
/// Without it, set such a value with `setTransformableValue(_:forKey:)`, or through a
/// generated property; both are typed, so the compiler checks `Sendable` there.
public protocol TransformableValue: Sendable {}

extension TransformableBytes: TransformableValue {}

/// Recovers, at run time, the `Sendable` that a value passed as `Any` lost.
///
/// Swift cannot test a value for `Sendable` at run time: a marker protocol leaves no
/// conformance to look up (`value as? any Sendable` does not compile). So a value that
/// reaches a transformable attribute through an untyped setter (`object["key"] = value`,
/// `setValue(_:forKey:)`, `setPrimitiveValue(_:forKey:)`, `BatchInsertRequest.setValue`) is
/// taken only when its type shows that it is Sendable:
///
/// - the standard value types: integers, `Double`, `Float`, `Bool`, `String`, `Substring`,
///   `Decimal`, `Date`, `UUID`, `URL`, `Data`, `NSNull`;
/// - any `TransformableValue` (the library's `TransformableBytes` and the Core Data formats'
///   values among them), and `AttributeValue`;
/// - arrays, sets, and dictionaries keyed by `String` or `Int`, of those, to any depth. An
///   array or dictionary of several types is rebuilt as `[any Sendable]` or
///   `[String: any Sendable]` (`as? [Int]` and the like still read it).
///
/// Any other value (an app's own struct or class) is refused: set it with
/// `ManagedObject.setTransformableValue(_:forKey:)`, whose generic parameter the compiler
/// checks for `Sendable`, or conform its type to `TransformableValue`.
package enum SendableProof {
    /// `value` as `any Sendable`, or nil when its type does not show that it is one.
    package static func sendable(_ value: Any) -> (any Sendable)? {
        if let scalar = scalar(value) { return scalar }
        return collection(value)
    }

    /// A value of one of the standard value types, or of the library's.
    private static func scalar(_ value: Any) -> (any Sendable)? {
        switch value {
        case let v as any TransformableValue: return v
        case let v as AttributeValue: return v
        case let v as String: return v
        case let v as Substring: return v
        case let v as Int: return v
        case let v as Int64: return v
        case let v as Int32: return v
        case let v as Int16: return v
        case let v as Int8: return v
        case let v as UInt: return v
        case let v as UInt64: return v
        case let v as UInt32: return v
        case let v as UInt16: return v
        case let v as UInt8: return v
        case let v as Double: return v
        case let v as Float: return v
        case let v as Bool: return v
        case let v as Decimal: return v
        case let v as Date: return v
        case let v as UUID: return v
        case let v as URL: return v
        case let v as Data: return v
        case let v as NSNull: return v
        default: return nil
        }
    }

    /// An array, set or dictionary of provable values. Homogeneous collections of the common
    /// types keep their type (and so stay `Hashable`); mixed ones are rebuilt.
    private static func collection(_ value: Any) -> (any Sendable)? {
        switch value {
        case let v as [String]: return v
        case let v as [Int]: return v
        case let v as [Int64]: return v
        case let v as [Double]: return v
        case let v as [Bool]: return v
        case let v as [Data]: return v
        case let v as [Date]: return v
        case let v as [UUID]: return v
        case let v as [URL]: return v
        case let v as [Decimal]: return v
        case let v as Set<String>: return v
        case let v as Set<Int>: return v
        case let v as [String: String]: return v
        case let v as [String: Int]: return v
        case let v as [String: Double]: return v
        case let v as [String: Bool]: return v
        case let v as [Any]:
            var elements: [any Sendable] = []
            elements.reserveCapacity(v.count)
            for element in v {
                guard let sendable = sendable(element) else { return nil }
                elements.append(sendable)
            }
            return elements
        case let v as [String: Any]:
            var entries: [String: any Sendable] = [:]
            for (key, element) in v {
                guard let sendable = sendable(element) else { return nil }
                entries[key] = sendable
            }
            return entries
        case let v as [Int: Any]:
            var entries: [Int: any Sendable] = [:]
            for (key, element) in v {
                guard let sendable = sendable(element) else { return nil }
                entries[key] = sendable
            }
            return entries
        default:
            return nil
        }
    }
}
