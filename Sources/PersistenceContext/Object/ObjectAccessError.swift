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
    /// What was attempted: "set" (a value), or "get" (an object by ID).
    public var action: String

    /// Creates an error.
    public init(entity: String, key: String, reason: String, action: String = "set") {
        self.entity = entity
        self.key = key
        self.reason = reason
        self.action = action
    }

    /// "Can't set Book.price: …", "Can't get Book/p3: …".
    public var description: String {
        action == "set" ? "Can't set \(entity).\(key): \(reason)" : "Can't \(action) \(key): \(reason)"
    }
}
