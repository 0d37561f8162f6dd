#if PostgreSQL
import PersistenceModel
import PersistenceStore

extension PostgreSQLStore {
    /// Migrates the store, opened inside the transaction that holds the store's advisory
    /// lock, from the version whose hashes it records (`stored`) to the model, when that is
    /// one of `Options.modelVersions` and the store is opened for writing; returns whether
    /// it did.
    ///
    /// The plans are inferred store-neutrally (`MigrationPlan`) and run by
    /// `PGMigrationExecutor` in the opening transaction: PostgreSQL's DDL is transactional,
    /// so the migration commits whole with the open, or rolls back and leaves the database
    /// exactly as it was. A second process opening the old store meanwhile waits on the
    /// advisory lock (`pg_advisory_xact_lock`), then finds it migrated: no one ever sees a
    /// half-migrated schema.
    ///
    /// - Returns: false when there are no versions, the store is read-only, or none of the
    ///   versions wrote it (opening then refuses it as the store of another model).
    /// - Throws: `PostgreSQLStoreError.cannotMigrate` when the change cannot be inferred or
    ///   the data refuses it (the transaction is rolled back).
    func migrateIfNeeded(from stored: [String: String]) throws -> Bool {
        let versions = options.modelVersions
        guard !versions.isEmpty, !isReadOnly else { return false }
        // Read now: after a failed statement the transaction answers no more queries.
        let location = self.location
        let plans: [MigrationPlan]
        do {
            plans = try MigrationPlan.plans(
                fromVersionHashes: stored, to: model, versions: versions,
                recordedVersion: try metadata("modelVersion").map(PGRowCodec.unescape))
        } catch let error as MigrationError where error.kind == .unknownSourceModel {
            return false
        } catch var error as MigrationError {
            error.path = location
            throw PostgreSQLStoreError.cannotMigrate(database: location, reason: error.description)
        }
        for plan in plans {
            do {
                try PGMigrationExecutor(plan: plan, connection: connection, namespace: options.schema).run()
            } catch var error as MigrationError {
                error.path = location
                throw PostgreSQLStoreError.cannotMigrate(database: location, reason: error.description)
            }
        }
        return !plans.isEmpty
    }

    /// The version hashes the store records, by entity name.
    func storedVersionHashes() throws -> [String: String] {
        var stored: [String: String] = [:]
        for row in try connection.query("SELECT key, value FROM _metadata WHERE key LIKE 'versionHash.%'") {
            if let key = row[0], let value = row[1] { stored[String(key.dropFirst("versionHash.".count))] = value }
        }
        return stored
    }
}
#endif
