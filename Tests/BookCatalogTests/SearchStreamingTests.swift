import Foundation
import Testing

import Persistence
import BookCatalog

/// Every match of a search, streamed: the rank sort of an unlimited search spills to a
/// temporary file rather than memory (SQLite's sorter keeps every matching row until the
/// first is read), and the connection's setting is restored after.
@Suite struct SearchStreamingTests {
    private func tempStore(_ context: ManagedObjectContext) throws -> Int64? {
        try context.storeTemporaryStorage()
    }

    @Test func anUnlimitedSearchSortsThroughATemporaryFileAndGivesTheSameBooks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try Catalog(storeURL: directory.appendingPathComponent("Books.sqlite"))
        _ = try catalog.seed(try Catalog.bundledSeedBooks())
        let context = catalog.context
        #expect(try tempStore(context) == 2)  // MEMORY
        var streamed: [String] = []
        var during: Set<Int64?> = []
        try catalog.forEachSearchResult("e") { book in
            streamed.append(book.title)
            during.insert(try? tempStore(context))
        }
        #expect(during == [1])  // FILE while the rows are read
        #expect(try tempStore(context) == 2)
        #expect(streamed.count > 100)
        #expect(streamed == (try catalog.search("e")).map(\.title))
        // A limited search sorts a bounded number of rows and keeps the setting.
        try catalog.forEachSearchResult("e", limit: 5) { _ in during.insert(try? tempStore(context)) }
        #expect(during == [1, 2])
    }
}
