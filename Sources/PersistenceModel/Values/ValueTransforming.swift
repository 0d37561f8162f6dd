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
/// not recognise, never crash.
public protocol ValueTransforming: Sendable {
    /// Encodes an app value as bytes.
    ///
    /// - Throws: when the value is not of the type the transformer handles.
    func transformedValue(_ value: Any) throws -> Data

    /// Decodes bytes written by `transformedValue(_:)`.
    ///
    /// - Throws: when the bytes are not a valid encoding.
    func reverseTransformedValue(_ data: Data) throws -> Any
}

/// The process-wide registry of value transformers, by name.
public enum ValueTransformers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registry: [String: any ValueTransforming] = [:]

    /// Registers `transformer` under `name`, replacing any earlier one.
    public static func register(_ transformer: any ValueTransforming, forName name: String) {
        lock.lock()
        defer { lock.unlock() }
        registry[name] = transformer
    }

    /// The transformer registered under `name`, if any.
    public static func transformer(forName name: String) -> (any ValueTransforming)? {
        lock.lock()
        defer { lock.unlock() }
        return registry[name]
    }

    /// Removes the transformer registered under `name`.
    public static func unregister(name: String) {
        lock.lock()
        defer { lock.unlock() }
        registry[name] = nil
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
