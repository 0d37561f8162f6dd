import Foundation
import PersistenceModel
import PersistenceContext
import PersistenceStore
import PersistenceSQLiteStore
import PersistenceCoreDataStore
import PersistenceStore
import PersistenceSQLiteFiles

/// A model, a store and a context in one: the way an app opens its data.
///
/// ```swift
/// let model = try ManagedObjectModel(contentsOf: modelURL)
/// let container = try PersistentContainer(model: model, storeURL: url, classes: ["Book": Book.self])
/// let book = try container.viewContext.insert(Book.self)
/// ```
///
/// Opening freezes the model. Register value transformers the model names before opening.
///
/// The container's contexts share its coordinator: the `viewContext` on the main queue, and
/// any number of background contexts on queues of their own (`newBackgroundContext()`,
/// `performBackgroundTask(_:)`), whose saves the view context can merge as they happen
/// (`automaticallyMergesChangesFromParent`).
public final class PersistentContainer: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// The store file, or nil for an in-memory store.
    public let storeURL: URL?
    /// The main context, on the main queue (Core Data's `viewContext`): what a program's
    /// main thread, or its main actor, reads and edits.
    public let viewContext: ManagedObjectContext
    /// The coordinator of the container's store, shared by its contexts.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// Whether opening migrated the store from an earlier version of the model (given with
    /// `migratingFrom`, or the other versions of a model bundle): a file of the SQLite store
    /// or one in Core Data's layout. An app that keeps values a migration cannot compute (a
    /// denormalised copy of a relationship's names) brings them up to date when this is true.
    public let migratedStore: Bool

    /// Opens the store at `storeURL` (creating it if the file does not exist), or an
    /// in-memory store when `storeURL` is nil.
    ///
    /// The path must name a regular file (or a symbolic link to one) or a new name in an
    /// existing directory: a FIFO, a device, a socket or a directory is refused before
    /// SQLite opens it. A store this process cannot write (a read-only file, directory or
    /// file system) opens for reading, as if `readOnly` were set. Refused files are left
    /// byte-for-byte as they were, with no `-wal` or `-shm` file beside them. A store
    /// whose file SQLite finds damaged refuses its first save.
    ///
    /// - Parameters:
    ///   - model: the model the store is written with.
    ///   - storeURL: the store's file (created when missing), or nil for a store in memory.
    ///   - classes: the `ManagedObject` subclass for each entity that has one.
    ///   - readOnly: open an existing store without writing to it; a save then throws
    ///     `SQLiteError` with `isReadOnly`.
    ///   - tracksPersistentHistory: record every save and batch insert in the store's
    ///     persistent history (Core Data's `NSPersistentHistoryTrackingKey`), read with
    ///     `PersistentStoreCoordinator.history(after:)`. A store created before history
    ///     existed gains its tables, its rows untouched; a store that tracks history once
    ///     keeps tracking it, whoever opens it next.
    ///
    /// A store Core Data wrote (an app's `.sqlite` copied from a Mac or a device) is told by
    /// its tables and opened in Core Data's own layout (see `CoreDataStore`): it is never
    /// migrated, and keeps no persistent history.
    ///
    /// - Throws: `ModelError` for an invalid model; `StoreError` for a missing directory,
    ///   a path that is not a regular file, a file that is not a Persistence store or was
    ///   written with another model, or a missing value transformer; `SQLiteError` for a
    ///   file SQLite cannot open.
    public convenience init(
        model: ManagedObjectModel, storeURL: URL?, classes: [String: ManagedObject.Type] = [:],
        readOnly: Bool = false, tracksPersistentHistory: Bool = false
    ) throws {
        var options = SQLiteStore.Options()
        options.readOnly = readOnly
        options.tracksHistory = tracksPersistentHistory
        try self.init(model: model, storeURL: storeURL, classes: classes, options: options)
    }

    /// Opens a store with explicit store options (for tools).
    package init(
        model: ManagedObjectModel, storeURL: URL?, classes: [String: ManagedObject.Type], options: SQLiteStore.Options,
        migratingFrom versions: [ManagedObjectModel] = []
    ) throws {
        for name in classes.keys where model.entity(named: name) == nil {
            throw ModelError(entity: name, "a class is registered for entity '\(name)', which the model does not have")
        }
        let store: any PersistentStore
        var migratedStore = false
        if let storeURL, ServerStoreURL.isServer(storeURL) {
            // A store on a server (`postgresql://…`): see `ServerStoreURL`. It migrates a
            // store of an older version inside the transaction that opens it.
            store = try Self.openServerStore(model: model, url: storeURL, options: options, versions: versions)
            migratedStore = Self.serverStoreMigratedOnOpen(store)
        } else if let storeURL, CoreDataStore.isCoreDataStore(at: storeURL) {
            // A store Core Data wrote (its tables say so) opens in Core Data's own layout,
            // migrated first when it was written with an earlier version.
            var coreDataOptions = CoreDataStore.Options()
            coreDataOptions.readOnly = options.readOnly
            coreDataOptions.busyTimeout = options.busyTimeout
            coreDataOptions.passesArchivesThrough = options.passesThroughUnregisteredTransformers
            // A store that opens with the model needs no migration: it is opened once, where
            // asking first would read its bookkeeping and columns twice on every open.
            if !versions.isEmpty, let opened = try? CoreDataStore(model: model, url: storeURL, options: coreDataOptions) {
                store = opened
            } else {
                migratedStore = try CoreDataStoreMigration.migrateBeforeOpening(
                    storeURL, to: model, versions: versions, readOnly: options.readOnly)
                store = try CoreDataStore(model: model, url: storeURL, options: coreDataOptions)
            }
        } else {
            // A store written with an older version is migrated before it opens.
            if let storeURL {
                migratedStore = try SQLiteStore.migrateBeforeOpening(
                    storeURL, to: model, versions: versions, readOnly: options.readOnly)
            }
            store = try SQLiteStore(model: model, url: storeURL, options: options)
        }
        let coordinator = PersistentStoreCoordinator(store: store)
        self.model = model
        self.storeURL = storeURL
        self.persistentStoreCoordinator = coordinator
        self.migratedStore = migratedStore
        self.viewContext = ManagedObjectContext(coordinator: coordinator, classes: classes)
    }
}

extension PersistentContainer {
    /// A new context on a queue of its own, sharing the container's coordinator: for work off
    /// the main queue, used inside its `perform` and `performAndWait` blocks.
    public func newBackgroundContext(name: String? = nil) -> ManagedObjectContext {
        ManagedObjectContext(
            coordinator: persistentStoreCoordinator, classes: viewContext.classes, concurrencyType: .privateQueue,
            name: name)
    }

    /// Runs `block` with a new background context on that context's queue, and returns its
    /// result (IDs and values: objects stay on the queue).
    ///
    /// ```swift
    /// try await container.performBackgroundTask { context in
    ///     for record in records { try context.insert(Book.self).title = record.title }
    ///     try context.save()
    /// }
    /// ```
    ///
    /// - Throws: what `block` throws.
    public func performBackgroundTask<T: Sendable, E: Error>(
        _ block: @escaping @Sendable (ManagedObjectContext) throws(E) -> T
    ) async throws(E) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(E) -> T in try block(context) }
    }
}
