import Foundation
import PersistenceModel
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
    public var insertedObjectIDs: Set<ObjectID> {
        get { held?.objectIDs(.inserted) ?? inserted }
        _modify {
            materialize()
            yield &inserted
        }
    }
    /// The objects whose rows the save changed.
    public var updatedObjectIDs: Set<ObjectID> {
        get { held?.objectIDs(.updated) ?? updated }
        _modify {
            materialize()
            yield &updated
        }
    }
    /// The objects whose rows the save deleted.
    public var deletedObjectIDs: Set<ObjectID> {
        get { held?.objectIDs(.deleted) ?? deleted }
        _modify {
            materialize()
            yield &deleted
        }
    }
    /// The saving context's `name`.
    public var contextName: String?
    /// The saving context, told apart without holding it: a context does not merge its own.
    let origin: ObjectIdentifier?

    private var inserted: Set<ObjectID>
    private var updated: Set<ObjectID>
    private var deleted: Set<ObjectID>
    /// The three sets, when this announces a group of saves (`performAtomicSaves`): held by
    /// table and key, and made into IDs only when read (see `HeldAnnouncement`).
    private var held: LazyObjectIDs?

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
        inserted = insertedObjectIDs
        updated = updatedObjectIDs
        deleted = deletedObjectIDs
        self.contextName = contextName
        self.origin = origin
    }

    /// The announcement of a group of saves, whose IDs are made when first read.
    init(held: HeldAnnouncement) {
        self.init(
            insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: [], contextName: held.contextName,
            origin: held.origin)
        self.held = LazyObjectIDs(held)
    }

    /// Whether two announcements name the same objects, context name and saving context: a
    /// group's held sets compare as the IDs they make, as the synthesised `==` compared the
    /// stored sets before the sets could be held.
    public static func == (lhs: ContextDidSave, rhs: ContextDidSave) -> Bool {
        lhs.contextName == rhs.contextName && lhs.origin == rhs.origin
            && lhs.insertedObjectIDs == rhs.insertedObjectIDs && lhs.updatedObjectIDs == rhs.updatedObjectIDs
            && lhs.deletedObjectIDs == rhs.deletedObjectIDs
    }

    /// Makes the held sets this value's own, before one of them changes.
    private mutating func materialize() {
        guard let held else { return }
        inserted = held.objectIDs(.inserted)
        updated = held.objectIDs(.updated)
        deleted = held.objectIDs(.deleted)
        self.held = nil
    }

    /// Whether the save changed nothing.
    public var isEmpty: Bool { held?.announcement.isEmpty ?? (inserted.isEmpty && updated.isEmpty && deleted.isEmpty) }

    /// The key of this value in the notification's `userInfo`.
    public static let userInfoKey = "ContextDidSave"
}

/// A group of saves' IDs, made from their tables and keys when first read and kept: every
/// listener of one announcement reads the same sets.
///
/// A class, so that the copies of one `ContextDidSave` that its listeners receive share what
/// one of them made; its sets are made and read under `cache`'s lock.
private final class LazyObjectIDs: Sendable {
    let announcement: HeldAnnouncement
    private let cache = Locked<[Set<ObjectID>?]>([nil, nil, nil])

    init(_ announcement: HeldAnnouncement) { self.announcement = announcement }

    func objectIDs(_ change: HeldAnnouncement.Change) -> Set<ObjectID> {
        cache.withLock { sets in
            if let made = sets[change.rawValue] { return made }
            let made = announcement.objectIDs(change)
            sets[change.rawValue] = made
            return made
        }
    }
}

extension ManagedObjectContext {
    /// Posted to `NotificationCenter.default` after each save that changed the store, on the
    /// saving context's queue, with the context as the object and a `ContextDidSave` under
    /// `ContextDidSave.userInfoKey` (Core Data's `didSaveObjectIDsNotification`).
    public static let didSaveObjectIDsNotification = Notification.Name("ManagedObjectContextDidSaveObjectIDs")
}
