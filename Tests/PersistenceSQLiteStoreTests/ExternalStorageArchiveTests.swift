import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Export and import (`StoreArchive`, behind `persistence-tool store export|import|delete`)
/// see the bytes of externally stored values, never their references.
@Suite struct ExternalStorageArchiveTests {
    @Test func exportWritesTheBytesAndImportStoresThemOutsideAgain() throws {
        let folder = try ExternalStorageFolder()
        let cover = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 7, seed: 3)
        do {
            let context = try folder.open().viewContext
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Exported"
            book["isbn"] = "1"
            book["cover"] = cover
            try context.save()
        }
        let json = try StoreArchive.exportJSON(from: try folder.open().viewContext)
        #expect(json.contains(cover.base64EncodedString()))
        #expect(!json.contains("external:"), "a reference never leaves the store")

        let copy = try ExternalStorageFolder()
        _ = try StoreArchive.importJSON(Data(json.utf8), into: try copy.open().viewContext)
        #expect(copy.externalFiles().count == 1)
        #expect(try copy.rows("SELECT typeof(cover) FROM Book") == [[.text("text")]])
        #expect(try StoreArchive.exportJSON(from: try copy.open().viewContext) == json)
    }

    @Test func deletingThroughTheArchiveRemovesTheFile() throws {
        let folder = try ExternalStorageFolder()
        let context = try folder.open().viewContext
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Deleted"
        book["cover"] = ExternalStorageFolder.bytes(ExternalStorageFolder.threshold + 1)
        try context.save()
        #expect(folder.externalFiles().count == 1)
        _ = try StoreArchive.deleteObjects(withIDs: ["Book/p1"], from: try folder.open().viewContext)
        #expect(folder.externalFiles().isEmpty)
        #expect(try folder.count("Book") == 0)
    }
}
