import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// A store in the SQLite file Core Data itself writes (`NSSQLiteStoreType`): the same
/// `PersistentStore` as `SQLiteStore`, on Core Data's layout (see `CoreDataLayout`), so that
/// an app's database copied from a Mac, a device backup or a simulator's container opens on
/// Linux, and still opens in Core Data after it was changed here.
///
/// Opening checks the file before anything is written: its `Z_PRIMARYKEY` must name every
/// entity of the model with the same parent, and its tables must have a column of Core
/// Data's type for every stored property; the first difference is refused as
/// `StoreError.incompatibleModel`, the file untouched. A save writes rows as Core Data does
/// (a new row's `Z_OPT` is 1, each write adds one; keys come from `Z_PRIMARYKEY.Z_MAX` of
/// the hierarchy's root, which a save advances) and leaves `Z_METADATA` and
/// `Z_MODELCACHE` as they were. Fetches are compiled into SQL over Core Data's layout by the
/// relational core (`CoreDataRelationalLayout`); the terms SQL cannot answer exactly are
/// evaluated in memory with `PredicateEvaluator`, whose answers every store must give.
///
/// Core Data's own entities (numbered above 15000 in `Z_PRIMARYKEY`: its persistent
/// history's `CHANGE`, `TRANSACTION` and `TRANSACTIONSTRING`, CloudKit's `NSCK…` records)
/// are not the model's and are not matched against it. In a store in which Core Data records
/// its persistent history, the history is read (see `CoreDataStore+History`) and each save
/// records its transaction there as Core Data does (see `CoreDataHistoryRecorder`). Binary values of
/// attributes that allow external storage are read from their rows or from
/// `.<name>_SUPPORT/_EXTERNAL_DATA/`, and written there when large (see
/// `CoreDataExternalFiles`).
package final class CoreDataStore {
    /// Options for opening a store.
    package struct Options: Sendable {
        /// Open the store without writing to it.
        package var readOnly = false
        /// How long a writer waits for another process's lock, in seconds.
        package var busyTimeout: Double = 10
        /// Pass transformable values kept as keyed archives through as their bytes
        /// (`TransformableBytes`) instead of decoding them: for tools, whose exports keep
        /// the stored bytes exactly.
        package var passesArchivesThrough = false

        /// Default options.
        package init() {}
    }

    /// The SQLite connection.
    let database: Database
    /// The frozen model.
    package let model: ManagedObjectModel
    /// The model laid out on the store's tables.
    let layout: CoreDataLayout
    /// The store file's path.
    let path: String
    /// The store's UUID (`Z_METADATA.Z_UUID`, Core Data's `NSStoreUUID`).
    package let identifier: String
    /// Whether the store refuses writes: opened read-only or not writable by this process.
    package let isReadOnly: Bool
    /// Whether Core Data records its persistent history in the store (it has `ATRANSACTION`
    /// and `ACHANGE`): this store then reads it and records each save in it.
    package let recordsHistory: Bool
    /// Whether keyed-archive values pass through as bytes (`Options.passesArchivesThrough`).
    let passesArchivesThrough: Bool
    /// Where Core Data keeps binary values outside their rows: `.<name>_SUPPORT/_EXTERNAL_DATA`
    /// beside the store.
    let externalFolder: URL
    /// The scopes of this store's object IDs, by entity name.
    private var idScopes: [String: ObjectID.Scope] = [:]
    /// The tables found to hold no row whose `Z_ENT` names no entity, checked once per
    /// connection (see `refuseUnplacedRows`), not before every fetch.
    var tablesWithEveryRowPlaced: Set<String> = []
    /// How each entity's rows are read, by entity number (`Z_ENT`): worked out at the first
    /// row of the entity a read meets (see `CoreDataRowDecodePlan`).
    var decodePlans: [Int64: CoreDataRowDecodePlan] = [:]

    /// Whether the file at `url` is an SQLite database with Core Data's bookkeeping tables
    /// (`Z_PRIMARYKEY` and `Z_METADATA`): how a caller picks this store rather than the
    /// SQLite store. False for anything else (a missing file, not a database, a FIFO); the
    /// file is read without leaving anything beside it (see `StoreFile.readingMode`).
    package static func isCoreDataStore(at url: URL) -> Bool {
        let path = url.path
        guard (try? StoreFile.check(path)) == true, let probe = try? StoreFile.openForReading(path, busyTimeout: 1) else {
            return false
        }
        defer { try? probe.close() }
        let names = (try? probe.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('Z_PRIMARYKEY', 'Z_METADATA')")) ?? []
        return names.count == 2
    }

    /// Opens the Core Data store at `url` with `model`, the model that wrote it or one of the
    /// same structure.
    ///
    /// - Throws: `StoreError.noStore` for a missing file (a Core Data store is never created
    ///   here), `.notARegularFile` or `.isADirectory` for a path that is no file;
    ///   `StoreError.incompatibleModel` naming the first difference between the model and
    ///   the store; `CoreDataStoreError` for bookkeeping tables that cannot be read;
    ///   `SQLiteError` for a file SQLite cannot open (not a database, truncated, locked).
    package init(model: ManagedObjectModel, url: URL, options: Options = Options()) throws {
        try model.freeze()
        let path = url.path
        guard try StoreFile.check(path) else { throw StoreError.noStore(path: path) }
        self.model = model
        self.path = path
        // Inspect the file through a connection that leaves nothing behind before opening it
        // for writing, so that a refused store is left exactly as it was.
        let probe = try StoreFile.openForReading(path, busyTimeout: options.busyTimeout)
        do {
            (layout, identifier, recordsHistory) = try Self.inspect(probe, model: model, path: path)
            try probe.close()
        } catch {
            try? probe.close()
            throw error
        }
        isReadOnly = options.readOnly || !StoreFile.isWritable(path)
        passesArchivesThrough = options.passesArchivesThrough
        database =
            isReadOnly
            ? try StoreFile.openForReading(path, busyTimeout: options.busyTimeout)
            : try Database(path: path, mode: .mustExist, busyTimeout: options.busyTimeout)
        try CoreDataSQLFunctions.register(on: database)
        externalFolder = Self.supportFolder(of: url).appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The folder beside the store at `url` where Core Data keeps what is not in the file
    /// (`_EXTERNAL_DATA` among it): `.<name>_SUPPORT`, the name without its extension.
    package static func supportFolder(of url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT")
    }

    /// The first entity number Core Data keeps for its own entities in `Z_PRIMARYKEY`
    /// (entity IDs above 15000 are its own; its history's `CHANGE` is 16001): those below
    /// are the model's.
    static let firstInternalEntityNumber: Int64 = 15_001

    /// Reads `Z_PRIMARYKEY`, `Z_METADATA` and the tables' columns, lays the model out on
    /// them, and tells whether Core Data records its history in the store.
    private static func inspect(_ database: Database, model: ManagedObjectModel, path: String) throws
        -> (layout: CoreDataLayout, identifier: String, recordsHistory: Bool)
    {
        let bookkeeping = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('Z_PRIMARYKEY', 'Z_METADATA')")
        guard bookkeeping.count == 2 else {
            throw CoreDataStoreError(path: path, "it has no Z_PRIMARYKEY and Z_METADATA tables", isNotACoreDataStore: true)
        }
        var numbers: [String: Int64] = [:]
        var supers: [String: Int64] = [:]
        let schemas = model.schemas
        let formerNames = formerEntityNames(of: model, migratedNames: try migratedEntityNames(database))
        for row in try database.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard row.count == 3, let number = row[0].int64Value, let storedName = row[1].stringValue else {
                throw CoreDataStoreError(path: path, "a row of Z_PRIMARYKEY has no entity number or name")
            }
            guard number < firstInternalEntityNumber else { continue }
            // Core Data's migration keeps a renamed entity's row under its former name.
            let name = schemas[storedName] == nil ? formerNames[storedName] ?? storedName : storedName
            numbers[name] = number
            supers[name] = row[2].int64Value ?? 0
        }
        for (name, number) in numbers.sorted(by: { $0.value < $1.value }) {
            guard let schema = schemas[name] else {
                throw StoreError.incompatibleModel(
                    path: path, differences: ["the store has entity \(name) (Z_ENT \(number)), which the model does not have"])
            }
            let parent = schema.ancestors.first
            let storedParent = numbers.first { $0.value == supers[name] }?.key
            if parent != storedParent {
                throw StoreError.incompatibleModel(
                    path: path,
                    differences: [
                        "\(name)'s parent entity is \(storedParent ?? "none") in the store but \(parent ?? "none") in the model"
                    ])
            }
        }
        var columns: [String: [String: String]] = [:]
        for row in try database.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            guard let table = row.first?.stringValue else { continue }
            var declared: [String: String] = [:]
            for column in try database.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)]) {
                if let name = column[0].stringValue { declared[name] = column[1].stringValue ?? "" }
            }
            columns[table] = declared
        }
        let layout = try CoreDataLayout(model: model, numbers: numbers, storeColumns: columns, path: path)
        let uuid = try database.query("SELECT Z_UUID FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1").first?.first?.stringValue
        guard let uuid, !uuid.isEmpty else { throw CoreDataStoreError(path: path, "Z_METADATA has no store UUID") }
        let recordsHistory = columns["ATRANSACTION"] != nil && columns["ACHANGE"] != nil
        return (layout, uuid, recordsHistory)
    }

    /// The model's entities by the former name their renaming identifier gives, for the
    /// entities the store was migrated to (`migratedNames`) under names no entity of the model
    /// has: Core Data's migration renames an entity in `Z_METADATA` and `Z_MODELCACHE` but
    /// leaves its `Z_PRIMARYKEY` row under the former name, so that a migrated store names
    /// `ExpensiveSportCar` there for the model's `LuxuryCar`. A store not migrated (its
    /// metadata still names `ExpensiveSportCar`) is not matched to the renamed entity: it
    /// needs migrating. A former name two entities claim is left out.
    private static func formerEntityNames(of model: ManagedObjectModel, migratedNames: Set<String>) -> [String: String] {
        let names = Set(model.entities.map(\.name))
        var former: [String: [String]] = [:]
        for entity in model.entities {
            guard let renaming = entity.renamingIdentifier, renaming != entity.name, !names.contains(renaming),
                migratedNames.contains(entity.name), !migratedNames.contains(renaming)
            else {
                continue
            }
            former[renaming, default: []].append(entity.name)
        }
        return former.compactMapValues { $0.count == 1 ? $0[0] : nil }
    }

    /// The entity names whose version hashes the store's metadata (`Z_METADATA.Z_PLIST`)
    /// keeps: those of the model Core Data last opened or migrated the store to. Empty when
    /// the metadata cannot be read (a store is then matched by its `Z_PRIMARYKEY` names only).
    private static func migratedEntityNames(_ database: Database) throws -> Set<String> {
        guard
            let blob = try database.query("SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1").first?.first?.dataValue,
            let metadata = try? BinaryPropertyList.read(blob)
        else { return [] }
        return Set(CoreDataStoreMetadata.versionHashes(in: metadata).keys)
    }

    /// The scope shared by every ID of `entityName` in this store.
    package func idScope(entityName: String, rootName: String) -> ObjectID.Scope {
        if let scope = idScopes[entityName] { return scope }
        let scope = ObjectID.Scope(entityName: entityName, rootName: rootName, storeIdentifier: identifier)
        idScopes[entityName] = scope
        return scope
    }
}
