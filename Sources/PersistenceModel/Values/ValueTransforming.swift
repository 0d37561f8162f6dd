import Foundation

/// Turns a transformable attribute's app value into bytes for the store, and back.
///
/// Foundation on Linux has no `ValueTransformer`, so Persistence brings its own protocol and
/// registry. Register a transformer under the name the model gives
/// (`valueTransformerName`) before opening a store that uses it, as Core Data apps do with
/// `ValueTransformer.setValueTransformer(_:forName:)`:
///
/// ```swift
/// ValueTransformers.register(ColorToDataTransformer(), forName: "ColorToDataTransformer")
/// ```
///
/// A reverse transformation reads bytes from a file on disk: it must throw on bytes it does
/// not recognise, never crash. Values go both ways as `any Sendable`: a transformable
/// attribute's value is one (see `AttributeValue.transformable`), because a save or a merge
/// carries it to another thread.
public protocol ValueTransforming: Sendable {
    /// Encodes an app value as bytes.
    ///
    /// - Throws: when the value is not of the type the transformer handles.
    func transformedValue(_ value: any Sendable) throws -> Data

    /// Decodes bytes written by `transformedValue(_:)`.
    ///
    /// - Throws: when the bytes are not a valid encoding.
    func reverseTransformedValue(_ data: Data) throws -> any Sendable
}

/// The process-wide registry of value transformers, by name; safe to use from any thread
/// (a lock guards it: see `Locked`).
public enum ValueTransformers {
    private static let registry = Locked<[String: any ValueTransforming]>([:])

    /// Registers `transformer` under `name`, replacing any earlier one.
    public static func register(_ transformer: any ValueTransforming, forName name: String) {
        registry.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`, if any.
    public static func transformer(forName name: String) -> (any ValueTransforming)? {
        registry.withLock { $0[name] }
    }

    /// Removes the transformer registered under `name`.
    public static func unregister(name: String) {
        registry.withLock { $0[name] = nil }
    }
}

/// The stored bytes of a transformable attribute that has no named transformer, before the
/// app asks for them as a type. `ManagedObject.value(forKey:as:)` decodes them as JSON
/// into any `Decodable` type; tools that do not know the app's types pass them through.
public struct TransformableBytes: Sendable, Hashable {
    /// The bytes as stored.
    public var data: Data

    /// Wraps stored bytes.
    public init(_ data: Data) { self.data = data }
}

/// A transformable value that could not be encoded or decoded.
public struct ValueTransformerError: Error, Sendable, CustomStringConvertible {
    /// The attribute, as `Entity.attribute`.
    public var attribute: String
    /// The transformer's name, if the attribute names one.
    public var transformerName: String?
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(attribute: String, transformerName: String?, reason: String) {
        self.attribute = attribute
        self.transformerName = transformerName
        self.reason = reason
    }

    /// A sentence naming the attribute, the transformer and the reason.
    public var description: String {
        let via = transformerName.map { " with transformer '\($0)'" } ?? ""
        return "Can't transform the value of \(attribute)\(via): \(reason)"
    }
}
