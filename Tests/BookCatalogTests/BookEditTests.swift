import Foundation
import Testing
@testable import BookCatalog
import Persistence

/// `Catalog.edit`: the sample's edit screen, with optimistic locking against another
/// writer of the same book.
@Suite struct BookEditTests {
    private static func storeURL() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("book-edit-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Books.sqlite")
    }

    private static let solaris = BookIDPrefix("A9EF420F")!

    @Test func anEditChangesTheFieldsGivenAndTheValuesDerivedFromThem() throws {
        let catalog = try Catalog(storeURL: nil)
        try catalog.seedSampleBooksIfNew()
        let book = try catalog.book(withID: Self.solaris)
        try catalog.edit(
            book, with: try BookEdit(title: "Solaris — wydanie drugie", date: "1961-05", isbn: "0306406152", rating: "4").checked())
        #expect(book.canonicalTitle?.hasSuffix("wydanie drugie") == true)
        #expect(book.publishMonthID == "1961005")
        #expect(book.datePrecision == "month")
        #expect(book.isbn == "9780306406157" && book.rating == 4)
        #expect(book.price == Decimal(string: "21.98"))
        try catalog.edit(book, with: try BookEdit(isbn: "", rating: "").checked())
        #expect(book.isbn == nil && book.rating == nil)
    }

    /// `Book` reads `publishDate` for its month at a fixed position, which a new model
    /// version can move: it must be where the current version (and its generated getter) has it.
    @Test func theMonthReadsThePublishDateWhereTheCurrentModelKeepsIt() throws {
        let catalog = try Catalog(storeURL: nil)
        let schema = try #require(catalog.context.model.schema(for: "Book"))
        #expect(schema.propertyIndex["publishDate"] == Book.publishDatePosition)
    }

    @Test func anotherWritersEditInBetweenIsAConflictAndNothingIsLost() throws {
        let url = try Self.storeURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let first = try Catalog(storeURL: url)
        try first.seedSampleBooksIfNew()
        let second = try Catalog(storeURL: url)

        let mine = try first.book(withID: Self.solaris)
        _ = mine.title  // read before the other writer saves
        let theirs = try second.book(withID: Self.solaris)
        try second.edit(theirs, with: try BookEdit(notes: "theirs").checked())

        #expect(throws: BookEditConflictError.self) {
            try first.edit(mine, with: try BookEdit(notes: "mine").checked())
        }
        let reader = try Catalog(storeURL: url)
        #expect(try reader.book(withID: Self.solaris).notes == "theirs")
        // The context was rolled back: read again, the edit applies.
        first.context.refreshAllObjects()
        let again = try first.book(withID: Self.solaris)
        try first.edit(again, with: try BookEdit(notes: "mine").checked())
        #expect(try Catalog(storeURL: url).book(withID: Self.solaris).notes == "mine")
    }

    @Test func anISBNAnotherBookHasIsRefused() throws {
        let catalog = try Catalog(storeURL: nil)
        try catalog.seedSampleBooksIfNew()
        try catalog.edit(try catalog.book(withID: Self.solaris), with: try BookEdit(isbn: "978-0-306-40615-7").checked())
        let other = try catalog.book(withID: BookIDPrefix("3D7B6A6B")!)
        #expect(throws: CatalogInputError.self) {
            try catalog.edit(other, with: try BookEdit(isbn: "0-306-40615-2").checked())
        }
        #expect(other.isbn == nil)
    }
}
