/// What a save does when an inserted object's unique values are already in the store.
public enum MergePolicy: Sendable, Hashable {
    /// The save fails with a `ConstraintConflictError` naming the constraint and values
    /// (Core Data's default, `NSErrorMergePolicy`).
    case error
    /// The inserted object takes over the existing row: its values overwrite the row's, an
    /// upsert (Core Data's `NSMergeByPropertyObjectTrumpMergePolicy`, SwiftData's `.unique`).
    ///
    /// Its relationships win too: the row's links in join tables (many-to-many, ordered and
    /// inverse-less to-manys, and its place in an ordered to-many it belongs to through a
    /// to-one) are replaced by the object's own. Links that other objects hold to the row
    /// through relationships the object does not model (another entity's inverse-less
    /// to-many, a to-one column) stay, since the row is updated rather than replaced.
    case objectTrump
}
