import Foundation
import Testing

@testable import Persistence

/// The copy a migration makes first (`<store>.pre-migration`) is a store a user can go
/// back to: with its own external-data files, which outlive the migrated store's sweep.
@Suite struct MigrationBackupTests {
    static func model(_ version: String, cover: Bool) -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifier: version) {
            Entity("Book") {
                Attribute("title", .string)
                if cover { Attribute("cover", .binaryData, allowsExternalStorage: true) }
            }
        }
    }

    @Test func theCopyKeepsTheFilesTheMigratedStoreNoLongerReferences() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Books.sqlite")
        let cover = Data((0..<(150 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        do {
            let context = try PersistentContainer(model: Self.model("1", cover: true), storeURL: store).viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Atlas"
            book["cover"] = cover
            try context.save()
            try context.store.close()
        }
        let files = ExternalDataStore.directory(forStorePath: store.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).count == 1)

        // v2 drops the cover: the migrated store's next open sweeps its file.
        let migrated = try PersistentContainer(
            model: Self.model("2", cover: false), storeURL: store, migratingFrom: [Self.model("1", cover: true)])
        try migrated.viewContext.store.close()
        _ = try PersistentContainer(model: Self.model("2", cover: false), storeURL: store)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).isEmpty)

        // The copy opens as the v1 store it was and reads the cover from its own folder.
        let backup = StoreMigrator.backupURL(for: store)
        let old = try PersistentContainer(model: Self.model("1", cover: true), storeURL: backup).viewContext
        let book = try #require(try old.fetch(FetchRequest(entityName: "Book")).first)
        #expect(book["cover"] as? Data == cover)
    }

    @Test func aFailedMigrationRemovesTheCopyAndItsFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Books.sqlite")
        let v1 = Self.model("1", cover: true)
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string, optional: false)
                Attribute("cover", .binaryData, allowsExternalStorage: true)
            }
        }
        do {
            let context = try PersistentContainer(model: v1, storeURL: store).viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["cover"] = Data(count: 150 * 1024)
            try context.save()
            try context.store.close()
        }
        #expect(throws: MigrationError.self) { try StoreMigrator(storeURL: store, destination: v2, versions: [v1]).migrate() }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [".Books.sqlite_SUPPORT", "Books.sqlite"], "\(left)")
    }
}
