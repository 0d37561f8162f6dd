#if PostgreSQL
import BookCatalog
import Foundation
import Persistence
import ProcessTestSupport
import Testing

/// A catalogue on PostgreSQL that the previous release wrote (model version 1) is migrated
/// by the first `books` command that opens it, inside the transaction that opens it, and
/// lists every book as the same catalogue migrated on SQLite does.
@Suite(.enabled(if: PostgreSQLTestDatabase.server != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLModelUpgradeTests {
    @Test func aVersion1CatalogueOnPostgreSQLMigratesAndListsAsOnSQLite() throws {
        let database = try PostgreSQLTestDatabase()
        let sandbox = try BooksSandbox()
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        let v1 = try ManagedObjectModel(contentsOf: bundle, version: "Books")
        try Self.fill(v1, storeURL: sandbox.store)
        try Self.fill(v1.copy(), storeURL: try #require(URL(string: database.url)))

        for command in [["list"], ["list", "--json"], ["list", "--by-month"], ["search", "the"]] {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.runBare(["--store", database.url] + command)
            #expect(onServer.status == 0, "\(command): \(onServer)")
            #expect(onServer.stdout == onFile.stdout, "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
        }
        // Version 2's new attributes and entity are there, and usable.
        let tag = try sandbox.runBare(["--store", database.url, "list", "--where", "rating == nil AND isbn == nil"])
        #expect(tag.status == 0, "\(tag)")
        #expect(tag.stdout == (try sandbox.run(["list"])).stdout)
    }

    /// Fills a version 1 catalogue at `storeURL` with the bundled books.
    static func fill(_ model: ManagedObjectModel, storeURL: URL) throws {
        let context = try PersistentContainer(model: model, storeURL: storeURL).viewContext
        var authors: [String: ManagedObject] = [:]
        for seed in try Catalog.bundledSeedBooks() {
            let book = try context.insertObject(forEntityName: "Book")
            try book.setValue(seed.uuid, forKey: "uuid")
            try book.setValue(seed.title, forKey: "title")
            try book.setValue(seed.publishDate, forKey: "publishDate")
            try book.setValue(seed.price, forKey: "price")
            try book.setValue(seed.color, forKey: "color")
            let author = try authors[seed.author] ?? context.insertObject(forEntityName: "Author")
            try author.setValue(seed.author, forKey: "name")
            authors[seed.author] = author
            try book.setValue(author, forKey: "author")
        }
        try context.save()
    }
}
#endif
