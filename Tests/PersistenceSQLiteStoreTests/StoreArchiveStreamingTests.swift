import Foundation
import PersistenceTestSupport
import Testing

import Persistence
import PersistenceSQLite

/// Export streams: objects are written a page at a time, and the text is the same whatever
/// the page size, the same as rendering the whole document at once, and a file export is
/// whole or absent.
@Suite struct StoreArchiveStreamingTests {
    /// A saved store of the relationship model with every kind of relationship, a
    /// sub-entity, and references to rows deleted behind the context's back (a to-one
    /// column and a join-table row pointing nowhere).
    private static func relationshipStore() throws -> (TemporaryStore, PersistentContainer) {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: relationshipModel(), storeURL: store.url)
            let context = container.viewContext
            let authors = try (0..<4).map { try context.make("Author", "a\($0)") }
            let tags = try (0..<5).map { try context.make("Tag", "t\($0)") }
            var books: [ManagedObject] = []
            for i in 0..<9 {
                let book = try context.make("Book", "b\(i)")
                book.setObject(authors[(i * 3) % 4], forKey: "author")
                for j in 0..<5 where (i + j) % 3 == 0 { book.addObject(tags[(j * 2) % 5], forKey: "tags") }
                for k in 0..<(i % 4) { book.addObject(try context.make("Chapter", "c\(i)-\(k)"), forKey: "chapters") }
                books.append(book)
            }
            for (i, book) in books.enumerated() {
                for k in [7, 2, 5] where k != i { book.addObject(books[k], forKey: "related") }
            }
            let songs = try (0..<4).map { try context.make("Song", "s\($0)") }
            try context.make("Playlist", "p1").setValue([songs[3], songs[0], songs[2]], forKey: "songs")
            try context.make("Playlist", "p2").setValue([songs[1], songs[3]], forKey: "songs")
            let gadget = try context.make("Gadget", "g")
            try context.make("Box", "box").setValue([gadget, try context.make("Item", "i")], forKey: "items")
            try context.save()
            try store.file.write("DELETE FROM Author WHERE _id = 2")
            try store.file.write("DELETE FROM Tag WHERE _id = 3")
        }
        return (store, try PersistentContainer(model: relationshipModel(), storeURL: store.url))
    }

    private static func text(_ context: ManagedObjectContext, pageSize: Int, budget: Int = 4_096) throws -> String {
        var writer = StoreArchiveWriter(context: context)
        writer.pageSize = pageSize
        writer.destinationBudget = budget
        var text = ""
        try writer.write { text += $0 }
        return text
    }

    @Test func everyPageSizeWritesTheTextOfTheWholeDocument() throws {
        let (store, container) = try Self.relationshipStore()
        defer { withExtendedLifetime(store) {} }
        let context = container.viewContext
        let whole = try StoreArchive.exportJSON(from: context)
        // The streamed text is exactly what rendering the document in one piece gives.
        #expect(try JSONValue.parse(Data(whole.utf8)).rendered() == whole)
        for pageSize in [1, 2, 3, 7] {
            #expect(try Self.text(context, pageSize: pageSize) == whole, "page size \(pageSize)")
        }
        // Pages cut early by the number of destinations they reference.
        for budget in [1, 4, 10] {
            #expect(try Self.text(context, pageSize: 100, budget: budget) == whole, "budget \(budget)")
        }
        // References to deleted rows read as null or are left out, as they read.
        #expect(whole.contains(#""author": null"#))
        #expect(!whole.contains(#""Tag/p3""#))
        #expect(whole.contains(#""Gadget/p1""#))
    }

    @Test func unsavedChangesAreExportedAsAFetchSeesThem() throws {
        let (store, container) = try Self.relationshipStore()
        defer { withExtendedLifetime(store) {} }
        let context = container.viewContext
        let book = try context.make("Book", "unsaved")
        book.addObject(try context.named("Tag", "t1"), forKey: "tags")
        let text = try Self.text(context, pageSize: 2)
        #expect(text == (try Self.text(context, pageSize: 100)))
        #expect(text.contains(#""title": "unsaved""#))
        #expect(try JSONValue.parse(Data(text.utf8)).rendered() == text)
    }

    @Test func anEmptyStoreExportsAnEmptyObject() throws {
        let container = try PersistentContainer(model: relationshipModel(), storeURL: nil)
        #expect(try StoreArchive.exportJSON(from: container.viewContext) == "{}")
    }

    @Test func aFileExportHasTheSameBytesAndReplacesTheFileWhole() throws {
        let (store, container) = try Self.relationshipStore()
        defer { withExtendedLifetime(store) {} }
        let context = container.viewContext
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("out.json")
        try Data("old".utf8).write(to: url)
        try StoreArchive.exportJSON(from: context, to: url)
        let whole = try StoreArchive.exportJSON(from: context)
        #expect(try String(contentsOf: url, encoding: .utf8) == whole)
        try StoreArchive.exportJSON(from: context, to: url, finalNewline: true)
        #expect(try String(contentsOf: url, encoding: .utf8) == whole + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.json"])
    }

    @Test func aFailedExportLeavesTheFileAsItWasAndNoPartialFile() throws {
        let (store, container) = try Self.relationshipStore()
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let existing = directory.appendingPathComponent("existing.json")
        let absent = directory.appendingPathComponent("absent.json")
        try Data("previous".utf8).write(to: existing)
        // Entities are written by name: Author, Book, … then Tag fails after pages were written.
        do {
            let database = try store.file.connection(mode: .createIfMissing)
            try database.execute("DROP TABLE Tag")
            try database.close()
        }
        for url in [existing, absent] {
            #expect(throws: SQLiteError.self) {
                try StoreArchive.exportJSON(from: container.viewContext, to: url)
            }
        }
        #expect(try String(contentsOf: existing, encoding: .utf8) == "previous")
        #expect(!FileManager.default.fileExists(atPath: absent.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["existing.json"])
    }

    @Test func anUnwritableDestinationIsNamedInTheError() throws {
        let container = try PersistentContainer(model: relationshipModel(), storeURL: nil)
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.json")
        let error = #expect(throws: StoreArchiveError.self) {
            try StoreArchive.exportJSON(from: container.viewContext, to: url)
        }
        #expect(error?.description.hasPrefix("\(url.path): the export could not be written: ") == true, "\(String(describing: error))")
    }
}
