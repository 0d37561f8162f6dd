import Foundation
import PersistenceTestSupport
import Persistence
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A store handed over with its `_SUPPORT` folder, or a file in it, replaced by a symbolic
/// link: nothing outside the store's folder is read, written or removed through it.
@Suite struct ExternalDataLinkTests {
    /// A store with one book whose cover is in an external file; returns the file's name.
    static func storeWithACover(_ folder: ExternalStorageFolder) throws -> String {
        do {
            let context = try folder.open().viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Linked"
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
            try context.save()
        }
        return try folder.fileName(title: "Linked")
    }

    /// A folder outside the store's holding one file that must survive.
    static func victim() throws -> URL {
        let victim = FileManager.default.temporaryDirectory.appendingPathComponent("victim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: victim.appendingPathComponent("precious.txt"))
        return victim
    }

    @Test(arguments: [false, true])
    func aSupportFolderThatIsALinkIsRefusedAndTheFilesItNamesSurvive(linkingTheDataFolder: Bool) throws {
        let folder = try ExternalStorageFolder()
        _ = try Self.storeWithACover(folder)
        let victim = try Self.victim()
        defer { try? FileManager.default.removeItem(at: victim) }
        let linked = linkingTheDataFolder ? folder.externalDirectory : folder.externalDirectory.deletingLastPathComponent()
        try FileManager.default.removeItem(at: linked)
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: victim)

        let error = try #require(throws: StoreError.self) { try folder.open() }
        #expect(error.description.contains("\(linked.path): is a symbolic link"), "\(error)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["precious.txt"],
            "the sweep of unreferenced files never reaches the link's target")
        // A read-only open reads nothing through the link either.
        let readOnly = try folder.open(readOnly: true)
        let read = try #require(throws: StoreError.self) {
            try readOnly.viewContext.fetch(FetchRequest(entityName: "Book"))
        }
        #expect(read.description.contains("symbolic link"), "\(read)")
    }

    @Test func aFileInTheFolderThatIsALinkIsNeverFollowed() throws {
        let folder = try ExternalStorageFolder()
        let name = try Self.storeWithACover(folder)
        let victim = try Self.victim()
        defer { try? FileManager.default.removeItem(at: victim) }
        // The target has exactly the recorded size, so only the link itself can give it away.
        let secret = victim.appendingPathComponent("secret")
        try Data(repeating: 0x41, count: ExternalStorageFolder.threshold + 1).write(to: secret)
        let file = folder.externalDirectory.appendingPathComponent(name)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: secret)

        let error = try #require(throws: StoreError.self) {
            try folder.open(readOnly: true).viewContext.fetch(FetchRequest(entityName: "Book"))
        }
        #expect(error.description.contains(file.path), "\(error)")
        #expect(error.description.contains("symbolic link, which is never followed"), "\(error)")
    }

    @Test func aFileInTheFolderThatIsAFIFOIsRefusedWithoutWaiting() throws {
        let folder = try ExternalStorageFolder()
        let name = try Self.storeWithACover(folder)
        let file = folder.externalDirectory.appendingPathComponent(name)
        try FileManager.default.removeItem(at: file)
        #expect(mkfifo(file.path, 0o644) == 0)

        let error = try #require(throws: StoreError.self) {
            try folder.open(readOnly: true).viewContext.fetch(FetchRequest(entityName: "Book"))
        }
        #expect(error.description.contains("not a regular file (a FIFO)"), "\(error)")
    }
}
