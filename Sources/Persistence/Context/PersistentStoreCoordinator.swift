import Foundation
import PersistenceModel
import PersistenceStore

/// Holds a model and the store its objects live in, and is the only way a context reaches
/// that store: Core Data's `NSPersistentStoreCoordinator`.
///
/// A context asks the coordinator, in the model's terms, for rows, counts, IDs and
/// metadata; the coordinator answers from its store (`PersistentStore`), whichever kind it
/// is. Several contexts may share one coordinator.
public final class PersistentStoreCoordinator {
    /// The model of every object the coordinator's store holds.
    public let managedObjectModel: ManagedObjectModel
    /// The store.
    package let store: any PersistentStore

    /// A coordinator for `store`, whose model it takes.
    package init(store: any PersistentStore) {
        self.store = store
        self.managedObjectModel = store.model
    }

    /// The store's file, for a store kept in one.
    public var persistentStoreURL: URL? { store.url }

    /// Whether the store refuses writes.
    public var isReadOnly: Bool { store.isReadOnly }
}
