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

extension PersistentHistoryValue {
    /// Whether the history keeps the previous links of the unordered to-many `relationship`
    /// of `entity`, whose inverse `inverse` on `destination` is also to-many.
    ///
    /// A link belongs to both sides, and a change of it is a change of both objects: only
    /// the side whose entity and relationship names sort first keeps the links, and an undo
    /// puts them back through that side (a book's tags, not a tag's books). Keeping both
    /// would write a popular tag's whole list of books into every change that tags one more
    /// book, and putting a tag's whole list back would undo other books' later links.
    package static func keepsLinks(
        ofManyToMany relationship: String, of entity: String, inverse: String, destination: String
    ) -> Bool {
        (entity, relationship) <= (destination, inverse)
    }

    /// Whether the history keeps the links of `schema`'s join-table to-many `relationship`:
    /// an ordered one or one without a to-many inverse always; of a many-to-many, one side
    /// only (`keepsLinks(ofManyToMany:of:inverse:destination:)`).
    package static func keepsLinks(
        of relationship: RelationshipDescription, in schema: EntitySchema, model: ManagedObjectModel
    ) -> Bool {
        guard !relationship.isOrdered, let inverse = relationship.inverseName,
            model.schema(for: relationship.destinationEntityName)?.relationship(named: inverse)?.isToMany == true
        else { return true }
        return keepsLinks(
            ofManyToMany: relationship.name, of: schema.name, inverse: inverse,
            destination: relationship.destinationEntityName)
    }
}
