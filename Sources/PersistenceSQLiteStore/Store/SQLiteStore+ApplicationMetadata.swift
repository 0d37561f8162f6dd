import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    // MARK: - Application metadata

    /// Keys an application sets live under this prefix in `_metadata`, apart from the keys
    /// the store keeps for itself (format, identifier, version hashes, search indexes), so
    /// that no application key can overwrite one of the store's.
    static let applicationMetadataPrefix = "app."

    /// A value the application recorded in the store with
    /// ``setApplicationMetadata(_:forKey:)``, or nil; like Core Data's store metadata, it
    /// travels with the store file (and through migrations), not with any object.
    ///
    /// - Throws: `SQLiteError` if the store cannot be read.
    package func applicationMetadata(forKey key: String) throws -> String? {
        try metadata(Self.applicationMetadataPrefix + key)
    }

    /// Records `value` under `key` in the store's metadata, replacing what was there; one
    /// statement, committed on its own unless a transaction is open.
    ///
    /// - Throws: `SQLiteError` if the store cannot be written (read-only, locked, full).
    package func setApplicationMetadata(_ value: String, forKey key: String) throws {
        try setMetadata(Self.applicationMetadataPrefix + key, value)
    }

    /// Whether the store has ever held an object of `entityName` (or of its root's
    /// family): true once a save has committed one, even if every one has been deleted since,
    /// because primary keys are never reused (see ``allocatePrimaryKeys(table:count:)``).
    ///
    /// - Throws: `SQLiteError` if the store cannot be read.
    package func hasEverStoredObjects(entityName: String) throws -> Bool {
        guard let mapping = schema.entities[entityName] else { return false }
        let table = mapping.table.name
        if case .integer(let last) = try database.scalar(
            "SELECT lastKey FROM _primarykey WHERE tableName = ?", [.text(table)])
        {
            return last > 0
        }
        return (try database.scalar("SELECT max(_id) FROM \(sqlIdentifier(table))").int64Value ?? 0) > 0
    }
}
