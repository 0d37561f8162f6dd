import BookCatalog
import Foundation
import Persistence
import ProcessTestSupport
import Testing

/// A catalogue the previous release wrote (model version 1) is migrated by the first
/// `books` command that opens it, and lists every book as it was.
@Suite struct ModelUpgradeTests {
    @Test func theFirstListingOfAVersion1CatalogueMigratesItWithEveryBookAsItWas() throws {
        let sandbox = try BooksSandbox()
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        let seeds = try Catalog.bundledSeedBooks()
        try Self.fillVersion1(ManagedObjectModel(contentsOf: bundle, version: "Books"), storeURL: sandbox.store)

        let run = try sandbox.run(["list", "--json"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        #expect(FileManager.default.fileExists(atPath: sandbox.store.path + ".pre-migration"))
        var listed: [String: [String: String]] = [:]
        for object in try run.jsonObjects() {
            let uuid = try #require(object["uuid"] as? String)
            listed[uuid] = object.compactMapValues { $0 as? String }
        }
        #expect(listed.count == seeds.count)
        for seed in seeds {
            let book = try #require(listed[seed.uuid.uuidString])
            #expect(book["title"] == seed.title)
            #expect(book["author"] == seed.author)
            #expect(book["publishDate"] == DateText.formatDay(seed.publishDate, timeZone: Catalog.calendarTimeZone))
            #expect(book["price"].flatMap { Decimal(string: $0) } == seed.price)
            #expect(book["color"] == seed.color?.hex)
        }
        #expect(try sandbox.run(["check"]).status == 0)
    }

    /// Fills a version 1 catalogue at `storeURL` with the bundled books.
    static func fillVersion1(_ model: ManagedObjectModel, storeURL: URL) throws {
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
