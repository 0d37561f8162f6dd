import Foundation
import Testing
@testable import BookCatalog
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite

/// A catalogue written by the release before model version 2 (the first `Books.xcdatamodel`)
/// opens as a version 2 catalogue with every book as it was: migrated on open by lightweight
/// migration, with the old file kept beside it.
@Suite struct ModelMigrationTests {
    /// A store file in a fresh directory, removed with it by `cleanUp`.
    private static func storeURL() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("model-migration-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Books.sqlite")
    }

    private static func cleanUp(_ url: URL) {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    /// One book as both models store it: what must survive the migration.
    private struct BookFacts: Hashable {
        var uuid: UUID
        var title: String
        var author: String?
        var publishDate: Date?
        var price: Decimal?
        var color: String?
    }

    /// Writes the sample books into a new store with an earlier model version, as `books` of
    /// that release did (objects of the plain `ManagedObject` class: that release's generated
    /// `Book` had none of the later properties): version 1 (`"Books"`) links each book to its
    /// author through the to-one `author`; version 3 (`"Books 3"`) through `authors`, with
    /// the byline. `absentEntity` is the entity the version must not have yet.
    private static func writeStore(at url: URL, version: String, absentEntity: String) throws -> Set<BookFacts> {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let model = try ManagedObjectModel(contentsOf: try Catalog.modelBundleURL(), version: version)
        #expect(model.entity(named: absentEntity) == nil)
        let linksAuthorsInOrder = model.entity(named: "Book")?.relationship(named: "authors") != nil
        let container = try PersistentContainer(model: model, storeURL: url)
        let context = container.viewContext
        var authors: [String: ManagedObject] = [:]
        var facts: Set<BookFacts> = []
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
            if linksAuthorsInOrder {
                try book.setValue(seed.author, forKey: "byline")
                try book.setValue([author], forKey: "authors")
            } else {
                try book.setValue(author, forKey: "author")
            }
            facts.insert(
                BookFacts(
                    uuid: seed.uuid, title: seed.title, author: seed.author, publishDate: seed.publishDate,
                    price: seed.price, color: seed.color?.hex))
        }
        try context.save()
        try container.persistentStoreCoordinator.close()
        return facts
    }

    private static func writeVersion1Store(at url: URL) throws -> Set<BookFacts> {
        try writeStore(at: url, version: "Books", absentEntity: "Tag")
    }

    private static func facts(of catalog: Catalog) throws -> Set<BookFacts> {
        var facts: Set<BookFacts> = []
        for case let book as Book in try catalog.context.fetch(FetchRequest(entityName: "Book")) {
            facts.insert(
                BookFacts(
                    uuid: book.uuid, title: book.title, author: book.authorNames.first, publishDate: book.publishDate,
                    price: book.price, color: book.color?.hex))
        }
        return facts
    }

    @Test func aVersion1CatalogueKeepsEveryBookThroughTheMigration() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let written = try Self.writeVersion1Store(at: url)
        #expect(written.count == SampleBooksTests.sampleCount)

        let catalog = try Catalog(storeURL: url)
        #expect(try Self.facts(of: catalog) == written)
        #expect(FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
        // Nothing was seeded on top, and the new attributes are empty: a migrated book's
        // date is a known day, as every date of version 1 was.
        #expect(try catalog.seedSampleBooksIfNew() == 0)
        let first = try #require(written.first)
        let book = try #require(try catalog.existingBook(uuid: first.uuid))
        #expect(book.isbn == nil && book.language == nil && book.rating == nil && book.status == nil)
        #expect(DatePrecision(storedValue: book.datePrecision) == .day)
        #expect(book.tags.isEmpty)

        // Reopened, the store is current: no second migration, the same books.
        try FileManager.default.removeItem(atPath: url.path + ".pre-migration")
        let reopened = try Catalog(storeURL: url)
        #expect(try Self.facts(of: reopened) == written)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    @Test func checkingAVersion1CatalogueFindsItHealthyAndLeavesItAsItWas() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        _ = try Self.writeVersion1Store(at: url)
        let before = try Data(contentsOf: url)
        let result = try Catalog.check(storeURL: url)
        #expect(result.isHealthy, "\(result.problems)")
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    @Test func aMigratedCatalogueTakesTagsAndTheNewAttributes() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let written = try Self.writeVersion1Store(at: url)
        let catalog = try Catalog(storeURL: url)
        let first = try #require(written.first)
        let book = try #require(try catalog.existingBook(uuid: first.uuid))
        let tag = try catalog.context.insert(Tag.self)
        tag.name = "Ciencia ficción"
        book.addToTags(tag)
        book.isbn = try BookInput.isbn("0-306-40615-2")
        book.rating = 4
        book.status = ReadingStatus.reading.rawValue
        try catalog.context.save()
        #expect(tag.canonicalName == "ciencia ficcion")

        let reopened = try Catalog(storeURL: url)
        let again = try #require(try reopened.existingBook(uuid: book.uuid))
        #expect(again.isbn == "9780306406157")
        #expect(again.rating == 4)
        #expect(again.tags.map(\.name) == ["Ciencia ficción"])
    }

    // MARK: - Version 2 to version 3

    /// Writes the sample books into a new store with model version 2, as `books` of the
    /// release before version 3 did, the first book with version 2's fields and a tag.
    private static func writeVersion2Store(at url: URL) throws -> Set<BookFacts> {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let v2 = try ManagedObjectModel(contentsOf: try Catalog.modelBundleURL(), version: "Books 2")
        #expect(v2.entity(named: "Book")?.relationships.contains { $0.name == "author" } == true)
        let container = try PersistentContainer(model: v2, storeURL: url)
        let context = container.viewContext
        var authors: [String: ManagedObject] = [:]
        var facts: Set<BookFacts> = []
        let tag = try context.insertObject(forEntityName: "Tag")
        try tag.setValue("Clásicos", forKey: "name")
        for (index, seed) in try Catalog.bundledSeedBooks().enumerated() {
            let book = try context.insertObject(forEntityName: "Book")
            try book.setValue(seed.uuid, forKey: "uuid")
            try book.setValue(seed.title, forKey: "title")
            try book.setValue(seed.publishDate, forKey: "publishDate")
            try book.setValue(seed.price, forKey: "price")
            try book.setValue(seed.color, forKey: "color")
            try book.setValue(seed.datePrecision.rawValue, forKey: "datePrecision")
            if index == 0 {
                try book.setValue("9780306406157", forKey: "isbn")
                try book.setValue(Int16(4), forKey: "rating")
                try book.setValue("read", forKey: "status")
                try book.setValue([tag], forKey: "tags")
            }
            let author = try authors[seed.author] ?? context.insertObject(forEntityName: "Author")
            try author.setValue(seed.author, forKey: "name")
            authors[seed.author] = author
            try book.setValue(author, forKey: "author")
            facts.insert(
                BookFacts(
                    uuid: seed.uuid, title: seed.title, author: seed.author, publishDate: seed.publishDate,
                    price: seed.price, color: seed.color?.hex))
        }
        try context.save()
        return facts
    }

    @Test func aVersion2CatalogueKeepsEveryBookAndAuthorThroughTheMigrationToVersion3() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let written = try Self.writeVersion2Store(at: url)
        let catalog = try Catalog(storeURL: url)
        #expect(try Self.facts(of: catalog) == written)
        #expect(FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
        #expect(try catalog.seedSampleBooksIfNew() == 0)

        // The author of version 2 is the first (and only) of `authors`, and the byline the
        // catalogue fills in once makes the book found and sorted by it.
        let seeds = try Catalog.bundledSeedBooks()
        let first = try #require(seeds.first)
        let book = try #require(try catalog.existingBook(uuid: first.uuid))
        #expect(book.authorNames == [first.author])
        #expect(book.byline == first.author)
        #expect(book.isbn == "9780306406157" && book.rating == 4 && book.status == "read")
        #expect(book.tagNames == ["Clásicos"])
        #expect(book.series == nil && book.pages == nil && book.review == nil && book.dateRead == nil)
        let surname = try #require(first.author.split(separator: " ").last.map(String.init))
        #expect(try catalog.search("author:\(surname)").contains { $0.uuid == first.uuid })
        var byAuthor: [String] = []
        try catalog.forEachBook(order: ListingOrder(key: .author)) { byAuthor.append($0.byline ?? "") }
        #expect(byAuthor.count == seeds.count)
        #expect(byAuthor.map { CanonicalText.fold($0) } == byAuthor.map { CanonicalText.fold($0) }.sorted())

        // An author holds every book of version 2 that named them.
        let authorBooks = try catalog.context.fetch(FetchRequest(entityName: "Author"))
            .reduce(0) { $0 + (($1 as? Author)?.books.count ?? 0) }
        #expect(authorBooks == seeds.count)

        // Reopened: no second migration, nothing changed.
        try FileManager.default.removeItem(atPath: url.path + ".pre-migration")
        let reopened = try Catalog(storeURL: url)
        #expect(try Self.facts(of: reopened) == written)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    @Test func aVersion1CatalogueReachesVersion3WithItsAuthorsAndBylines() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        _ = try Self.writeVersion1Store(at: url)
        let catalog = try Catalog(storeURL: url)
        let seeds = try Catalog.bundledSeedBooks()
        for seed in seeds.prefix(20) {
            let book = try #require(try catalog.existingBook(uuid: seed.uuid))
            #expect(book.authorNames == [seed.author])
            #expect(book.byline == seed.author)
        }
    }

    @Test func version3BooksMayHaveNoDateOrPriceAndSeveralAuthors() throws {
        let url = try Self.storeURL()
        defer { Self.cleanUp(url) }
        let catalog = try Catalog(storeURL: url)
        let book = try catalog.add(
            try BookEdit(
                title: "Good Omens", authors: ["Terry Pratchett", "Neil Gaiman"], series: "Discworld-adjacent",
                seriesNumber: "2.5", publisher: "Gollancz", pages: "288", format: "Paperback", dateRead: "2024/03/01",
                readCount: "2", review: "Line one\nline two"
            ).checked())
        let reopened = try Catalog(storeURL: url)
        let again = try #require(try reopened.existingBook(uuid: book.uuid))
        #expect(again.authorNames == ["Terry Pratchett", "Neil Gaiman"])
        #expect(again.byline == "Terry Pratchett & Neil Gaiman")
        #expect(again.publishDate == nil && again.price == nil && again.publishMonthID == nil)
        #expect(again.seriesNumber == Decimal(string: "2.5") && again.pages == 288 && again.readCount == 2)
        #expect(again.review == "Line one\nline two")
        #expect(try reopened.search("gaiman").map(\.uuid) == [book.uuid])
    }

    // MARK: - Core Data's layout

    /// A catalogue in Core Data's layout written with model version 2 (its books copied
    /// from a version 2 catalogue file, as `persistence-tool store convert` makes one) is
    /// migrated on open: every book with its author as first of `authors` and its byline,
    /// the store's UUID kept, the store as it was beside it, and Core Data's bookkeeping
    /// consistent (each table's `Z_MAX` at its largest `Z_PK`).
    @Test func aVersion2CatalogueInCoreDatasLayoutIsMigratedOnOpen() throws {
        let plain = try Self.storeURL()
        defer { Self.cleanUp(plain) }
        let written = try Self.writeVersion2Store(at: plain)
        let v2 = try ManagedObjectModel(contentsOf: try Catalog.modelBundleURL(), version: "Books 2")
        let url = plain.deletingLastPathComponent().appendingPathComponent("CoreData.sqlite")
        do {
            let source = try PersistentContainer(model: v2, storeURL: plain, readOnly: true)
            let document = try StoreArchive.exportJSON(from: source.viewContext)
            try CoreDataStore.create(model: v2, at: url)
            let target = try PersistentContainer(model: v2, storeURL: url)
            _ = try StoreArchive.importJSON(Data(document.utf8), into: target.viewContext)
            try target.persistentStoreCoordinator.close()
            try source.persistentStoreCoordinator.close()
        }
        let uuid = try Self.sql(url, "SELECT Z_UUID FROM Z_METADATA").first?.first?.stringValue

        let catalog = try Catalog(storeURL: url)
        #expect(catalog.container.migratedStore)
        #expect(try Self.facts(of: catalog) == written)
        let seeds = try Catalog.bundledSeedBooks()
        let first = try #require(seeds.first)
        let book = try #require(try catalog.existingBook(uuid: first.uuid))
        #expect(book.authorNames == [first.author] && book.byline == first.author)
        #expect(book.isbn == "9780306406157" && book.tagNames == ["Clásicos"])
        #expect(try catalog.search("author:\(first.author.split(separator: " ").last.map(String.init) ?? "")")
            .contains { $0.uuid == first.uuid })
        try catalog.container.persistentStoreCoordinator.close()

        #expect(try Self.sql(url, "SELECT Z_UUID FROM Z_METADATA").first?.first?.stringValue == uuid)
        #expect(FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.contains("migrating") || $0.contains("partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        for row in try Self.sql(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Book', 'Author')") {
            let table = "Z" + (row[0].stringValue ?? "").uppercased()
            #expect(try Self.sql(url, "SELECT max(Z_PK) FROM \(table)").first?.first?.int64Value == row[1].int64Value)
        }
        // The copy kept beside it is the version 2 store, still readable with version 2.
        let before = try PersistentContainer(model: v2, storeURL: URL(fileURLWithPath: url.path + ".pre-migration"), readOnly: true)
        #expect(try before.viewContext.count(for: FetchRequest(entityName: "Book")) == seeds.count)
        // Reopened: nothing more to migrate.
        #expect(try !Catalog(storeURL: url).container.migratedStore)
    }

    /// Opened read-only, a store in Core Data's layout of an earlier version is refused in
    /// one line naming both versions, the file as it was.
    @Test func aCoreDataStoreOfAnEarlierVersionOpenedReadOnlyIsRefusedNamingTheVersions() throws {
        let plain = try Self.storeURL()
        defer { Self.cleanUp(plain) }
        let bundle = try Catalog.modelBundleURL()
        let versions = try ManagedObjectModel.versionNames(in: bundle).map { try ManagedObjectModel(contentsOf: bundle, version: $0) }
        let url = plain.deletingLastPathComponent().appendingPathComponent("CoreData.sqlite")
        try CoreDataStore.create(model: try ManagedObjectModel(contentsOf: bundle, version: "Books"), at: url)
        let before = try Data(contentsOf: url)
        var options = SQLiteStore.Options()
        options.readOnly = true
        let error = #expect(throws: MigrationError.self) {
            try PersistentContainer(
                model: try Catalog.loadModel(), storeURL: url, classes: [:], options: options, migratingFrom: versions)
        }
        #expect(error?.kind == .readOnly, "\(String(describing: error))")
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("\"1\"") && message.contains("\"4\"") && !message.contains("\n"), "\(message)")
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    // MARK: - Version 3 to version 4

    private static func writeVersion3Store(at url: URL) throws -> Set<BookFacts> {
        try writeStore(at: url, version: "Books 3", absentEntity: "ImportedValues")
    }

    /// A version 3 catalogue, in the library's layout and in Core Data's, is migrated on
    /// open to version 4 with every book, and then keeps what an import gave its books.
    @Test(arguments: [false, true])
    func aVersion3CatalogueIsMigratedToVersion4AndKeepsImportedValues(coreDataLayout: Bool) throws {
        let plain = try Self.storeURL()
        defer { Self.cleanUp(plain) }
        let written = try Self.writeVersion3Store(at: plain)
        var url = plain
        if coreDataLayout {
            let v3 = try ManagedObjectModel(contentsOf: try Catalog.modelBundleURL(), version: "Books 3")
            url = plain.deletingLastPathComponent().appendingPathComponent("CoreData.sqlite")
            let source = try PersistentContainer(model: v3, storeURL: plain, readOnly: true)
            let document = try StoreArchive.exportJSON(from: source.viewContext)
            try CoreDataStore.create(model: v3, at: url)
            let target = try PersistentContainer(model: v3, storeURL: url)
            _ = try StoreArchive.importJSON(Data(document.utf8), into: target.viewContext)
            try target.persistentStoreCoordinator.close()
            try source.persistentStoreCoordinator.close()
        }
        let catalog = try Catalog(storeURL: url)
        #expect(catalog.container.migratedStore)
        #expect(try Self.facts(of: catalog) == written)
        #expect(FileManager.default.fileExists(atPath: url.path + ".pre-migration"))

        // A books export of one book with its rating changed: imported, its values kept.
        let first = try #require(written.first)
        let entry: [String: Any] = [
            "uuid": first.uuid.uuidString, "title": first.title, "authors": [first.author ?? ""], "rating": 4,
        ]
        let data = try JSONSerialization.data(withJSONObject: [entry])
        let result = try catalog.importBooks(try ImportFile(data: data, name: "books.json"))
        #expect(result.updated == 1)
        try catalog.container.persistentStoreCoordinator.close()

        let reopened = try Catalog(storeURL: url)
        #expect(!reopened.container.migratedStore)
        let kept = try reopened.importedValues(of: .books, forBooks: [first.uuid])
        let values = ImportedFieldValues(json: try #require(kept[first.uuid]).fieldValues)
        #expect(values.texts == [.title: first.title, .authors: first.author ?? "", .rating: "4"])
        #expect(try reopened.existingBook(uuid: first.uuid)?.rating == 4)
    }

    private static func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(query)
    }
}
