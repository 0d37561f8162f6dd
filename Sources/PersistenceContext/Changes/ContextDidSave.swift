import Foundation
import PersistenceStore

/// What one save of a context did, by object ID: Core Data's `NSManagedObjectContextDidSave`
/// notification's contents (`NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey`,
/// `NSDeletedObjectIDsKey`).
///
/// Every save that changes the store announces one, through three channels: the
/// coordinator's `contextDidSaves()` stream, `NotificationCenter.default` under
/// `ManagedObjectContext.didSaveObjectIDsNotification` (with the context as the object and
/// this value under `ContextDidSave.userInfoKey`), and the contexts of the coordinator that
/// merge automatically. Another context brings its objects up to date with
/// `mergeChanges(fromContextDidSave:)`.
public struct ContextDidSave: Sendable, Equatable {
    /// The objects the save inserted, under their permanent IDs.
    public var insertedObjectIDs: Set<ObjectID>
    /// The objects whose rows the save changed.
    public var updatedObjectIDs: Set<ObjectID>
    /// The objects whose rows the save deleted.
    public var deletedObjectIDs: Set<ObjectID>
    /// The saving context's `name`.
    public var contextName: String?
    /// The saving context, told apart without holding it: a context does not merge its own.
    let origin: ObjectIdentifier?

    /// A save's changes (for tests and for merging changes an app learnt of otherwise).
    public init(
        insertedObjectIDs: Set<ObjectID> = [], updatedObjectIDs: Set<ObjectID> = [],
        deletedObjectIDs: Set<ObjectID> = [], contextName: String? = nil
    ) {
        self.init(
            insertedObjectIDs: insertedObjectIDs, updatedObjectIDs: updatedObjectIDs,
            deletedObjectIDs: deletedObjectIDs, contextName: contextName, origin: nil)
    }

    init(
        insertedObjectIDs: Set<ObjectID>, updatedObjectIDs: Set<ObjectID>, deletedObjectIDs: Set<ObjectID>,
        contextName: String?, origin: ObjectIdentifier?
    ) {
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
        self.contextName = contextName
        self.origin = origin
    }

    /// Whether the save changed nothing.
    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }

    /// The key of this value in the notification's `userInfo`.
    public static let userInfoKey = "ContextDidSave"
}

extension ManagedObjectContext {
    /// Posted to `NotificationCenter.default` after each save that changed the store, on the
    /// saving context's queue, with the context as the object and a `ContextDidSave` under
    /// `ContextDidSave.userInfoKey` (Core Data's `didSaveObjectIDsNotification`).
    public static let didSaveObjectIDsNotification = Notification.Name("ManagedObjectContextDidSaveObjectIDs")
}
