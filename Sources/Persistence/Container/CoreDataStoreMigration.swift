import Foundation
import PersistenceContext
import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLiteStore
import PersistenceStore

/// Lightweight migration of a store in Core Data's layout written with an earlier version of
/// the model, as the SQLite store migrates its own: what a container does before it opens
/// such a store with `migratingFrom` versions (Core Data migrates a store before adding it,
/// given `NSMigratePersistentStoresAutomaticallyOption` and `NSInferMappingModelAutomaticallyOption`).
///
/// The store is migrated by copy: its objects are read with the version that wrote it, put
/// through the same lightweight migration as a Persistence store (renaming identifiers, a
/// to-one become an ordered to-many, new optional attributes…), and written into a new store
/// in Core Data's layout for the current model, whose tables then take the place of the
/// store's in one transaction of its own file (`CoreDataStore.replaceContents`), the store's
/// UUID kept; the store as it was is kept beside it as `<store>.pre-migration`. Unlike Core
/// Data's own migration, objects get new primary keys (`Z_PK`), so an object's URI from
/// before (`x-coredata://…/p12`) names nothing afterwards; a model whose attributes keep
/// data outside the file is refused rather than migrated.
enum CoreDataStoreMigration {
    /// Migrates the store at `url` to `model` when it was written with one of `versions`.
    ///
    /// - Returns: whether the store was migrated.
    /// - Throws: `MigrationError` (`.readOnly`) for a store this process cannot write that
    ///   needs migrating; what the copy throws (the store is then as it was).
    @discardableResult
    static func migrateBeforeOpening(
        _ url: URL, to model: ManagedObjectModel, versions: [ManagedObjectModel], readOnly: Bool
    ) throws -> Bool {
        guard !versions.isEmpty, !opens(url, with: model) else { return false }
        guard let source = versions.reversed().first(where: { $0 !== model && opens(url, with: $0) }) else {
            return false  // the open names what differs
        }
        let sourceName = source.versionIdentifier ?? "an earlier version"
        let destinationName = model.versionIdentifier ?? "the current version"
        guard !readOnly, FileManager.default.isWritableFile(atPath: url.path),
            FileManager.default.isWritableFile(atPath: url.deletingLastPathComponent().path)
        else {
            throw MigrationError(
                .readOnly,
                reason: "was written with model version \"\(sourceName)\" and must be migrated to "
                    + "\"\(destinationName)\" before this release can open it",
                path: url.path)
        }
        if let attribute = model.entities.lazy.flatMap(\.attributes).first(where: \.allowsExternalBinaryDataStorage) {
            throw MigrationError(
                .readOnly,
                reason: "keeps \(attribute.name) outside the file, which a migration of a store in Core Data's layout "
                    + "does not copy; it was left as it was",
                path: url.path)
        }
        let lock = MigrationLock(storeURL: url)
        defer { lock.release() }
        let work = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).migrating-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: work) }
        return try CoreDataStore.replaceContents(of: url, backup: StoreMigrator.backupURL(for: url)) {
            // With the store's write lock held: another process may have migrated it first.
            guard !opens(url, with: model) else { return nil }
            return try migratedCopy(of: url, from: source, to: model, versions: versions, in: work)
        }
    }

    /// Whether the store at `url` opens with `model` as it is.
    private static func opens(_ url: URL, with model: ManagedObjectModel) -> Bool {
        var options = CoreDataStore.Options()
        options.readOnly = true
        guard let store = try? CoreDataStore(model: model, url: url, options: options) else { return false }
        try? store.close()
        return true
    }

    /// A new store in Core Data's layout for `model`, made in the new folder `work`, holding
    /// the objects of `url` migrated from `source`.
    private static func migratedCopy(
        of url: URL, from source: ManagedObjectModel, to model: ManagedObjectModel, versions: [ManagedObjectModel],
        in work: URL
    ) throws -> URL {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
        let plain = work.appendingPathComponent("plain.sqlite")
        let copy = work.appendingPathComponent("store.sqlite")
        // 1. The objects as the source version has them, in a Persistence store of that version.
        let original = try export(url, model: source, readOnly: true)
        try importing(original, into: plain, model: source)
        // 2. The Persistence store's own lightweight migration.
        try SQLiteStore.migrateBeforeOpening(plain, to: model, versions: versions, readOnly: false)
        // 3. Its objects in a new store in Core Data's layout for the model.
        let migrated = try export(plain, model: model, readOnly: false)
        try CoreDataStore.create(model: model, at: copy)
        try importing(migrated, into: copy, model: model)
        return copy
    }

    private static func export(_ url: URL, model: ManagedObjectModel, readOnly: Bool) throws -> String {
        let container = try PersistentContainer(model: model, storeURL: url, readOnly: readOnly)
        defer { try? container.persistentStoreCoordinator.close() }
        return try StoreArchive.exportJSON(from: container.viewContext)
    }

    private static func importing(_ document: String, into url: URL, model: ManagedObjectModel) throws {
        let container = try PersistentContainer(model: model, storeURL: url)
        defer { try? container.persistentStoreCoordinator.close() }
        _ = try StoreArchive.importJSON(Data(document.utf8), into: container.viewContext)
    }
}
