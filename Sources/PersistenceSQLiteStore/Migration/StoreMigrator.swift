import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Migrates a store file from the model version that wrote it to a newer one, by
/// lightweight migration.
///
/// ```swift
/// let migrator = try StoreMigrator(storeURL: url, modelBundle: bundleURL)  // current version
/// for plan in try migrator.plans() { print(plan) }                        // nothing written
/// try migrator.migrate()
/// ```
///
/// **Finding the source model.** The store's `_metadata` records the version hash of every
/// entity of the model that wrote it; the version whose hashes are equal is the source.
/// When the destination is one of the versions and comes later, the store goes through
/// every version in between (v1 → v2 → v3), so renaming identifiers that chain across
/// versions keep their values; otherwise it migrates directly. Every plan is inferred
/// before anything is touched: what cannot be inferred throws `MigrationError` and the
/// file stays byte-for-byte as it was.
///
/// **Safety.** Before migrating, the WAL is checkpointed into the store file and the file
/// is copied aside to `<store>.pre-migration` (see `backupURL(for:)`; an older copy is
/// replaced), with hard links to its external-data files in the copy's own folder
/// (`.<store>.pre-migration_SUPPORT`), so a user can always go back: open the copy, or copy
/// it and its folder over the store and the store's folder. The migration
/// then runs in one transaction: a failure mid-way (a uniqueness constraint that existing
/// objects violate, a to-many becoming to-one where an object has several destinations,
/// an I/O error) rolls it back, leaving the store exactly as it was, and removes the copy.
/// Afterwards the store records the new model's version hashes.
public struct StoreMigrator {
    /// The store file.
    public let storeURL: URL
    /// The model to migrate to.
    public let destination: ManagedObjectModel
    /// The model versions a store may have been written with, oldest first.
    public let versions: [ManagedObjectModel]
    /// How long to wait, in seconds, for other connections' locks (and for readers to let
    /// the write-ahead log be checkpointed) before giving up.
    public var busyTimeout: Double = 10
    /// Runs after the store is copied aside and before the migration takes the write lock
    /// (tests use it to write from another connection in between).
    package var afterCopyingAside: (() throws -> Void)?

    /// A migrator to `destination`, for a store written with one of `versions` (oldest first;
    /// `destination` may be among them).
    public init(storeURL: URL, destination: ManagedObjectModel, versions: [ManagedObjectModel]) {
        self.storeURL = storeURL
        self.destination = destination
        self.versions = versions
    }

    /// A migrator to a version of a `.xcdatamodeld` bundle (its current version by default),
    /// for a store written with any of the bundle's versions.
    ///
    /// - Throws: `ModelFileError` or `ModelError` when the bundle or one of its versions
    ///   cannot be read.
    public init(storeURL: URL, modelBundle: URL, version: String? = nil) throws {
        let names = try ManagedObjectModel.versionNames(in: modelBundle)
        let versions = try names.map { try ManagedObjectModel(contentsOf: modelBundle, version: $0) }
        let chosen = try version ?? ManagedObjectModel.currentVersionName(in: modelBundle) ?? names.last ?? ""
        let destination = zip(names, versions).first { $0.0 == chosen }?.1
        self.init(
            storeURL: storeURL,
            destination: try destination ?? ManagedObjectModel(contentsOf: modelBundle, version: chosen),
            versions: versions)
    }

    /// Where the copy of the store made before migrating goes: `<store>.pre-migration`
    /// beside it (`Books.sqlite` → `Books.sqlite.pre-migration`).
    public static func backupURL(for storeURL: URL) -> URL {
        storeURL.deletingLastPathComponent().appendingPathComponent(storeURL.lastPathComponent + ".pre-migration")
    }

    /// The plans that would migrate the store, in order; empty when it is already at the
    /// destination version. Reads the store without writing to it.
    ///
    /// - Throws: `MigrationError` when no version matches the store or a change cannot be
    ///   inferred; `StoreError` for a file that is not a Persistence store; `SQLiteError`
    ///   for a file SQLite cannot open.
    public func plans() throws -> [MigrationPlan] {
        // A FIFO or a device is refused before SQLite opens it (see StoreFile).
        try StoreFile.check(storeURL.path)
        let stored = try Self.storedVersionHashes(at: storeURL.path)
        let recorded = try Self.storedModelVersion(at: storeURL.path)
        do {
            if stored == destination.entityVersionHashesByName.mapValues(\.hexString) {
                // Value transformers are not part of version hashes: a version may change one
                // alone, which the version the store records tells.
                if let plan = try Self.transformerPlan(from: recorded, to: destination, versions: versions) {
                    return [plan]
                }
                // Indexes are not part of version hashes: a version may add or drop one alone.
                let existing = try Self.storedIndexNames(at: storeURL.path, tables: Set(stored.keys))
                return try MigrationPlan.indexSync(for: destination, existing: existing).map { [$0] } ?? []
            }
            return try Self.plans(from: stored, to: destination, versions: versions, recordedVersion: recorded)
        } catch var error as MigrationError {
            error.path = storeURL.path
            throw error
        }
    }

    /// Migrates the store to the destination version, if it is not there already, and
    /// returns the plans it ran (none when the store was current).
    ///
    /// - Throws: as `plans()`; `MigrationError` when existing data violates the new model
    ///   (the store is then as it was); `SQLiteError` when the file cannot be written.
    ///
    /// Migrations of one store by several processes (two `books` commands opening a store of
    /// the previous release at once) take turns (see `MigrationLock`): the plans are read
    /// once the turn has come, so the second finds the store migrated and does nothing.
    @discardableResult
    public func migrate() throws -> [MigrationPlan] {
        let lock = MigrationLock(storeURL: storeURL)
        defer { lock.release() }
        // Copies aside that a killed migration left half-written: with the turn held, no
        // other process is making one.
        if lock.isHeld { Self.removePartialCopies(of: storeURL) }
        let plans = try self.plans()
        guard !plans.isEmpty else { return [] }
        let path = storeURL.path
        try Self.checkTransformers(of: plans, path: path)
        let database = try Database(path: path, mode: .mustExist, busyTimeout: busyTimeout)
        defer { try? database.close() }
        // The copy is the store the migration starts from only if no other connection
        // commits between the checkpoint and the migration's write lock (a commit can even
        // checkpoint into the file while it is being copied): when one does, copy again.
        // The copy takes the place of an older one only once the migration holds the lock and
        // knows the store is still at the source: had another connection migrated it
        // meanwhile, its copy, the real one from before, is kept.
        var attempt = 1
        while true {
            let dataVersion = try database.scalar("PRAGMA data_version")
            let partial = try copyAside(database)
            defer { try? FileManager.default.removeItem(atPath: partial) }
            var kept = false  // whether the copy replaced an older one (removed if this fails)
            do {
                try afterCopyingAside?()
                try Self.run(plans, on: database, storePath: path, unchangedSince: dataVersion) {
                    try keepCopy(partial)
                    kept = true
                }
                break
            } catch is StaleCopy where attempt < Self.copyAttempts {
                attempt += 1
            } catch is StaleCopy {
                throw MigrationError(
                    .backupFailed, reason: "other connections wrote to it every time it was copied aside "
                        + "(\(attempt) times); retry when they are done", path: path)
            } catch var error as MigrationError {
                if kept { Self.removeBackup(of: storeURL) }
                error.path = path
                throw error
            } catch {
                if kept { Self.removeBackup(of: storeURL) }
                throw error
            }
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return plans
    }

    /// How many times `migrate()` copies the store aside when other connections keep
    /// writing to it meanwhile.
    static let copyAttempts = 3

    /// Thrown inside the migration's transaction when another connection committed since
    /// the store was copied aside.
    private struct StaleCopy: Error {}

    /// Checkpoints the WAL into the store file and copies the file to a temporary name
    /// beside the copy's, which it returns (`keepCopy(_:)` puts it in place).
    private func copyAside(_ database: Database) throws -> String {
        let path = storeURL.path
        // Everything in the WAL must be in the file before it is copied.
        let checkpoint = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        if checkpoint.first?.first?.int64Value != 0 {
            throw MigrationError(
                .backupFailed, reason: "another connection is using it, so its write-ahead log can't be "
                    + "moved into the file before it is copied aside; close the other connections and retry",
                path: path)
        }
        let backup = Self.backupURL(for: storeURL).path
        let partial = backup + ".partial-\(UUID().uuidString)"
        do {
            try FileManager.default.copyItem(atPath: path, toPath: partial)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw MigrationError(
                .backupFailed, reason: "the copy \(backup) could not be written (\(error.localizedDescription))",
                path: path)
        }
        return partial
    }

    /// Removes `<store>.pre-migration.partial-*`: copies aside that a migration killed while
    /// copying left behind. Call only with the folder's `MigrationLock` held.
    static func removePartialCopies(of storeURL: URL) {
        let backup = backupURL(for: storeURL)
        let prefix = backup.lastPathComponent + ".partial-"
        let folder = backup.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Puts the copy made by `copyAside` in place with rename(2), so that it is whole or
    /// absent, replacing an older one, and gives it its external data files.
    private func keepCopy(_ partial: String) throws {
        let backup = Self.backupURL(for: storeURL).path
        guard rename(partial, backup) == 0 else {
            throw MigrationError(
                .backupFailed, reason: "the copy \(backup) could not be written (\(String(cString: strerror(errno))))",
                path: storeURL.path)
        }
        try Self.backUpExternalData(of: storeURL)
    }

    /// Runs the migration on a temporary copy of the store and discards it: the plans are
    /// returned as `plans()` would, but data the new model refuses (a violated uniqueness
    /// constraint, …) is found too. The store itself is not written to.
    ///
    /// - Throws: as `migrate()`.
    public func dryRun() throws -> [MigrationPlan] {
        let plans = try self.plans()
        guard !plans.isEmpty else { return [] }
        try Self.checkTransformers(of: plans, path: storeURL.path)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("persistence-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent(storeURL.lastPathComponent)
        // A consistent copy of the database including its WAL, made without writing to it.
        let source = try StoreFile.openForReading(storeURL.path, busyTimeout: busyTimeout)
        // VACUUM INTO writes only the copy, but a query-only connection refuses it as a write.
        try source.execute("PRAGMA query_only=OFF")
        try source.execute("VACUUM INTO \(sqlLiteral(copy.path))")
        try source.close()
        let database = try Database(path: copy.path, mode: .mustExist)
        defer { try? database.close() }
        do {
            // Files of external data are read from the store's folder, written to the copy's.
            try Self.run(plans, on: database, storePath: storeURL.path)
        } catch var error as MigrationError {
            error.path = storeURL.path
            throw error
        }
        return plans
    }

    // MARK: - Internals

    /// The plans from the version whose hashes are `stored` to `destination` (see
    /// `MigrationPlan.plans(fromVersionHashes:to:versions:recordedVersion:)`).
    package static func plans(
        from stored: [String: String], to destination: ManagedObjectModel, versions: [ManagedObjectModel],
        recordedVersion: String? = nil
    ) throws -> [MigrationPlan] {
        try MigrationPlan.plans(
            fromVersionHashes: stored, to: destination, versions: versions, recordedVersion: recordedVersion)
    }

    /// Runs the plans in one immediate transaction on `database`. Values kept in files of
    /// external data are read beside `storePath` (default: the database's own path). With
    /// `dataVersion` (`PRAGMA data_version` read before the store was copied aside), throws
    /// `StaleCopy` and changes nothing when another connection committed since.
    /// `beforeChanges` runs under the write lock once the store is known to be at the
    /// plans' source, before anything is written.
    package static func run(
        _ plans: [MigrationPlan], on database: Database, storePath: String? = nil,
        unchangedSince dataVersion: SQLiteValue? = nil, beforeChanges: () throws -> Void = {}
    ) throws {
        try database.createCollation("DECIMAL") { DecimalText.compare($0, $1) }
        try DecimalAggregate.register(on: database)
        try database.execute("PRAGMA legacy_alter_table = ON")
        defer { try? database.execute("PRAGMA legacy_alter_table = OFF") }
        let files = database.path.flatMap { path in
            plans.last.map {
                MigrationFiles(storePath: storePath ?? path, databasePath: path, schema: StoreSchema(model: $0.destination))
            }
        }
        func migrate() throws {
            try database.inTransaction(.immediate) {
                if let dataVersion, try database.scalar("PRAGMA data_version") != dataVersion { throw StaleCopy() }
                guard try isStillAtSource(of: plans, database) else { return }
                try beforeChanges()
                for plan in plans {
                    var executor = try MigrationExecutor(plan: plan, database: database)
                    executor.files = files
                    try executor.run()
                }
                try files?.prepareToCommit()
            }
        }
        if let files { try files.transaction(migrate) } else { try migrate() }
    }

    /// Whether the store, now that the migration holds the write lock, is still at the
    /// plans' source version: the plans were inferred before the lock, and another
    /// connection may have migrated it since. False when it is at the destination already
    /// (nothing to do: running the plans again would treat values written since as
    /// missing).
    ///
    /// - Throws: `MigrationError` (`.unknownSourceModel`) when it is at neither.
    private static func isStillAtSource(of plans: [MigrationPlan], _ database: Database) throws -> Bool {
        guard let first = plans.first, let last = plans.last else { return false }
        let stored = try versionHashes(in: database)
        let source = first.source.entityVersionHashesByName.mapValues(\.hexString)
        let destination = last.destination.entityVersionHashesByName.mapValues(\.hexString)
        if stored == source {
            // Equal hashes (a value transformer change): the version recorded tells.
            if source == destination, let version = last.destination.versionIdentifier,
                version != first.source.versionIdentifier,
                try database.scalar("SELECT value FROM _metadata WHERE key = 'modelVersion'").textValue == version
            {
                return false
            }
            return true
        }
        if stored == destination { return false }
        throw MigrationError(
            .unknownSourceModel,
            reason: "its version hashes changed while the migration waited for it (another connection "
                + "migrated it to a version other than \(last.destinationVersionName))")
    }

    /// The version hashes recorded in an open store's `_metadata`, by entity name.
    private static func versionHashes(in database: Database) throws -> [String: String] {
        var stored: [String: String] = [:]
        for row in try database.query("SELECT key, value FROM _metadata WHERE key LIKE 'versionHash.%'") {
            if let key = row[0].textValue, let value = row[1].textValue {
                stored[String(key.dropFirst("versionHash.".count))] = value
            }
        }
        return stored
    }

    /// Refuses, before anything is touched, plans that change a value transformer that is
    /// not registered.
    private static func checkTransformers(of plans: [MigrationPlan], path: String) throws {
        do {
            for plan in plans { _ = try plan.transformerChanges() }
        } catch var error as MigrationError {
            error.path = path
            throw error
        }
    }

    /// The plan for a value transformer changed alone (see
    /// `MigrationPlan.transformerPlan(from:to:versions:)`).
    package static func transformerPlan(
        from recorded: String?, to destination: ManagedObjectModel, versions: [ManagedObjectModel]
    ) throws -> MigrationPlan? {
        try MigrationPlan.transformerPlan(from: recorded, to: destination, versions: versions)
    }

    /// The model version a store records (`modelVersion`), if any.
    package static func storedModelVersion(at path: String) throws -> String? {
        let database = try StoreFile.openForReading(path, busyTimeout: 10)
        defer { try? database.close() }
        return try database.scalar("SELECT value FROM _metadata WHERE key = 'modelVersion'").textValue
    }

    /// The version hashes a store records, by entity name.
    package static func storedVersionHashes(at path: String) throws -> [String: String] {
        let database = try StoreFile.openForReading(path, busyTimeout: 10)
        defer { try? database.close() }
        let tables = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.textValue })
        guard tables.contains("_metadata"),
            try database.scalar("SELECT value FROM _metadata WHERE key = 'format'").textValue == SQLiteStore.formatName
        else { throw StoreError.notAPersistenceStore(path: path) }
        return try versionHashes(in: database)
    }

    /// The names of the indexes a store keeps on the given tables (not SQLite's own).
    package static func storedIndexNames(at path: String, tables: Set<String>) throws -> Set<String> {
        let database = try StoreFile.openForReading(path, busyTimeout: 10)
        defer { try? database.close() }
        let rows = try database.query(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        return Set(rows.compactMap { row in
            guard let name = row[0].textValue, let table = row[1].textValue, tables.contains(table) else { return nil }
            return name
        })
    }
}

extension StoreMigrator {
    /// Migrates an existing store file before a store opens it, when it was written with
    /// one of `versions` and not with `model`; an empty database file is left alone, and so
    /// is a store written with none of them: opening then refuses it as the store of another
    /// model, as it would without migration.
    @discardableResult
    package static func migrateForOpening(_ url: URL, to model: ManagedObjectModel, versions: [ManagedObjectModel]) throws -> Bool {
        let probe = try StoreFile.openForReading(url.path, busyTimeout: 10)
        let isEmpty = try probe.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table'").int64Value == 0
        try probe.close()
        if isEmpty { return false }
        do {
            return try !StoreMigrator(storeURL: url, destination: model, versions: versions).migrate().isEmpty
        } catch let error as MigrationError where error.kind == .unknownSourceModel {
            return false
        }
    }
}

extension StoreMigrator {
    /// Refuses a store that cannot be written here and was written with an older version
    /// of the model: opened as it is, it would be refused as "another model's", which it is
    /// not. A store at the current version, an empty file, and one of an unknown model are
    /// left to the open, as `migrateForOpening` leaves them.
    ///
    /// - Throws: `MigrationError` (`.readOnly`) naming the versions.
    package static func refuseUnmigrated(_ url: URL, to model: ManagedObjectModel, versions: [ManagedObjectModel]) throws {
        let plans: [MigrationPlan]
        do {
            plans = try StoreMigrator(storeURL: url, destination: model, versions: versions).plans()
        } catch {
            return  // not a Persistence store, or none of these versions': the open says which
        }
        // A version that changes only indexes or a value transformer opens as it is.
        guard let first = plans.first, let last = plans.last,
            first.source.entityVersionHashesByName != last.destination.entityVersionHashesByName
        else { return }
        throw MigrationError(
            .readOnly,
            reason: "was written with model version \"\(first.sourceVersionName)\" and must be migrated to "
                + "\"\(last.destinationVersionName)\" before this release can open it",
            path: url.path)
    }
}

extension SQLiteStore {
    /// Migrates the store file at `url` to `model`, when it was written with one of
    /// `versions` (oldest first): what a container does before it opens a store, as Core
    /// Data's coordinator migrates a store before adding it. Nothing happens when there are
    /// no versions, the file does not exist, or this process cannot write it (opening then
    /// reads it, or refuses a store of another version).
    ///
    /// - Returns: whether the store was migrated.
    /// - Throws: `StoreError` for a path that is not a regular file; `MigrationError` when
    ///   the store cannot be migrated (it is left as it was).
    @discardableResult
    package static func migrateBeforeOpening(
        _ url: URL, to model: ManagedObjectModel, versions: [ManagedObjectModel], readOnly: Bool
    ) throws -> Bool {
        guard !versions.isEmpty, try StoreFile.check(url.path) else { return false }
        guard !readOnly, StoreFile.isWritable(url.path) else {
            try StoreMigrator.refuseUnmigrated(url, to: model, versions: versions)
            return false
        }
        return try StoreMigrator.migrateForOpening(url, to: model, versions: versions)
    }
}
