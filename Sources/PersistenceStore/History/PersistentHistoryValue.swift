import PersistenceModel

/// A value a change of the persistent history replaced (see
/// `PersistentHistoryChange.previousValues`): an attribute's value, or the object a to-one
/// relationship pointed to.
public enum PersistentHistoryValue: Sendable, Equatable {
    /// An attribute's value (`.null` when it had none).
    case attribute(AttributeValue)
    /// A to-one relationship's destination, nil when it had none.
    case object(ObjectID?)
}
