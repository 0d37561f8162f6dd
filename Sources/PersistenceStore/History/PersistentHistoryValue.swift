import PersistenceModel

/// A value a change of the persistent history replaced (see
/// `PersistentHistoryChange.previousValues`): an attribute's value, the object a to-one
/// relationship pointed to, or the objects a to-many relationship held.
public enum PersistentHistoryValue: Sendable, Equatable {
    /// An attribute's value (`.null` when it had none).
    case attribute(AttributeValue)
    /// A to-one relationship's destination, nil when it had none.
    case object(ObjectID?)
    /// A to-many relationship's destinations, in order for an ordered one (empty when it had
    /// none). Kept for the links a store keeps apart from rows (join tables); a to-many whose
    /// inverse is a to-one is put back through that to-one.
    case objects([ObjectID])
}
