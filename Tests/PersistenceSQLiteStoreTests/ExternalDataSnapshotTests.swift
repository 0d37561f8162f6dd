import Foundation
import PersistenceTestSupport
import Testing

import Persistence
import PersistenceSQLite

/// Files of deleted or replaced external values stay while a reader on an older snapshot
/// may still read them, and go once none can; reading a store leaves nothing beside it.
@Suite struct ExternalDataSnapshotTests {
    static func insertCovers(_ folder: ExternalStorageFolder, titles: [String]) throws {
        let container = try folder.open()
        for (index, title) in titles.enumerated() {
            let book = try container.viewContext.insertObject(forEntityName: "Book")
            book["title"] = title
            book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: UInt64(index + 1))
        }
        try container.viewContext.save()
    }

    @Test func aReaderOnAnOlderSnapshotStillReadsAValueDeletedSince() throws {
        let folder = try ExternalStorageFolder()
        try Self.insertCovers(folder, titles: ["Kept", "Deleted"])
        let deletedFile = try folder.fileName(title: "Deleted")

        // The reader: a fetch that streams its rows, begun before the deletion, as a long
        // export reads (its statement holds one snapshot until its last row).
        let reader = try folder.open(readOnly: true)
        let writer = try folder.open()
        var covers: [String: Data] = [:]
        var newest = FetchRequest(entityName: "Book")
        newest.sortDescriptors = [SortKey("title", ascending: false)]
        try reader.viewContext.forEach(newest) { book in
            if covers.isEmpty {
                // "Kept" is read: delete "Deleted", which the fetch reads next.
                let victim = try #require(
                    try writer.viewContext.fetch(
                        FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == 'Deleted'"))
                    ).first)
                writer.viewContext.delete(victim)
                try writer.viewContext.save()
                #expect(folder.externalFiles().contains(deletedFile), "removed under a reader's snapshot")
            }
            covers[book["title"] as? String ?? ""] = book["cover"] as? Data
            return true
        }

        // The reader still saw the row and read its file.
        #expect(covers["Deleted"] == ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1, seed: 2))
        try reader.viewContext.closeStore()
        try writer.viewContext.closeStore()

        // A later writer's open, with no reader left, removes it; the kept value stays.
        let later = try folder.open()
        #expect(!folder.externalFiles().contains(deletedFile))
        #expect(folder.externalFiles().contains(try folder.fileName(title: "Kept")))
        try later.viewContext.closeStore()
    }

    @Test func withNoOtherReaderADeletedValuesFileGoesAtTheCommit() throws {
        let folder = try ExternalStorageFolder()
        try Self.insertCovers(folder, titles: ["Deleted"])
        let file = try folder.fileName(title: "Deleted")
        let container = try folder.open()
        let book = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Book")).first)
        container.viewContext.delete(book)
        try container.viewContext.save()
        #expect(!folder.externalFiles().contains(file))
    }

    @Test func readingAStoreLeavesNoFileBesideItAndChangesNoByte() throws {
        let folder = try ExternalStorageFolder()
        try Self.insertCovers(folder, titles: ["One"])
        let orphan = folder.externalDirectory.appendingPathComponent(UUID().uuidString)
        try Data("left by a crash".utf8).write(to: orphan)
        let bytes = try Data(contentsOf: folder.storeURL)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.folder.path).sorted()
        let reader = try folder.open(readOnly: true)
        #expect(try reader.viewContext.count(for: FetchRequest(entityName: "Book")) == 1)
        #expect(throws: SQLiteError.self) {
            try reader.viewContext.insertObject(forEntityName: "Book")["title"] = "No"
            try reader.viewContext.save()
        }
        try reader.viewContext.closeStore()
        #expect(try Data(contentsOf: folder.storeURL) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.folder.path).sorted() == before)
        #expect(FileManager.default.fileExists(atPath: orphan.path), "a reader sweeps nothing")
    }

    @Test func immutableReadingNeedsNoFileBesideTheStore() throws {
        // What a store on read-only media gets (StoreFile.readingMode): the mode itself,
        // tried on a writable folder, reads the store and creates nothing.
        let folder = try ExternalStorageFolder()
        try Self.insertCovers(folder, titles: ["One"])
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.folder.path).sorted()
        let database = try folder.file.connection(mode: .immutable)
        #expect(try database.scalar("SELECT count(*) FROM Book").int64Value == 1)
        #expect(throws: SQLiteError.self) { try database.execute("DELETE FROM Book") }
        try database.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.folder.path).sorted() == before)
    }
}
