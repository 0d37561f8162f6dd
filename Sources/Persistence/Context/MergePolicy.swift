/// What a save does when an inserted object's unique values are already in the store.
public enum MergePolicy: Sendable, Hashable {
    /// The save fails with a `ConstraintConflictError` naming the constraint and values
    /// (Core Data's default, `NSErrorMergePolicy`).
    case error
    /// The inserted object takes over the existing row: its values overwrite the row's, an
    /// upsert (Core Data's `NSMergeByPropertyObjectTrumpMergePolicy`, SwiftData's `.unique`).
    case objectTrump
}
