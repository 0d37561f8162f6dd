import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// A Core Data store whose `.<name>_SUPPORT` folder, or a file in `_EXTERNAL_DATA`, is a
/// symbolic link: nothing is read, written or removed through it.
@Suite struct CoreDataExternalDataLinkTests {
    typealias Store = CoreDataOrderedAndExternalDataTests.Store

    /// A folder outside the store's holding one file that must survive.
    static func victim() throws -> URL {
        let victim = FileManager.default.temporaryDirectory.appendingPathComponent("cd-victim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: victim.appendingPathComponent("precious.txt"))
        return victim
    }

    @Test(arguments: [false, true])
    func aSaveIsRefusedWhenTheSupportFolderIsALink(linkingTheDataFolder: Bool) throws {
        let store = try Store()
        defer { store.remove() }
        try CoreDataOrderedAndExternalDataTests.fill(store)
        let victim = try Self.victim()
        defer { try? FileManager.default.removeItem(at: victim) }
        // The victim folder holds the store's file too, so that deleting the photo would
        // remove a file of the link's target if the link were followed.
        let name = try #require(store.externalFiles().first)
        try FileManager.default.copyItem(
            at: store.external.appendingPathComponent(name), to: victim.appendingPathComponent(name))
        let linked = linkingTheDataFolder ? store.external : store.external.deletingLastPathComponent()
        try FileManager.default.removeItem(at: linked)
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: victim)
        let before = try store.sql("SELECT count(*) FROM ZPHOTO").first?.first?.int64Value

        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        let photo = try context.insertObject(forEntityName: "Photo")
        try photo.setValue(CoreDataOrderedAndExternalDataTests.bytes(150_000, 5), forKey: "image")
        let error = try #require(throws: StoreError.self) { try context.save() }
        #expect(error.description.contains("\(linked.path): is a symbolic link"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).sorted() == [name, "precious.txt"].sorted())
        #expect(try store.sql("SELECT count(*) FROM ZPHOTO").first?.first?.int64Value == before)
    }

    @Test func aFileInTheDataFolderThatIsALinkIsNeverFollowed() throws {
        let store = try Store()
        defer { store.remove() }
        try CoreDataOrderedAndExternalDataTests.fill(store)
        let victim = try Self.victim()
        defer { try? FileManager.default.removeItem(at: victim) }
        let name = try #require(store.externalFiles().first)
        let file = store.external.appendingPathComponent(name)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: victim.appendingPathComponent("precious.txt"))

        let container = try store.open()
        defer { try? container.persistentStoreCoordinator.close() }
        let error = try #require(throws: StoreError.self) {
            try container.viewContext.fetch(FetchRequest(entityName: "Photo")).forEach { _ = $0.value(forKey: "image") }
        }
        #expect(error.description.contains(file.path), "\(error)")
        #expect(error.description.contains("symbolic link, which is never followed"), "\(error)")
    }
}
