import PersistenceModel

/// An object whose row a save writes, as a store reads it: its entity, its ID, and the value
/// of each property position. A context's objects conform; a store never sees more of them.
package protocol SavedObject: AnyObject {
    /// The object's ID (temporary until its first save).
    var objectID: ObjectID { get }
    /// The object's entity.
    var schema: EntitySchema { get }
    /// The value at `position` as it is stored: an attribute's value, a to-one's
    /// destination as a permanent ID (`toOneFault(nil)` for none, or for a destination with
    /// no key yet), `toManyFault` for a to-many (whose links are written apart).
    func storedSlot(at position: Int) -> StoredSlot
}
