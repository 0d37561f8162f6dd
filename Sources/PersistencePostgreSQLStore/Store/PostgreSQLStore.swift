#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// A persistent store in a PostgreSQL database, for one model: the store that lets many
/// machines share one catalogue.
///
/// The store lives in one schema of a database (`public` unless `Options.schema` says
/// otherwise), laid out as the SQLite store lays out its file (see `PGSchema`), with its
/// metadata, key counters, tombstones and persistent history in tables beside the rows.
/// Opening checks before creating anything: a schema holding other tables, or a store of
/// another model, is refused and left as it was. A store written with one of
/// `Options.modelVersions` is migrated by lightweight migration in the transaction that
/// opens it (see `migrateIfNeeded`).
///
/// ## Concurrency
/// A save runs in one `READ COMMITTED` transaction with explicit row versions: a save first
/// reads the versions of the rows it changes with `SELECT … FOR UPDATE` (see
/// `currentVersions`), which locks them until it commits, so a conflict another process
/// commits in between is either seen (and reported by the context's merge policy) or waits
/// for this save. `SERIALIZABLE` would refuse more (any read-write dependency) and make
/// every refusal a retry the user did not ask for; row versions refuse exactly the
/// conflicting objects, as Core Data's optimistic locking does.
///
/// ## Connections
/// A store value is one connection (`PGConnection`), used by one thread at a time; the
/// coordinator opens readers with `openReader()`, each its own connection, so its pool is
/// a pool of server connections. Each read runs in one `REPEATABLE READ` transaction: one
/// snapshot. Statements time out (`Options.statementTimeout`). A connection the server
/// dropped (a restart) fails the save it was running, which rolls back on the server as a
/// whole and leaves the context's changes for the user to save again; the next operation
/// connects again, and one that finds the drop before sending anything connects first.
/// A save is never retried behind the caller's back; a read is run once more on a new
/// connection (see `reading`), since it changes nothing.
package final class PostgreSQLStore {
    /// Options for opening a store.
    package struct Options: Sendable {
        /// The schema (namespace) of the database that holds the store.
        package var schema = "public"
        /// Milliseconds after which the server cancels a statement.
        package var statementTimeout = 30_000
        /// Whether the store records a persistent history of its transactions.
        package var tracksHistory = false
        /// Open an existing store without writing to it.
        package var readOnly = false
        /// Allow transformable attributes whose transformer is not registered.
        package var passesThroughUnregisteredTransformers = false
        /// The model versions the store may have been written with, oldest first: a store
        /// written with one of them is migrated to the model by lightweight migration as it
        /// opens (Core Data's `shouldMigrateStoreAutomatically` and
        /// `shouldInferMappingModelAutomatically`, both on; see `migrateIfNeeded`). Empty:
        /// a store of another version is refused, as the store of another model.
        package var modelVersions: [ManagedObjectModel] = []

        package init() {}
    }

    /// The connection.
    package let connection: PGConnection
    /// Whether opening migrated the store from one of `Options.modelVersions`.
    package private(set) var migratedOnOpen = false
    /// The frozen model.
    package let model: ManagedObjectModel
    /// The mapping of the model onto tables.
    package let schema: PGSchema
    /// The options it was opened with.
    package let options: Options
    /// The connection string, without any password (none is ever taken from it).
    package let conninfo: String
    /// The store's unique identifier, recorded when it was created.
    package private(set) var identifier: String = ""
    package let isReadOnly: Bool
    package internal(set) var tracksHistory = false
    /// Whether the history's changes are known to have their `"previousValues"` column
    /// (see `historyKeepsPreviousValues`).
    var historyHasPreviousValues = false
    /// How many write groups (`performWriteGroup`) are open: inside one, each write is a
    /// savepoint of the group's transaction.
    var writeGroupDepth = 0
    /// Whether the trigram indexes exist (the `pg_trgm` extension could be created).
    package internal(set) var hasTrigramIndexes = false
    /// Whether fetches compile predicates and sorts to SQL (see `PGFetch`): only on a
    /// database whose encoding is UTF-8, where text compares and matches by code point.
    package internal(set) var compilesFetches = false
    /// Rows read from the server by fetches so far, for tests that check a fetch's work.
    package internal(set) var rowsRead = 0
    /// Top-level terms of fetch predicates the server could not answer exactly, which the
    /// fetches that ran evaluated in memory instead (see `PGFetch`), so far: how often a fetch
    /// falls back, for tests and benchmarks.
    package internal(set) var fetchTermsLeftToMemory = 0
    private var idScopes: [String: ObjectID.Scope] = [:]
    /// Names this store and its readers in the notifications its saves send, so that its
    /// own coordinator's listener passes them over (see `PGSaveListener`).
    package let sessionToken: String

    static let formatName = "Persistence PostgreSQL store 1"
    /// The values of deleted objects' attributes marked "preserve after deletion".
    static let tombstoneTable =
        "CREATE TABLE IF NOT EXISTS _tombstone (\"_id\" bigserial PRIMARY KEY, entity text NOT NULL, "
        + "\"objectKey\" bigint NOT NULL, \"deletedAt\" double precision NOT NULL, \"values\" text NOT NULL)"

    /// Connects to the server at `conninfo` (a `postgresql://` URL or libpq's `key=value`
    /// pairs) and opens the store in its schema, creating it when the schema has no tables.
    ///
    /// - Throws: `PostgreSQLError` when the server cannot be reached or refuses;
    ///   `PostgreSQLStoreError` for a schema holding something else or a store of another
    ///   model, or a missing value transformer.
    package init(model: ManagedObjectModel, conninfo: String, options: Options = Options()) throws {
        try model.freeze()
        self.model = model
        self.schema = PGSchema(model: model)
        self.options = options
        self.conninfo = conninfo
        self.isReadOnly = options.readOnly
        sessionToken = UUID().uuidString
        if !options.passesThroughUnregisteredTransformers { try Self.checkTransformers(model) }
        connection = try PGConnection(conninfo: conninfo, statementTimeout: options.statementTimeout)
        do {
            if options.schema != "public" && !options.readOnly {
                try connection.execute("CREATE SCHEMA IF NOT EXISTS \(pgIdentifier(options.schema))")
            }
            try useSchema()
            try open()
        } catch {
            connection.close()
            throw error
        }
    }

    /// A reading connection to the same store (see `openReader()`).
    private init(readerOf store: PostgreSQLStore) throws {
        model = store.model
        schema = store.schema
        options = store.options
        conninfo = store.conninfo
        isReadOnly = true
        sessionToken = store.sessionToken
        identifier = store.identifier
        tracksHistory = store.tracksHistory
        hasTrigramIndexes = store.hasTrigramIndexes
        compilesFetches = store.compilesFetches
        connection = try PGConnection(conninfo: conninfo, statementTimeout: options.statementTimeout)
        do { try useSchema() } catch {
            connection.close()
            throw error
        }
    }

    package func close() throws { connection.close() }

    /// The database and schema, for messages.
    package var location: String {
        let database = (try? connection.scalar("SELECT current_database()")) ?? nil
        return "\(database ?? "?")/\(options.schema)"
    }

    private func useSchema() throws {
        try connection.execute("SET search_path TO \(pgIdentifier(options.schema)), public")
    }

    /// Connects again when the server dropped the connection (a restart), restoring the
    /// session's schema: before an operation sends anything (see
    /// `PGConnection.reconnectIfNeeded`).
    func reconnectIfNeeded() throws {
        guard try connection.reconnectIfNeeded() else { return }
        do { try useSchema() } catch {
            // A session without the schema must not be taken for a ready one.
            connection.close()
            throw error
        }
    }

    // MARK: - Opening

    private func open() throws {
        var created = false
        try connection.inTransaction {
            // Two processes creating one store: the second waits here, then finds it made.
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("persistence:" + options.schema)])
            let tables = try connection.query(
                "SELECT tablename FROM pg_tables WHERE schemaname = $1", [.text(options.schema)]
            ).compactMap { $0.first ?? nil }
            if tables.isEmpty {
                if isReadOnly { throw PostgreSQLStoreError.readOnly(database: location) }
                try createSchema()
                created = true
            } else {
                try check(tables: Set(tables))
                identifier = try metadata("storeUUID") ?? ""
            }
        }
        if !isReadOnly {
            if options.tracksHistory { try startTrackingHistory() }
            if created { try createSearchIndexes() }
        }
        tracksHistory = try storeTracksHistory()
        hasTrigramIndexes = try metadata("trigramIndexes") == "1"
        compilesFetches = try connection.scalar("SHOW server_encoding") == "UTF8"
    }

    private func check(tables: Set<String>) throws {
        guard tables.contains("_metadata"), try metadata("format") == Self.formatName else {
            throw PostgreSQLStoreError.notAPersistenceStore(database: location)
        }
        let stored = try storedVersionHashes()
        let current = MigrationPlan.recordedVersionHashes(of: model)
        if stored != current, try migrateIfNeeded(from: stored) {
            migratedOnOpen = true
            return
        }
        let differences = MigrationPlan.differences(stored: stored, current: current)
        if !differences.isEmpty { throw PostgreSQLStoreError.incompatibleModel(database: location, differences: differences) }
    }

    private func createSchema() throws {
        try connection.execute("CREATE TABLE _metadata (key text PRIMARY KEY, value text)")
        try connection.execute("CREATE TABLE _primarykey (\"tableName\" text PRIMARY KEY, \"lastKey\" bigint NOT NULL)")
        try connection.execute(Self.tombstoneTable)
        for statement in schema.createStatements { try connection.execute(statement) }
        identifier = UUID().uuidString
        try setMetadata("format", Self.formatName)
        try setMetadata("storeUUID", identifier)
        if let version = model.versionIdentifier { try setMetadata("modelVersion", version) }
        for (name, hash) in MigrationPlan.recordedVersionHashes(of: model) {
            try setMetadata("versionHash.\(name)", hash)
        }
    }

    /// Creates `pg_trgm` and the search's GIN indexes, in a transaction of their own: a
    /// server without `postgresql-contrib`, or a user who may not create the extension,
    /// leaves a store that searches by scanning.
    private func createSearchIndexes() throws {
        let statements = schema.searchIndexStatements
        guard !statements.isEmpty else { return }
        do {
            try connection.inTransaction {
                try connection.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
                for statement in statements { try connection.execute(statement) }
                try setMetadata("trigramIndexes", "1")
            }
        } catch let error as PostgreSQLError where !error.isConnectionLost {
            return
        }
    }

    private static func checkTransformers(_ model: ManagedObjectModel) throws {
        for entity in model.entities {
            for attribute in entity.attributes where attribute.type == .transformable {
                if let name = attribute.valueTransformerName, ValueTransformers.transformer(forName: name) == nil {
                    throw PostgreSQLStoreError.missingValueTransformer(name: name, attribute: "\(entity.name).\(attribute.name)")
                }
            }
        }
    }

    // MARK: - Metadata

    package func metadata(_ key: String) throws -> String? {
        try connection.scalar("SELECT value FROM _metadata WHERE key = $1", [.text(key)])
    }

    package func setMetadata(_ key: String, _ value: String) throws {
        try connection.execute(
            "INSERT INTO _metadata (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(PGRowCodec.escape(value))])
    }

    // MARK: - Transactions

    /// Runs `body` in one read snapshot (`REPEATABLE READ`), or in the write transaction
    /// already open on this connection.
    ///
    /// A read whose connection the server drops (a restart, an administrator ending the
    /// session) connects again and runs once more: it changes nothing, and hands nothing on
    /// before it has read everything, so running it again is not a retry its caller could
    /// tell from a first try. A second failure (the server still down) is thrown. A read
    /// inside a save is never run again: the save fails as a whole.
    func reading<T>(_ body: () throws -> T) throws -> T {
        if connection.inTransaction { return try body() }
        try reconnectIfNeeded()
        do {
            return try connection.inTransaction("REPEATABLE READ READ ONLY", body)
        } catch let error as PostgreSQLError where error.isConnectionLost {
            try reconnectIfNeeded()
            return try connection.inTransaction("REPEATABLE READ READ ONLY", body)
        }
    }

    /// Runs `body`, which sends ONE statement, without a transaction of its own: a single
    /// statement reads one snapshot of the database in autocommit, so that BEGIN and COMMIT
    /// would only add two round trips to the server. Inside an open transaction (a write,
    /// or `reading`), it joins it. A read of several statements uses `reading` instead.
    func readingOneStatement<T>(_ body: () throws -> T) throws -> T {
        if connection.inTransaction { return try body() }
        try reconnectIfNeeded()
        do {
            return try body()
        } catch let error as PostgreSQLError where error.isConnectionLost {
            try reconnectIfNeeded()
            return try body()
        }
    }

    /// Runs `body`, which sends `statements` statements, in one snapshot: `reading` for
    /// several, `readingOneStatement` for one or none.
    func reading<T>(statements: Int, _ body: () throws -> T) throws -> T {
        statements > 1 ? try reading(body) : try readingOneStatement(body)
    }

    /// Runs `body` in one write transaction.
    func writing<T>(_ body: () throws -> T) throws -> T {
        if isReadOnly { throw PostgreSQLStoreError.readOnly(database: location) }
        if writeGroupDepth > 0, !connection.isConnected {
            // The server rolled the group's transaction back with the session: a write now
            // would be a transaction of its own, committed without the group's others.
            throw PostgreSQLError(
                message: "the connection was lost during a group of writes; none of them was committed",
                sqlState: nil, isConnectionLost: true)
        }
        try reconnectIfNeeded()
        return try connection.inTransaction("READ COMMITTED", body)
    }

    /// The scope shared by the IDs of `entityName`'s objects in this store.
    package func idScope(entityName: String, rootName: String) -> ObjectID.Scope {
        if let scope = idScopes[entityName] { return scope }
        let scope = ObjectID.Scope(entityName: entityName, rootName: rootName, storeIdentifier: identifier)
        idScopes[entityName] = scope
        return scope
    }

    /// Another connection to the same store, for a coordinator's pool of readers.
    package func openReader() throws -> (any PersistentStore)? {
        try PostgreSQLStore(readerOf: self)
    }
}
#endif
