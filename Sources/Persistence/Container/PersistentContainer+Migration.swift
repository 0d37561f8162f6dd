import Foundation
import PersistenceModel
import PersistenceContext
import PersistenceSQLiteStore

extension PersistentContainer {
    /// Opens the store at `storeURL`, first migrating it by lightweight migration when it was
    /// written with one of `versions` rather than with `model` (see `StoreMigrator`: the
    /// store is copied aside to `<store>.pre-migration` first, and migrated in one
    /// transaction).
    ///
    /// - Parameters:
    ///   - model: the current model, which the store has once it is opened.
    ///   - storeURL: the store's file, or nil for a store in memory.
    ///   - classes: the `ManagedObject` subclass for each entity that has one.
    ///   - versions: the model versions the store may have been written with, oldest first
    ///     (`model` may be among them).
    ///   - tracksPersistentHistory: as in `init(model:storeURL:classes:readOnly:tracksPersistentHistory:)`;
    ///     the history a store has kept survives its migration, renamed entities renamed in it.
    /// - Throws: as `init(model:storeURL:classes:readOnly:tracksPersistentHistory:)`, and `MigrationError` when the
    ///   store was written with none of `versions` or cannot be migrated (the store is then
    ///   untouched).
    public convenience init(
        model: ManagedObjectModel, storeURL: URL?, classes: [String: ManagedObject.Type] = [:],
        migratingFrom versions: [ManagedObjectModel], tracksPersistentHistory: Bool = false
    ) throws {
        var options = SQLiteStore.Options()
        options.tracksHistory = tracksPersistentHistory
        try self.init(model: model, storeURL: storeURL, classes: classes, options: options, migratingFrom: versions)
    }

    /// Opens the store at `storeURL` with a version of a `.xcdatamodeld` bundle (its current
    /// version by default), migrating a store written with any of the bundle's other
    /// versions first.
    ///
    /// - Throws: `ModelFileError` or `ModelError` when the bundle cannot be read; otherwise
    ///   as `init(model:storeURL:classes:migratingFrom:tracksPersistentHistory:)`.
    public convenience init(
        modelBundle: URL, version: String? = nil, storeURL: URL?, classes: [String: ManagedObject.Type] = [:],
        tracksPersistentHistory: Bool = false
    ) throws {
        let names = try ManagedObjectModel.versionNames(in: modelBundle)
        let versions = try names.map { try ManagedObjectModel(contentsOf: modelBundle, version: $0) }
        let model = try ManagedObjectModel(contentsOf: modelBundle, version: version)
        try self.init(
            model: model, storeURL: storeURL, classes: classes, migratingFrom: versions,
            tracksPersistentHistory: tracksPersistentHistory)
    }
}
