import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// The external-data files (see `ExternalDataStore`) a migration reads and writes when it
/// re-encodes values that are kept in files beside the store.
///
/// Files are read from the store's own folder and written beside the database being
/// migrated: the same folder for a migration, a temporary one for a dry run (which works
/// on a copy of the database, with no copy of the files). A new value always gets a new
/// file; files the transaction wrote are removed if it rolls back. The files of the
/// values replaced stay until the next writable open sweeps them, so that
/// `<store>.pre-migration` keeps its files until then.
///
/// Not Sendable: it belongs to one migration.
final class MigrationFiles {
    /// Reads the files the store's rows reference.
    private let reader: ExternalDataStore
    /// Writes the files of re-encoded values.
    private let writer: ExternalDataStore

    /// The files of the store at `storePath`, for a migration of the database at
    /// `databasePath` (the same path, or a copy's for a dry run) with `schema`.
    init(storePath: String, databasePath: String, schema: StoreSchema) {
        reader = ExternalDataStore(storePath: storePath, threshold: ExternalDataStore.defaultThreshold, schema: schema)
        writer = storePath == databasePath
            ? reader
            : ExternalDataStore(storePath: databasePath, threshold: ExternalDataStore.defaultThreshold, schema: schema)
    }

    /// The bytes of a referenced file.
    ///
    /// - Throws: `StoreError.unreadableExternalData` naming the object, attribute and file.
    func read(_ reference: ExternalDataStore.Reference, object: String, attribute: String) throws -> Data {
        try reader.read(reference, object: object, attribute: attribute)
    }

    /// Writes `data` to a new file and returns its reference.
    ///
    /// - Throws: `StoreError.externalData` when the file cannot be written.
    func write(_ data: Data, attribute: String) throws -> ExternalDataStore.Reference {
        try writer.write(data, attribute: attribute)
    }

    /// Runs `body` (the migration's database transaction, which calls `prepareToCommit()`
    /// just before it commits); removes the files it wrote if it fails.
    func transaction<T>(_ body: () throws -> T) rethrows -> T {
        try writer.transaction(body)
    }

    /// Makes the files written so far durable.
    ///
    /// - Throws: `StoreError.externalData` when a file cannot be synced.
    func prepareToCommit() throws { try writer.prepareToCommit() }
}
