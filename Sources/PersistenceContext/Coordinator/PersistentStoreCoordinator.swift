import Foundation
import PersistenceModel
import PersistenceStore

/// Holds a model and the store its objects live in, and is the only way a context reaches
/// that store: Core Data's `NSPersistentStoreCoordinator`.
///
/// A context asks the coordinator, in the model's terms, for rows, counts, IDs and
/// metadata; the coordinator answers from its store (`PersistentStore`), whichever kind it
/// is. Several contexts, on several threads, share one coordinator: it keeps one writer
/// connection, which saves take in turn, and a pool of reader connections, so that a
/// background import's long save never blocks the view context's fetches (see
/// `StoreConnections`). Each read is one snapshot of the store.
///
/// Sendable: its stores are reached only through `StoreConnections`, which hands each
/// connection to one thread at a time.
public final class PersistentStoreCoordinator: Sendable {
    /// The model of every object the coordinator's store holds.
    public let managedObjectModel: ManagedObjectModel
    /// The store's identifier, in every object ID it makes.
    package let storeIdentifier: String
    /// The store's file, for a store kept in one.
    public let persistentStoreURL: URL?
    /// Whether the store refuses writes.
    public let isReadOnly: Bool
    /// The writer and the readers.
    let connections: StoreConnections
    /// Where saves of the coordinator's contexts are announced (see `ContextDidSave`).
    package let saves = SaveAnnouncer()
    /// Other processes' saves, once a context merges automatically (see `RemoteSaveListening`).
    let remoteSaves = RemoteSaveListening()

    /// A coordinator for `store`, whose model it takes, and which becomes its writer.
    package init(store: any PersistentStore) {
        managedObjectModel = store.model
        storeIdentifier = store.identifier
        persistentStoreURL = store.url
        isReadOnly = store.isReadOnly
        connections = StoreConnections(writer: store)
    }

    /// The writer connection, for tools and tests that inspect the store on the thread that
    /// opened it while no context of the coordinator is in use elsewhere.
    package var store: any PersistentStore { connections.unsafeWriter }

    // MARK: - Reading and writing

    /// Runs `body` with a connection that reads one consistent snapshot per call: a reader
    /// of its own while another thread writes, the writer itself on the thread that holds
    /// it (a save that reads) or for a store without readers.
    ///
    /// - Throws: the store's failure when no connection can be opened; what `body` throws.
    package func read<T>(_ body: (any PersistentStore) throws -> T) throws -> T {
        try connections.read(body)
    }

    /// Runs `body` in one write transaction of the writer connection, after any write
    /// another thread is making (see `PersistentStore.performWrite`).
    package func performWrite<T>(rowCount: Int, _ body: (any PersistentStore, any StoreTransaction) throws -> T) throws -> T {
        try connections.write { store in
            try store.performWrite(rowCount: rowCount) { transaction in try body(store, transaction) }
        }
    }

    // MARK: - Metadata

    /// The value an app keeps under `key` in the store's metadata (Core Data's
    /// `metadata(for:)`), or nil. App keys live apart from the store's own.
    ///
    /// - Throws: the store's failure when its metadata cannot be read.
    public func metadataValue(forKey key: String) throws -> String? {
        try read { try $0.applicationMetadata(forKey: key) }
    }

    /// Keeps `value` under `key` in the store's metadata, written at once in its own
    /// transaction (Core Data's `setMetadata(_:for:)` followed by a save).
    ///
    /// - Throws: the store's failure when it cannot be written (read-only, full disk).
    public func setMetadataValue(_ value: String, forKey key: String) throws {
        try connections.write { try $0.setApplicationMetadata(value, forKey: key) }
    }

    /// Whether objects of `entityName` were ever saved in the store, even if every one was
    /// deleted since: an app can tell a store its user emptied from one never filled.
    public func hasEverStoredObjects(ofEntity entityName: String) throws -> Bool {
        try read { try $0.hasEverStoredObjects(entityName: entityName) }
    }

    // MARK: - Loads and closing

    /// Runs `body`, a load of about `rowCount` objects in several saves, with the store
    /// prepared for it (see `PersistentStore.withBulkLoad`): each save still commits whole.
    /// Other threads' saves wait until it returns.
    ///
    /// - Throws: the store's failure when it cannot be prepared; whatever `body` throws.
    public func performBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T {
        try connections.write { try $0.withBulkLoad(rowCount: rowCount, body) }
    }

    /// Closes the store: its files are released now rather than when the coordinator goes.
    /// No context of the coordinator may be used after.
    public func close() throws {
        remoteSaves.stop()
        try connections.close()
    }

    deinit { remoteSaves.stop() }

    /// Starts announcing other processes' saves to the coordinator's contexts, for a store
    /// that tells them; called when a context starts merging automatically.
    func listenForOtherProcessesSaves() {
        remoteSaves.start(store: connections.unsafeWriter, announcer: saves)
    }
}
