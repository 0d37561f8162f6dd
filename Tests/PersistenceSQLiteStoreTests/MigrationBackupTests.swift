import Foundation
import PersistenceTestSupport
import Testing

import Persistence

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
        }
        let files = ExternalDataStore.directory(forStorePath: store.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).count == 1)

        // v2 drops the cover: the migrated store's next open sweeps its file.
        let migrated = try PersistentContainer(
            model: Self.model("2", cover: false), storeURL: store, migratingFrom: [Self.model("1", cover: true)])
        try migrated.viewContext.closeStore()
        _ = try PersistentContainer(model: Self.model("2", cover: false), storeURL: store)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).isEmpty)

        // The copy opens as the v1 store it was and reads the cover from its own folder.
        let backup = StoreMigrator.backupURL(for: store)
        let old = try PersistentContainer(model: Self.model("1", cover: true), storeURL: backup).viewContext
        let book = try #require(try old.fetch(FetchRequest(entityName: "Book")).first)
        #expect(book["cover"] as? Data == cover)
    }

    /// A migration refused before its copy is in place leaves an older copy alone.
    @Test func aRefusalBeforeTheCopyIsInPlaceKeepsAnOlderCopy() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("heading", .string) } }
        let store = TemporaryStore()
        let backup = StoreMigrator.backupURL(for: store.url)
        defer { try? FileManager.default.removeItem(at: backup) }
        _ = try PersistentContainer(model: v1.copy(), storeURL: store.url)
        try Data("older copy".utf8).write(to: backup)
        var busy = StoreMigrator(storeURL: store.url, destination: v2, versions: [v1])
        busy.afterCopyingAside = {
            let other = try store.file.connection(mode: .mustExist)
            try other.execute("INSERT INTO Book (title) VALUES ('more')")
            try other.close()
        }
        #expect(throws: MigrationError.self) { try busy.migrate() }
        #expect(try Data(contentsOf: backup) == Data("older copy".utf8))
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
        }
        #expect(throws: MigrationError.self) { try StoreMigrator(storeURL: store, destination: v2, versions: [v1]).migrate() }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [".Books.sqlite_SUPPORT", "Books.sqlite"], "\(left)")
    }

    /// A commit by another connection between the copy and the migration's write lock
    /// makes the copy stale (and a commit's checkpoint could tear it): the store is copied
    /// again, so the copy holds what the migration started from.
    @Test func aWriteAfterTheCopyMakesItCopyAgain() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") { Attribute("heading", .string, renamingIdentifier: "title") }
        }
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: v1.copy(), storeURL: store.url).viewContext
            try context.insertObject(forEntityName: "Book")["title"] = "A"
            try context.save()
        }
        final class Writes { var count = 0 }
        let writes = Writes()
        var migrator = StoreMigrator(storeURL: store.url, destination: v2, versions: [v1])
        migrator.afterCopyingAside = {
            writes.count += 1
            guard writes.count == 1 else { return }
            let other = try store.file.connection(mode: .mustExist)
            try other.execute("INSERT INTO Book (_id, title) VALUES (2, 'written between')")
            try other.close()
        }
        try migrator.migrate()
        #expect(writes.count == 2)
        #expect(try store.strings(["heading"], of: "Book", v2.copy()) == [["A"], ["written between"]])
        let backup = try StoreFileInspection(url: StoreMigrator.backupURL(for: store.url)).connection(mode: .readOnly)
        #expect(try backup.query("SELECT title FROM Book ORDER BY _id").compactMap { $0[0].textValue } == ["A", "written between"])
        try backup.close()

        // Writes every time: refused after the last attempt, the store as it was.
        let again = TemporaryStore()
        do {
            let context = try PersistentContainer(model: v1.copy(), storeURL: again.url).viewContext
            try context.insertObject(forEntityName: "Book")["title"] = "A"
            try context.save()
        }
        var busy = StoreMigrator(storeURL: again.url, destination: v2, versions: [v1])
        busy.afterCopyingAside = {
            let other = try again.file.connection(mode: .mustExist)
            try other.execute("INSERT INTO Book (title) VALUES ('more')")
            try other.close()
        }
        let error = try #require(throws: MigrationError.self) { try busy.migrate() }
        #expect(error.kind == .backupFailed)
        #expect(error.description.contains("other connections wrote to it every time it was copied aside (3 times)"))
        #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: again.url).path))
        let partials = try FileManager.default.contentsOfDirectory(atPath: again.url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(again.url.lastPathComponent + ".pre-migration") }
        #expect(partials.isEmpty)
        #expect(try again.rows("SELECT title FROM Book WHERE title IS NOT NULL").count == 4)
    }

    /// Two connections migrating at once: the one that finds the store migrated when it
    /// gets the lock changes nothing and keeps the other's copy, the store from before.
    @Test func aMigrationThatFindsTheStoreMigratedKeepsTheCopyFromBefore() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") { Attribute("heading", .string, renamingIdentifier: "title") }
        }
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: v1.copy(), storeURL: store.url).viewContext
            try context.insertObject(forEntityName: "Book")["title"] = "A"
            try context.save()
        }
        var late = StoreMigrator(storeURL: store.url, destination: v2, versions: [v1])
        var others = 0
        late.afterCopyingAside = {
            others += 1
            if others == 1 { try StoreMigrator(storeURL: store.url, destination: v2.copy(), versions: [v1.copy()]).migrate() }
        }
        try late.migrate()
        #expect(others == 2)
        #expect(try store.strings(["heading"], of: "Book", v2.copy()) == [["A"]])
        let backup = try StoreFileInspection(url: StoreMigrator.backupURL(for: store.url)).connection(mode: .readOnly)
        #expect(try backup.query("SELECT title FROM Book") == [[.text("A")]])
        try backup.close()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(store.url.lastPathComponent + ".pre-migration.partial") }
        #expect(leftovers.isEmpty)
    }
}
