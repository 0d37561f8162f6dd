import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// Transformable values without a transformer of the app's, kept as Core Data keeps them: a
/// keyed archive, written and read by our own encoder and decoder.
@Suite struct CoreDataArchivedValueTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("tags", .transformable)
            }
        }
    }

    /// A new Core Data store for `model()` in a folder of its own.
    static func store() throws -> (folder: URL, url: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cd-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Notes.sqlite")
        try CoreDataStore.create(model: model(), at: url)
        return (folder, url)
    }

    @Test func aPropertyListValueIsSavedAsAKeyedArchiveAndReadBack() throws {
        let (folder, url) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let container = try PersistentContainer(model: Self.model(), storeURL: url)
            let note = try container.viewContext.insertObject(forEntityName: "Note")
            try note.setValue("Groceries", forKey: "title")
            try note.setValue(["apples", "pears"], forKey: "tags")
            try container.viewContext.save()
            try container.persistentStoreCoordinator.close()
        }
        let blob = try #require(try CoreDataStoreReadTests.sql(url, "SELECT ZTAGS FROM ZNOTE").first?.first?.dataValue)
        #expect(BinaryPropertyList.isBinaryPropertyList(blob))
        #expect(try KeyedArchive.decode(blob) == .array([.string("apples"), .string("pears")]))
        let context = try PersistentContainer(model: Self.model(), storeURL: url).viewContext
        let note = try #require(try context.fetch(FetchRequest(entityName: "Note")).first)
        #expect(note.value(forKey: "tags") as? [String] == ["apples", "pears"])
    }

    @Test func anArchiveThatCannotBeDecodedIsAnErrorNamingObjectAndAttribute() throws {
        let (folder, url) = try Self.store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Database(path: url.path, mode: .mustExist)
        try database.execute(
            "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZTAGS) VALUES (1, 1, 1, 'Broken', ?)",
            [.blob(Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40))])
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1")
        try database.close()
        let context = try PersistentContainer(model: Self.model(), storeURL: url).viewContext
        let error = try #require(throws: CoreDataStoreError.self) { try context.fetch(FetchRequest(entityName: "Note")) }
        #expect("\(error)".contains("the archived value of Note/p1.tags can't be decoded: "), "\(error)")
        #expect(!"\(error)".contains("\n"))
    }
}
