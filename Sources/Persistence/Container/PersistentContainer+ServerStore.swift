import Foundation
import PersistenceModel
import PersistenceStore
import PersistenceSQLiteStore

#if PostgreSQL
import PersistencePostgreSQLStore
#endif

extension PersistentContainer {
    /// Whether opening the server store `store` migrated it from an earlier model version.
    static func serverStoreMigratedOnOpen(_ store: any PersistentStore) -> Bool {
        #if PostgreSQL
        return (store as? PostgreSQLStore)?.migratedOnOpen ?? false
        #else
        return false
        #endif
    }

    /// Opens the store at a server store's URL (see `ServerStoreURL`), with the options an
    /// SQLite store would have been opened with (read-only, history tracking), migrating a
    /// store written with one of `versions` (oldest first) as it opens.
    ///
    /// - Throws: `ServerStoreURLError` for a URL holding a password, or in a build without
    ///   PostgreSQL support; the PostgreSQL store's errors (unreachable server, refused
    ///   login, a database of another model) otherwise.
    static func openServerStore(
        model: ManagedObjectModel, url: URL, options: SQLiteStore.Options, versions: [ManagedObjectModel] = []
    ) throws
        -> any PersistentStore
    {
        guard ServerStoreURL.isSupported else { throw ServerStoreURLError.unsupported }
        guard url.password == nil else { throw ServerStoreURLError.passwordInURL }
        #if PostgreSQL
        var serverOptions = PostgreSQLStore.Options()
        serverOptions.readOnly = options.readOnly
        serverOptions.tracksHistory = options.tracksHistory
        serverOptions.passesThroughUnregisteredTransformers = options.passesThroughUnregisteredTransformers
        serverOptions.modelVersions = versions
        return try PostgreSQLStore(model: model, conninfo: url.absoluteString, options: serverOptions)
        #else
        throw ServerStoreURLError.unsupported
        #endif
    }
}

extension PersistentContainer {
    /// Migrates the store at a server store's URL to `destination`, from the one of
    /// `versions` that wrote it, in one transaction, and returns the plans it ran (none when
    /// the store was current); with `dryRun` the migration is rolled back. What
    /// `persistence-tool store migrate` does with a `postgresql://` store.
    ///
    /// - Throws: `ServerStoreURLError` for a URL holding a password, or in a build without
    ///   PostgreSQL support; `MigrationError` when the store cannot be migrated (it is left
    ///   as it was); the PostgreSQL store's errors otherwise.
    package static func migrateServerStore(
        url: URL, to destination: ManagedObjectModel, versions: [ManagedObjectModel], dryRun: Bool
    ) throws -> [MigrationPlan] {
        guard ServerStoreURL.isSupported else { throw ServerStoreURLError.unsupported }
        guard url.password == nil else { throw ServerStoreURLError.passwordInURL }
        #if PostgreSQL
        return try PostgreSQLStore.migrate(
            conninfo: url.absoluteString, to: destination, versions: versions, dryRun: dryRun)
        #else
        throw ServerStoreURLError.unsupported
        #endif
    }
}
