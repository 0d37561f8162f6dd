import PersistenceStore

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
/// A row another context or process deleted stays deleted under every policy but `.error`:
/// the object's changes to it are dropped, and it leaves its context with no values (it
/// reads nil, never the values of a row that is gone). An object deleted here whose row
/// changed is deleted all the same under `.mergeByPropertyStoreTrump`,
/// `.mergeByPropertyObjectTrump` and `.overwrite` (the delete is the object's change, and
/// the row is not one another context deleted); under `.rollback` the delete is undone, as
/// every other change of the object: it stays, with the store's values. Only that object's
/// delete is undone: what deleting it did to others (cascades, inverses set to nil) is
/// saved, and loaded to-many relationships are read again when next used.
///
/// For uniqueness conflicts, an inserted object whose unique values are already stored:
///
/// | policy | the save | the inserted object afterwards |
/// |---|---|---|
/// | `.error` | throws `ConstraintConflictError` | inserted, unsaved |
/// | `.mergeByPropertyStoreTrump`, `.rollback` | writes nothing of it | the row's object, with the store's values |
/// | `.mergeByPropertyObjectTrump`, `.overwrite` | writes its values over the row (an upsert) | the row's object, with its values |
///
/// Store-trump and rollback keep the stored row as it is, because both promise that the
/// store's state wins over the object's (Core Data merges such an inserted duplicate into
/// the stored object with the store's values winning, and deletes the duplicate). Here the
/// object itself becomes the row's, so that the app's reference stays useful: it takes the
/// row's ID, values and version, like an object-trump adoption that reads instead of
/// writing, and relationships of other objects to it reach the row. Its own relationships
/// are the row's. One object stands for a row: when the context already holds another for
/// it (or the row is of another entity of the hierarchy), the inserted object is merged
/// into that one instead, and leaves the context with no values. A row the same save
/// deletes is no row to merge into: an object inserted to replace it is refused as under
/// `.error` (save the delete first).
///
/// Two changed objects of one save with the same unique values (in memory) follow the same
/// rule under store-trump and rollback: an inserted object that duplicates an earlier
/// inserted one, or a saved object, is merged into it and leaves the context, as if the
/// first were stored. Under the other policies, and between two saved objects, the save
/// throws `ConstraintConflictError`: which object's state should win is the app's call.
/// Batch inserts follow the policies too (see `BatchInsertRequest`).
public enum MergePolicy: Sendable, Hashable {
    /// The save fails: with a `MergeConflictError` naming each object whose row changed or
    /// vanished, or a `ConstraintConflictError` naming the constraint and values (Core Data's
    /// default, `NSErrorMergePolicy`).
    case error
    /// Property by property, the store's values win over the object's where both changed
    /// one; the object's other changes are kept (`NSMergeByPropertyStoreTrumpMergePolicy`).
    ///
    /// An inserted object whose unique values are stored is merged into the existing row,
    /// which keeps its values: the object becomes the row's, with the store's values.
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
    /// (`NSRollbackMergePolicy`): a delete is undone, and an inserted object whose unique
    /// values are stored becomes the row's object, with the store's values.
    case rollback

    /// The former name of `.mergeByPropertyObjectTrump`.
    @available(*, deprecated, renamed: "mergeByPropertyObjectTrump")
    public static var objectTrump: MergePolicy { .mergeByPropertyObjectTrump }

    /// Whether an inserted object whose unique values are stored takes that row over.
    var adoptsExistingRows: Bool { self == .mergeByPropertyObjectTrump || self == .overwrite }

    /// Whether an inserted object whose unique values are stored is merged into that row,
    /// which keeps its values (the store's state wins).
    var keepsStoredRows: Bool { self == .mergeByPropertyStoreTrump || self == .rollback }

    /// What a batch-inserted row whose unique values are stored does.
    var insertConflictAction: InsertConflictAction {
        adoptsExistingRows ? .update : keepsStoredRows ? .skip : .fail
    }
}
