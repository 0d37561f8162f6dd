import PersistenceModel

/// A property's value inside an object: what a store reads from a row, and what a context
/// then keeps in the object, in one `PropertySlots` per object (a slot per property
/// position of the entity's `EntitySchema`).
///
/// The type is generic over the context's object class so that a store can fill it without
/// knowing objects: a store makes only the `value`, `toOneFault` and `toManyFault` cases (a
/// `StoredSlot`, whose object type `NoObject` has no instances); a context adds the loaded
/// `toOne` and `toMany` cases. A row's slots become an object's slots without a copy (see
/// `PropertySlots.adopted(by:)`): converting each row's slots costs more than decoding them.
@usableFromInline package enum PropertySlot<Object: AnyObject> {
    /// An attribute's value.
    case value(AttributeValue)
    /// A to-one relationship whose destination is known only by ID (not yet loaded).
    case toOneFault(ObjectID?)
    /// A to-one relationship's destination.
    case toOne(Object?)
    /// A to-many relationship not yet loaded from the store.
    case toManyFault
    /// A to-many relationship's destinations, in order.
    case toMany([Object])
}

/// The object type of a store's slots: a class without instances, since a store reads rows
/// as values and keys, never as objects.
@usableFromInline package final class NoObject {
    private init() {}
}

/// A slot as a store reads it: a value or a fault, never an object.
package typealias StoredSlot = PropertySlot<NoObject>
