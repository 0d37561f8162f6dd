import PersistenceModel

/// One object's row as read from the store: its entity, primary key, and the object's slots
/// (see `RowDecodePlan`): a value per attribute (a transient's default), a fault for each
/// to-one with a destination and each to-many.
package struct StoreRow {
    /// The row's entity (a sub-entity's own for a sub-entity's row). The schema alone, not
    /// its `EntityMapping`: a row is copied on its way to its object, and the mapping's
    /// table, SQL and plans would cost a retain each per copy.
    @usableFromInline package let schema: EntitySchema
    /// The row's `_id`.
    @usableFromInline package let primaryKey: Int64
    /// The scope of the row's object ID, shared by the rows of one read.
    @usableFromInline package let idScope: ObjectID.Scope
    /// A slot per property position of `schema`.
    @usableFromInline package var slots: StoredSlots
    /// The row's version (Core Data's `Z_OPT`): 1 when written first, one more at each
    /// later write, so that a save can tell that the row changed since it was read.
    @usableFromInline package let version: Int64

    /// A row made by a store: its slots hold values and faults only.
    @inlinable
    package init(schema: EntitySchema, primaryKey: Int64, idScope: ObjectID.Scope, slots: StoredSlots, version: Int64 = 1) {
        self.schema = schema
        self.primaryKey = primaryKey
        self.idScope = idScope
        self.slots = slots
        self.version = version
    }
}
