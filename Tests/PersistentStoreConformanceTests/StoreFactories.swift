import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteStore
import PersistenceStore

#if PostgreSQL
import PersistencePostgreSQLStore
#endif

/// Every store the conformance suite checks: a new store joins the suite with its factory
/// here and one entry in `all`.
///
/// This is the only file that names a store type. Each factory fills its store through a
/// `ManagedObjectContext` made on it; while a context can only be made on an `SQLiteStore`,
/// that detail stays here too.
enum StoreFactories {
    /// Every factory; each parameterised test runs once per entry.
    static let all: [StoreFactory] = [sqliteFile, sqliteInMemory, coreDataFile] + serverFactories

    /// The factories whose stores keep their objects across a reopen.
    static let reopenable = all.filter(\.keepsObjectsWhenReopened)

    /// The factories that can open a file the test made.
    static let openingFiles = all.filter { $0.openFile != nil }

    /// The factories that can open a file and write another app's database of their kind.
    static let openingForeignDatabases = openingFiles.filter { $0.writeForeignDatabase != nil }

    /// The SQLite store in a temporary file.
    static let sqliteFile = StoreFactory(
        name: "SQLiteStore (file)", keepsObjectsWhenReopened: true,
        make: { model in try makeSQLiteFile(model, options: SQLiteStore.Options()) },
        openFile: { model, url in try SQLiteStore(model: model, url: url) },
        writeForeignDatabase: { url in
            // Another app's SQLite database: the one SQL statement of the suite, since only
            // SQL makes a database that is not a store.
            let database = try Database(path: url.path)
            try database.execute("CREATE TABLE note (body TEXT)")
            try database.close()
        },
        makeTrackingHistory: { model in try makeSQLiteFile(model, options: historyOptions) })

    /// The SQLite store in memory: nothing outlives a reopen, and no file can be opened.
    static let sqliteInMemory = StoreFactory(
        name: "SQLiteStore (in memory)", keepsObjectsWhenReopened: false,
        make: { model in try makeSQLiteInMemory(model, options: SQLiteStore.Options()) },
        openFile: nil,
        makeTrackingHistory: { model in try makeSQLiteInMemory(model, options: historyOptions) })

    /// A store in Core Data's own layout (`Z` tables), made empty as Core Data would for the
    /// model. It keeps no history, so it has no `makeTrackingHistory`; a Decimal keeps the
    /// digits of the nearest Double, as Core Data's `DECIMAL` columns do.
    static let coreDataFile = StoreFactory(
        name: "CoreDataStore (file)", keepsObjectsWhenReopened: true,
        make: { model in try makeCoreDataFile(model) },
        openFile: { model, url in try CoreDataStore(model: model, url: url) },
        writeForeignDatabase: { url in
            let database = try Database(path: url.path)
            try database.execute("CREATE TABLE note (body TEXT)")
            try database.close()
        },
        keepsEveryDecimalDigit: false)

    /// The factories whose stores can track their history.
    static let trackingHistory = all.filter { $0.makeTrackingHistory != nil }

    /// Options with persistent history tracking on.
    private static var historyOptions: SQLiteStore.Options {
        var options = SQLiteStore.Options()
        options.tracksHistory = true
        return options
    }

    private static func makeSQLiteFile(_ model: ManagedObjectModel, options: SQLiteStore.Options) throws -> StoreUnderTest {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).sqlite")
        return try StoreUnderTest(
            open: {
                let store = try SQLiteStore(model: model, url: url, options: options)
                return (store, ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:]))
            },
            removeLocation: { removeSQLiteFiles(at: url) })
    }

    private static func makeCoreDataFile(_ model: ManagedObjectModel) throws -> StoreUnderTest {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).sqlite")
        try CoreDataStore.create(model: model, at: url)
        return try StoreUnderTest(
            open: {
                let store = try CoreDataStore(model: model, url: url)
                return (store, ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:]))
            },
            removeLocation: { removeSQLiteFiles(at: url) })
    }

    private static func makeSQLiteInMemory(_ model: ManagedObjectModel, options: SQLiteStore.Options) throws -> StoreUnderTest {
        try StoreUnderTest(
            open: {
                let store = try SQLiteStore(model: model, url: nil, options: options)
                return (store, ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:]))
            },
            removeLocation: {})
    }

    /// Removes an SQLite store file with its journal files and its external data folder.
    private static func removeSQLiteFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        let externalData = URL(fileURLWithPath: ExternalDataStore.directory(forStorePath: url.path))
        try? FileManager.default.removeItem(at: externalData.deletingLastPathComponent())
    }
}
