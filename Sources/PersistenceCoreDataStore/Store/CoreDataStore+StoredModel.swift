import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles

extension CoreDataStore {
    /// The model Core Data compiled into the store at `url` (its `Z_MODELCACHE`), read
    /// without leaving anything beside the file: how a store opens without its model file.
    ///
    /// Every way the cache can fail to give a model (no `Z_MODELCACHE` table, an empty one,
    /// a DEFLATE stream or archive that cannot be read, a model that is not valid) is one
    /// `CoreDataStoreError` naming the store and what is wrong.
    ///
    /// - Throws: `CoreDataStoreError` for a file that is not a Core Data store or whose
    ///   compiled model cannot be read; `SQLiteError` for a file SQLite cannot open.
    package static func storedModel(at url: URL) throws -> ManagedObjectModel {
        let path = url.path
        guard isCoreDataStore(at: url) else {
            throw CoreDataStoreError(path: path, "it has no Z_PRIMARYKEY and Z_METADATA tables", isNotACoreDataStore: true)
        }
        let database = try StoreFile.openForReading(path, busyTimeout: 1)
        defer { try? database.close() }
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'")
        guard !tables.isEmpty else {
            throw CoreDataStoreError(path: path, "it keeps no compiled model (it has no Z_MODELCACHE table); give the model file")
        }
        let cache: Data?
        do {
            cache = try database.query("SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1")
                .first?.first?.dataValue
        } catch let error as SQLiteError {
            throw CoreDataStoreError(path: path, "its Z_MODELCACHE table can't be read (\(error.message))")
        }
        guard let cache, !cache.isEmpty else {
            throw CoreDataStoreError(path: path, "it keeps no compiled model (Z_MODELCACHE is empty); give the model file")
        }
        let model: ManagedObjectModel
        do { model = try CompiledModel.model(fromModelCache: cache) } catch {
            throw CoreDataStoreError(path: path, "its compiled model (Z_MODELCACHE) can't be read: \(error)")
        }
        do { try model.freeze() } catch {
            let reason = "\(error)".replacingOccurrences(of: "\n", with: " ")
            throw CoreDataStoreError(path: path, "its compiled model (Z_MODELCACHE) is not a valid model: \(reason)")
        }
        return model
    }
}
