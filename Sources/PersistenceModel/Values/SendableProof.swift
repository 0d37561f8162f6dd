import Foundation

/// A type of the library's whose values an untyped setter may take for a transformable
/// attribute: a real protocol (not a marker), so that a value passed as `Any` can be asked
/// for it at run time, and one that refines `Sendable`, so that conforming is checked by the
/// compiler.
package protocol KnownSendable: Sendable {}

extension TransformableBytes: KnownSendable {}

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
/// - the library's own (`TransformableBytes`, `AttributeValue`, the Core Data formats');
/// - arrays, sets, and dictionaries keyed by `String` or `Int`, of those, to any depth. An
///   array or dictionary of several types is rebuilt as `[any Sendable]` or
///   `[String: any Sendable]` (`as? [Int]` and the like still read it).
///
/// Any other value (an app's own struct or class) is refused: set it with
/// `ManagedObject.setTransformableValue(_:forKey:)`, whose generic parameter the compiler
/// checks for `Sendable`.
package enum SendableProof {
    /// `value` as `any Sendable`, or nil when its type does not show that it is one.
    package static func sendable(_ value: Any) -> (any Sendable)? {
        if let scalar = scalar(value) { return scalar }
        return collection(value)
    }

    /// A value of one of the standard value types, or of the library's.
    private static func scalar(_ value: Any) -> (any Sendable)? {
        switch value {
        case let v as KnownSendable: return v
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
