import Foundation
import Testing
@testable import BookCatalog
import Persistence

/// The sample books are seeded once, into a catalogue that has never held a book; a
/// catalogue its user emptied stays empty.
@Suite struct SampleBooksTests {
    static let sampleCount = 459

    /// A store file in a fresh directory, removed with it by `cleanUp`.
    private static func storeURL() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sample-books-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Books.sqlite")
    }

    private static func cleanUp(_ url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    private static func deleteEveryBook(_ catalog: Catalog) throws {
        for book in try catalog.context.fetch(FetchRequest(entityName: "Book")) { catalog.context.delete(book) }
        try catalog.context.save()
    }

    /// What a store written by the previous release looks like: no record of the samples.
    private static func forgetRecord(_ catalog: Catalog) throws {
        try catalog.context.removeApplicationMetadata(forKey: Catalog.sampleBooksKey)
    }

    @Test func aNewCatalogueIsSeededOnceAndAnEmptiedOneNeverAgain() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        do {
            let catalog = try Catalog(storeURL: url)
            #expect(try catalog.seedSampleBooksIfNew() == Self.sampleCount)
            #expect(try catalog.seedSampleBooksIfNew() == 0)
            try Self.deleteEveryBook(catalog)
            #expect(try catalog.bookCount() == 0)
            #expect(try catalog.seedSampleBooksIfNew() == 0)
        }
        let reopened = try Catalog(storeURL: url)
        #expect(try reopened.seedSampleBooksIfNew() == 0)
        #expect(try reopened.bookCount() == 0)
        #expect(try reopened.context.applicationMetadata(forKey: Catalog.sampleBooksKey) == "seeded")
    }

    @Test func aCatalogueBegunByAddingABookIsNotSeededEvenOnceEmptied() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let catalog = try Catalog(storeURL: url)
        let book = try catalog.add(try BookEdit(title: "Mine", authors: ["Me"], date: "2020-01-02", price: "1").checked())
        #expect(try catalog.seedSampleBooksIfNew() == 0)
        #expect(try catalog.delete(uuid: book.uuid))
        #expect(try catalog.seedSampleBooksIfNew() == 0)
        #expect(try catalog.bookCount() == 0)
    }

    @Test func storesOfThePreviousReleaseCountAsSeededOnceTheyHeldABook() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let catalog = try Catalog(storeURL: url)
        // Books but no record: seeded.
        _ = try catalog.add(try BookEdit(title: "Mine", authors: ["Me"], date: "2020-01-02", price: "1").checked())
        try Self.forgetRecord(catalog)
        #expect(try catalog.seedSampleBooksIfNew() == 0)
        // Emptied by its user, no record: still seeded, never again.
        try Self.deleteEveryBook(catalog)
        try Self.forgetRecord(catalog)
        #expect(try catalog.seedSampleBooksIfNew() == 0)
        #expect(try catalog.bookCount() == 0)
    }

    @Test func anEmptyStoreThatNeverHeldABookIsSeeded() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        _ = try Catalog(storeURL: url)  // what an older `books show` of a missing UUID left
        let catalog = try Catalog(storeURL: url)
        #expect(try catalog.seedSampleBooksIfNew() == Self.sampleCount)
    }

    @Test func anExplicitSeedDecidesTheSampleBooks() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let file = url.deletingLastPathComponent().appendingPathComponent("empty.json")
        try Data("[]".utf8).write(to: file)
        let catalog = try Catalog(storeURL: url)
        #expect(try catalog.seed(file: SeedFile(path: file.path)) == SeedSummary(given: 0, added: 0))
        #expect(try catalog.seedSampleBooksIfNew() == 0)
        #expect(try catalog.bookCount() == 0)
    }
}
