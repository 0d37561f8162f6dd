import PersistenceModel
import PersistenceStore
/// A value that cannot be read or set on an object: an unknown key, a value of the wrong
/// type, or a derived attribute assigned from app code.
public struct ObjectAccessError: Error, Sendable, CustomStringConvertible {
    /// The entity.
    public var entity: String
    /// The key as given.
    public var key: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(entity: String, key: String, reason: String) {
        self.entity = entity
        self.key = key
        self.reason = reason
    }

    /// "Can't set Book.price: …".
    public var description: String { "Can't set \(entity).\(key): \(reason)" }
}
