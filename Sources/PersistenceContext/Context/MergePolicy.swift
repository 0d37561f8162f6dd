/// What a save does with a conflict: a changed or deleted object whose row another context
/// or process wrote or deleted since the object read it (a version conflict, see
/// `MergeConflictError`), or an inserted object whose unique values are already stored (a
/// uniqueness conflict, see `ConstraintConflictError`). Core Data's five policies.
///
/// For version conflicts, property by property (attributes and to-ones; to-many links are
/// the object's as edited):
///
/// | policy | a property changed on both sides | changed by the object only | by the store only |
/// |---|---|---|---|
/// | `.error` | the save throws `MergeConflictError` | | |
/// | `.mergeByPropertyStoreTrump` | store | object | store |
/// | `.mergeByPropertyObjectTrump` | object | object | store |
/// | `.overwrite` | object | object | object (its whole state is written) |
/// | `.rollback` | store | store | store (the object's changes are discarded) |
///
/// A row another context deleted stays deleted under every policy but `.error`: the
/// object's changes to it are dropped and it leaves its context. An object deleted here whose
/// row changed is deleted all the same.
///
/// For uniqueness conflicts, `.mergeByPropertyObjectTrump` and `.overwrite` make the
/// inserted object take the stored row over (an upsert); the others throw
/// `ConstraintConflictError`.
public enum MergePolicy: Sendable, Hashable {
    /// The save fails: with a `MergeConflictError` naming each object whose row changed or
    /// vanished, or a `ConstraintConflictError` naming the constraint and values (Core Data's
    /// default, `NSErrorMergePolicy`).
    case error
    /// Property by property, the store's values win over the object's where both changed
    /// one; the object's other changes are kept (`NSMergeByPropertyStoreTrumpMergePolicy`).
    case mergeByPropertyStoreTrump
    /// Property by property, the object's changes win; the store's values of the properties
    /// the object did not change are kept (`NSMergeByPropertyObjectTrumpMergePolicy`).
    ///
    /// An inserted object whose unique values are stored takes over the existing row: its
    /// values overwrite the row's, an upsert (SwiftData's `.unique`). Its relationships win
    /// too: the row's links in join tables (many-to-many, ordered and inverse-less to-manys,
    /// and its place in an ordered to-many it belongs to through a to-one) are replaced by
    /// the object's own. Links that other objects hold to the row through relationships the
    /// object does not model (another entity's inverse-less to-many, a to-one column) stay,
    /// since the row is updated rather than replaced.
    case mergeByPropertyObjectTrump
    /// The object's whole state is written over the row, whatever the store holds
    /// (`NSOverwriteMergePolicy`); an inserted object takes a stored row with its unique
    /// values over, as under `.mergeByPropertyObjectTrump`.
    case overwrite
    /// The object's changes are discarded and it takes the store's state
    /// (`NSRollbackMergePolicy`).
    case rollback

    /// The former name of `.mergeByPropertyObjectTrump`.
    @available(*, deprecated, renamed: "mergeByPropertyObjectTrump")
    public static var objectTrump: MergePolicy { .mergeByPropertyObjectTrump }

    /// Whether an inserted object whose unique values are stored takes that row over.
    var adoptsExistingRows: Bool { self == .mergeByPropertyObjectTrump || self == .overwrite }
}
