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

    // MARK: - Metadata

    /// The value an app keeps under `key` in the store's metadata (Core Data's
    /// `metadata(for:)`), or nil. App keys live apart from the store's own.
    ///
    /// - Throws: the store's failure when its metadata cannot be read.
    public func metadataValue(forKey key: String) throws -> String? {
        try store.applicationMetadata(forKey: key)
    }

    /// Keeps `value` under `key` in the store's metadata, written at once in its own
    /// transaction (Core Data's `setMetadata(_:for:)` followed by a save).
    ///
    /// - Throws: the store's failure when it cannot be written (read-only, full disk).
    public func setMetadataValue(_ value: String, forKey key: String) throws {
        try store.setApplicationMetadata(value, forKey: key)
    }

    /// Whether objects of `entityName` were ever saved in the store, even if every one was
    /// deleted since: an app can tell a store its user emptied from one never filled.
    public func hasEverStoredObjects(ofEntity entityName: String) throws -> Bool {
        try store.hasEverStoredObjects(entityName: entityName)
    }

    // MARK: - Loads and closing

    /// Runs `body`, a load of about `rowCount` objects in several saves, with the store
    /// prepared for it (see `PersistentStore.withBulkLoad`): each save still commits whole.
    ///
    /// - Throws: the store's failure when it cannot be prepared; whatever `body` throws.
    public func performBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T {
        try store.withBulkLoad(rowCount: rowCount, body)
    }

    /// Closes the store: its files are released now rather than when the coordinator goes.
    /// No context of the coordinator may be used after.
    public func close() throws {
        try store.close()
    }
}
