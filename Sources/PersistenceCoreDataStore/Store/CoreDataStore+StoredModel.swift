import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteStore

extension CoreDataStore {
    /// The model Core Data compiled into the store at `url` (its `Z_MODELCACHE`), read
    /// without leaving anything beside the file: how a store opens without its model file.
    ///
    /// - Throws: `CoreDataStoreError` for a file that is not a Core Data store or has no
    ///   compiled model; `CoreDataFormatError` for a cache that cannot be read as a model;
    ///   `SQLiteError` for a file SQLite cannot open.
    package static func storedModel(at url: URL) throws -> ManagedObjectModel {
        let path = url.path
        guard isCoreDataStore(at: url) else {
            throw CoreDataStoreError(path: path, "it has no Z_PRIMARYKEY and Z_METADATA tables", isNotACoreDataStore: true)
        }
        let database = try StoreFile.openForReading(path, busyTimeout: 1)
        defer { try? database.close() }
        let cache = try database.query(
            "SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1").first?.first?.dataValue
        guard let cache, !cache.isEmpty else {
            throw CoreDataStoreError(path: path, "it keeps no compiled model (Z_MODELCACHE is empty); give the model file")
        }
        return try CompiledModel.model(fromModelCache: cache)
    }
}
