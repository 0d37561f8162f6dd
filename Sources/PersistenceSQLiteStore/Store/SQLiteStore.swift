import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// A persistent store in an SQLite file (or in memory) for one model.
///
/// The store maps the model onto tables (see `StoreSchema`), records the model's version
/// hashes in `_metadata`, and reads and writes rows. It knows nothing of contexts or
/// managed objects: the context turns objects into rows and back.
///
/// Opening a file checks it before changing anything: a path that is not a regular file, a
/// file that is not an SQLite database, an SQLite database that is not a Persistence store,
/// or a store written with a different model is refused and left byte-for-byte as it was,
/// with no `-wal` or `-shm` file beside it (it is inspected through a connection that
/// leaves none, see `StoreFile.readingMode`). Opening freezes the model.
///
/// A store is not Sendable: it is one SQLite connection, used by one thread at a time. The
/// coordinator gives each reading thread a connection of its own (`openReader()`).
package final class SQLiteStore {
    /// Options for opening a store.
    package struct Options: Sendable {
        /// Values of attributes that allow external storage go to files beside the store
        /// when they are larger than this many bytes (see `ExternalDataStore`).
        package var externalStorageThreshold = ExternalDataStore.defaultThreshold
        /// Open an existing store without writing to it.
        package var readOnly = false
        /// Allow transformable attributes whose named transformer is not registered; their
        /// values pass through as `TransformableBytes`. For tools that read any model.
        package var passesThroughUnregisteredTransformers = false
        /// Whether the first write of a connection checks the file first and refuses a
        /// damaged one (see `verifyBeforeWriting`).
        package var verifiesBeforeWriting = true
        /// How long a writer waits for another process's lock, in seconds.
        package var busyTimeout: Double = 10
        /// Whether the store records a persistent history of its transactions (Core Data's
        /// `NSPersistentHistoryTrackingKey`): a store opened with it gains the history's
        /// tables, and keeps tracking whoever opens it next (see `SQLiteStore+History`).
        package var tracksHistory = false

        /// Default options.
        package init() {}
    }

    /// The SQLite connection.
    package let database: Database
    /// The frozen model.
    package let model: ManagedObjectModel
    /// The mapping of the model onto tables.
    package let schema: StoreSchema
    /// The files beside the store that hold large binary values, or nil for an in-memory
    /// store (which keeps every value in its row).
    package let externalData: ExternalDataStore?
    /// The store file's path, or nil for an in-memory store.
    package let path: String?
    /// How long a connection waits for another's lock, in seconds (`Options.busyTimeout`).
    let busyTimeout: Double
    /// The `regexp` function's compiled patterns; it also keeps the match last abandoned
    /// past its step budget, so that the statement it failed is reported as that.
    let regexCache = RegularExpressionCache()
    /// The hierarchy tables found to hold no row whose `_entity` names no entity, checked
    /// once per connection (see `refuseUnplacedRows`), not before every fetch.
    var tablesWithEveryRowPlaced: Set<String> = []
    /// Whether the store was opened for reading only: asked to (`Options.readOnly`), or
    /// because this process cannot write the file or its directory. Writes then fail.
    package private(set) var isReadOnly = false
    /// Whether the file passed `verifyBeforeWriting` (or needs no check: a new store, or
    /// `Options.verifiesBeforeWriting` off).
    var isVerifiedForWriting = false
    /// Whether every table of rows has its version column (`_opt`): false only for a store
    /// written before the column existed and opened read-only, whose rows all read as
    /// version 1 (see `SQLiteStore+Versions`).
    package internal(set) var hasVersionColumns = true
    /// The store's unique identifier, recorded when it was created.
    package private(set) var identifier: String = "" {
        didSet { idScopes.removeAll() }
    }
    /// The scopes of this store's object IDs, by entity name (see `idScope(entityName:rootName:)`).
    private var idScopes: [String: ObjectID.Scope] = [:]
    /// Whether searches can use the search indexes: false only for a read-only store whose
    /// indexes are missing or stale (see `prepareSearchIndexes`), which searches by scanning.
    /// Setting it to false makes searches scan (for measuring the index against a scan).
    package var searchIndexesAreUsable = false
    /// How many top-level `AND` terms of fetched predicates the relational core did not
    /// answer, so that the store's own `PredicateSQLCompiler` wrote them (still in SQL: the
    /// SQLite store leaves nothing to memory). Tests read it to check that a form stays the
    /// core's, as `PostgreSQLStore.fetchTermsLeftToMemory` checks the PostgreSQL store's.
    package internal(set) var fetchTermsOutsideCore = 0
    /// Whether the store records its transactions in its persistent history: it was opened
    /// with `Options.tracksHistory` now or before (see `SQLiteStore+History`).
    package internal(set) var tracksHistory = false
    /// How many write groups (`performWriteGroup`) this connection is inside: while one is
    /// open, each write transaction is a savepoint of the group's (see `writeTransaction`).
    var writeGroupDepth = 0

    static let formatName = "Persistence SQLite store 1"

    /// Opens the store at `url`, creating it if the file does not exist, or an in-memory
    /// store when `url` is nil.
    ///
    /// - Throws: `ModelError` for an invalid model; `StoreError` for a missing directory, a
    ///   path that is not a regular file (checked before SQLite sees it, see `StoreFile`), a
    ///   file that is not a Persistence store or was written with another model, or a
    ///   missing value transformer; `SQLiteError` for a file SQLite cannot open (not a
    ///   database, damaged, locked, unreadable).
    package init(model: ManagedObjectModel, url: URL?, options: Options = Options()) throws {
        try model.freeze()
        self.model = model
        busyTimeout = options.busyTimeout
        let schema = StoreSchema(model: model)
        self.schema = schema
        if !options.passesThroughUnregisteredTransformers { try Self.checkTransformers(model) }
        externalData = url.map {
            ExternalDataStore(
                storePath: $0.path, threshold: options.externalStorageThreshold, schema: schema)
        }
        guard let url else {
            path = nil
            isVerifiedForWriting = true
            database = try Database.inMemory()
            try registerFunctions()
            try createSchema(tracksHistory: options.tracksHistory)
            if options.tracksHistory { try startTrackingHistory() }
            try prepareSearchIndexes(readOnly: false)
            return
        }
        let path = url.path
        self.path = path
        // A FIFO, a device or a directory is refused before SQLite opens it (see StoreFile).
        let exists = try StoreFile.check(path)
        // A store this process cannot write (a read-only file, directory or file system)
        // is opened for reading, as SQLite opens a write-protected file: reading works, and
        // a write fails with SQLITE_READONLY before anything changes (`writeTransaction`).
        let readOnly = options.readOnly || (exists && !StoreFile.isWritable(path))
        isReadOnly = readOnly
        isVerifiedForWriting = !options.verifiesBeforeWriting
        var isNew = !exists
        if exists {
            // Inspect the file before anything may write to it, in a way that leaves no
            // -wal or -shm file beside a file we refuse (see StoreFile.readingMode).
            let probe = try StoreFile.openForReading(path, busyTimeout: options.busyTimeout)
            defer { try? probe.close() }
            isNew = try Self.check(probe, path: path, model: model)
            if isNew && readOnly { throw Self.readOnlyError(path: path) }
        }
        if readOnly {
            database = try StoreFile.openForReading(path, busyTimeout: options.busyTimeout)
        } else {
            database = try Database(path: path, mode: .createIfMissing, busyTimeout: options.busyTimeout)
        }
        do {
            try registerFunctions()
            if isNew {
                try createSchema(tracksHistory: options.tracksHistory && !readOnly)
                isVerifiedForWriting = true
            } else {
                identifier = try metadata("storeUUID") ?? ""
                if !readOnly { try createMissingJoinTables() }
                try prepareVersionColumns(readOnly: readOnly)
            }
            try prepareHistory(tracking: options.tracksHistory, readOnly: readOnly)
            try prepareSearchIndexes(readOnly: readOnly)
        } catch {
            // The files are left in place even when this call created them: another process
            // may be creating the same store at this moment (in WAL mode its writes sit in
            // the -wal file while the main file is still empty), and removing them would
            // lose its work. A database without tables is taken for a new store next time.
            try? database.close()
            throw error
        }
        // Files a crash left without a row (see ExternalDataStore); a new store has none.
        if !isNew, !readOnly {
            do { try sweepExternalData() } catch {
                try? database.close()
                throw error
            }
        }
    }

    /// A reading connection to the same file as `store`, sharing its model and mapping (see
    /// `openReader()`). It writes nothing: its external data is only read, and it opens the
    /// file as every reader of an existing store does (`StoreFile.readingMode`).
    init(readerOf store: SQLiteStore, path: String) throws {
        model = store.model
        schema = store.schema
        self.path = path
        busyTimeout = store.busyTimeout
        externalData = store.externalData.map {
            ExternalDataStore(storePath: path, threshold: $0.threshold, schema: store.schema)
        }
        isReadOnly = true
        isVerifiedForWriting = true
        hasVersionColumns = store.hasVersionColumns
        identifier = store.identifier
        searchIndexesAreUsable = store.searchIndexesAreUsable
        tracksHistory = store.tracksHistory
        database = try StoreFile.openForReading(path, busyTimeout: busyTimeout)
        do { try registerFunctions() } catch {
            try? database.close()
            throw error
        }
    }

    /// Closes the store's connection.
    package func close() throws { try database.close() }

    /// The error for a write to a store opened for reading only: SQLite's own
    /// `SQLITE_READONLY`, naming the file, thrown before anything is written.
    package static func readOnlyError(path: String?) -> SQLiteError {
        SQLiteError(
            extendedCode: SQLiteResultCode.readOnly,
            message: "opened for reading only: this process cannot write the store file or its "
                + "directory, or it was asked to only read",
            path: path)
    }

    // MARK: - Opening

    /// Checks an existing file: returns true when it is an empty database that can become a
    /// new store, false when it is this model's store.
    private static func check(_ db: Database, path: String, model: ManagedObjectModel) throws -> Bool {
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.isEmpty { return true }
        let names = Set(tables.compactMap { $0.first?.textValue })
        guard names.contains("_metadata"),
            case .text(let format) = try db.scalar("SELECT value FROM _metadata WHERE key = 'format'"),
            format == formatName
        else { throw StoreError.notAPersistenceStore(path: path) }
        var stored: [String: String] = [:]
        for row in try db.query("SELECT key, value FROM _metadata WHERE key LIKE 'versionHash.%'") {
            if case .text(let key) = row[0], case .text(let value) = row[1] {
                stored[String(key.dropFirst("versionHash.".count))] = value
            }
        }
        let current = MigrationPlan.recordedVersionHashes(of: model)
        let differences = MigrationPlan.differences(stored: stored, current: current)
        if !differences.isEmpty { throw StoreError.incompatibleModel(path: path, differences: differences) }
        return false
    }

    private static func checkTransformers(_ model: ManagedObjectModel) throws {
        for entity in model.entities {
            for attribute in entity.attributes where attribute.type == .transformable {
                if let name = attribute.valueTransformerName,
                    ValueTransformers.transformer(forName: name) == nil
                {
                    throw StoreError.missingValueTransformer(name: name, attribute: "\(entity.name).\(attribute.name)")
                }
            }
        }
    }

    /// Creates the tables, the search indexes and, when `tracksHistory`, the history's tables
    /// in one transaction, so that a process killed while creating the store leaves either
    /// no store or a whole one; unless another process created the store between our first
    /// look and our write lock: then the store it made is checked and used, as if it had
    /// been there.
    private func createSchema(tracksHistory: Bool) throws {
        try database.inTransaction(.immediate) {
            if let path, try !Self.check(database, path: path, model: model) {
                identifier = try metadata("storeUUID") ?? ""
                return
            }
            try database.execute("CREATE TABLE _metadata (key TEXT PRIMARY KEY, value)")
            try database.execute(
                "CREATE TABLE _primarykey (tableName TEXT PRIMARY KEY, lastKey INTEGER NOT NULL)")
            for statement in schema.createStatements { try database.execute(statement) }
            identifier = UUID().uuidString
            try setMetadata("format", Self.formatName)
            try setMetadata("storeUUID", identifier)
            if let version = model.versionIdentifier { try setMetadata("modelVersion", version) }
            for (name, hash) in model.entityVersionHashesByName {
                try setMetadata("versionHash.\(name)", hash.hexString)
            }
            for index in schema.searchIndexes.values { try createSearchIndex(index, fillingFromTable: false) }
            if tracksHistory { try createHistoryTables() }
        }
    }

    private func registerFunctions() throws {
        try database.createCollation("DECIMAL") { DecimalText.compare($0, $1) }
        try DecimalAggregate.register(on: database)
        try database.createFunction("canonical", argumentCount: 1) { arguments in
            guard case .text(let text) = arguments[0] else { return arguments[0] }
            return .text(CanonicalText.fold(text))
        }
        // `[c]` (1) and `[d]` (2) folding for compiled predicates, exactly as in memory.
        try database.createFunction("predicate_fold", argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0], case .integer(let bits) = arguments[1] else { return arguments[0] }
            return .text(PredicateEvaluator.fold(text, PredicateNode.Options(rawValue: UInt8(truncatingIfNeeded: bits))))
        }
        // A search's ranking, exactly as `SearchText.rank` ranks objects in memory.
        try database.createFunction("search_rank", argumentCount: -1) { arguments in
            .integer(Int64(SearchText.rank(phrase: arguments.first?.textValue, fields: arguments.dropFirst().map(\.textValue))))
        }
        // `regexp(pattern, text[, shown pattern])`: MATCHES, within the step budget of
        // `RegularExpressionBudget`. Past it the function fails, which aborts the statement
        // (an error result of the function); `surfacingRegexFailure` reports it as the predicate's error.
        let regexCache = self.regexCache
        for argumentCount: Int32 in [2, 3] {
            try database.createFunction("regexp", argumentCount: argumentCount) { arguments in
                guard case .text(let pattern) = arguments[0], case .text(let text) = arguments[1] else {
                    return .null
                }
                let shown = arguments.count > 2 ? arguments[2].textValue : nil
                return .integer(try regexCache.matches(pattern: pattern, text: text, shownPattern: shown) ? 1 : 0)
            }
        }
    }

    // MARK: - Metadata

    /// A metadata value by key.
    package func metadata(_ key: String) throws -> String? {
        try database.scalar("SELECT value FROM _metadata WHERE key = ?", [.text(key)]).textValue
    }

    /// Sets a metadata value.
    package func setMetadata(_ key: String, _ value: String) throws {
        try database.execute(
            "INSERT INTO _metadata (key, value) VALUES (?, ?) "
                + "ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(key), .text(value)])
    }
}

extension SQLiteStore {
    /// The scope shared by the IDs of `entityName`'s objects in this store: made once per
    /// entity, so that the IDs of fetched and inserted objects need no strings of their own.
    package func idScope(entityName: String, rootName: String) -> ObjectID.Scope {
        if let scope = idScopes[entityName] { return scope }
        let scope = ObjectID.Scope(entityName: entityName, rootName: rootName, storeIdentifier: identifier)
        idScopes[entityName] = scope
        return scope
    }
}
