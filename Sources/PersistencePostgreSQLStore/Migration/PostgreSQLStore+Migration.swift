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
        do {
            let plans = try Self.runPlans(
                from: stored, to: model, versions: versions, on: connection, namespace: options.schema)
            return !plans.isEmpty
        } catch let error as MigrationError where error.kind == .unknownSourceModel {
            return false
        } catch var error as MigrationError {
            error.path = location
            throw PostgreSQLStoreError.cannotMigrate(database: location, reason: error.description)
        }
    }

    /// Migrates the store in `schema` of the database at `conninfo` to `model`, from the
    /// one of `versions` that wrote it, and returns the plans it ran (none when the store
    /// was at `model` already): what `persistence-tool store migrate` does with a store on a
    /// server. With `dryRun`, the migration runs and is rolled back, so that data the new
    /// model refuses is found and nothing is changed.
    ///
    /// - Throws: `MigrationError` (naming the database and schema) when none of `versions`
    ///   wrote the store, a change cannot be inferred, or the data refuses it (the database
    ///   is then as it was); `PostgreSQLStoreError.notAPersistenceStore` for a schema that
    ///   holds no store; `PostgreSQLError` when the server cannot be reached.
    package static func migrate(
        conninfo: String, schema: String = "public", to model: ManagedObjectModel, versions: [ManagedObjectModel],
        dryRun: Bool = false
    ) throws -> [MigrationPlan] {
        try model.freeze()
        let connection = try PGConnection(conninfo: conninfo)
        defer { connection.close() }
        try connection.execute("SET search_path TO \(pgIdentifier(schema)), public")
        let location = "\(try connection.scalar("SELECT current_database()") ?? "?")/\(schema)"
        struct RolledBack: Error { let plans: [MigrationPlan] }
        do {
            return try connection.inTransaction {
                try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("persistence:" + schema)])
                let hasMetadata = try connection.scalar(
                    "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = '_metadata'", [.text(schema)]) == "1"
                guard hasMetadata,
                    try connection.scalar("SELECT value FROM _metadata WHERE key = 'format'") == formatName
                else { throw PostgreSQLStoreError.notAPersistenceStore(database: location) }
                let plans = try runPlans(
                    from: try storedVersionHashes(on: connection), to: model, versions: versions, on: connection,
                    namespace: schema)
                if dryRun { throw RolledBack(plans: plans) }
                return plans
            }
        } catch let done as RolledBack {
            return done.plans
        } catch var error as MigrationError {
            error.path = location
            throw error
        }
    }

    /// Infers the plans from the version whose hashes are `stored` to `model` and runs
    /// them on `connection`, inside the caller's transaction.
    private static func runPlans(
        from stored: [String: String], to model: ManagedObjectModel, versions: [ManagedObjectModel],
        on connection: PGConnection, namespace: String
    ) throws -> [MigrationPlan] {
        let plans = try MigrationPlan.plans(
            fromVersionHashes: stored, to: model, versions: versions,
            recordedVersion: try connection.scalar("SELECT value FROM _metadata WHERE key = 'modelVersion'")
                .map(PGRowCodec.unescape))
        for plan in plans {
            try PGMigrationExecutor(plan: plan, connection: connection, namespace: namespace).run()
        }
        return plans
    }

    /// The version hashes the store records, by entity name.
    func storedVersionHashes() throws -> [String: String] {
        try Self.storedVersionHashes(on: connection)
    }

    private static func storedVersionHashes(on connection: PGConnection) throws -> [String: String] {
        var stored: [String: String] = [:]
        for row in try connection.query("SELECT key, value FROM _metadata WHERE key LIKE 'versionHash.%'") {
            if let key = row[0], let value = row[1] { stored[String(key.dropFirst("versionHash.".count))] = value }
        }
        return stored
    }
}
#endif
