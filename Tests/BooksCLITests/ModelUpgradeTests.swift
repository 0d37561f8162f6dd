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

    /// Three commands opening one version 1 catalogue at once: one migrates it, the others
    /// wait for it and find it migrated; none fails, none damages it. (Before migrations took
    /// turns, one in a few rounds failed with "other connections wrote to it" or with
    /// SQLITE_CORRUPT_INDEX from running its plans on the migrated store.)
    @Test func commandsOpeningAVersion1CatalogueAtOnceAllSucceed() throws {
        let sandbox = try BooksSandbox()
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        let template = sandbox.directory.appendingPathComponent("v1.sqlite")
        try Self.fillVersion1(ManagedObjectModel(contentsOf: bundle, version: "Books"), storeURL: template)
        for round in 0..<6 {
            let folder = sandbox.directory.appendingPathComponent("round\(round)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("Books.sqlite")
            try FileManager.default.copyItem(at: template, to: store)
            let commands = [["list", "--limit", "1"], ["search", "lem", "--limit", "0"], ["list", "--json"]]
            let runs = ConcurrentRuns(count: commands.count)
            let environment = sandbox.environment()
            DispatchQueue.concurrentPerform(iterations: commands.count) { index in
                runs.set(index, Result { try BooksRun(["--store", store.path] + commands[index], environment: environment) })
            }
            for (index, result) in runs.results.enumerated() {
                let run = try #require(try result?.get())
                #expect(run.status == 0 && !run.stderr.contains("Error"), "round \(round), \(commands[index]): \(run)")
            }
            #expect(try StoreAudit(store: store).count("Book") == 459)
            #expect(try BooksRun(["--store", store.path, "check"], environment: sandbox.environment()).status == 0)
        }
    }

    /// A version 1 catalogue that cannot be written (read-only media, someone else's file)
    /// is refused as one that needs migrating, not as another model's, and left as it was.
    @Test(.enabled(if: BadStoreTests.canDropPrivileges))
    func aVersion1CatalogueOnReadOnlyMediaSaysItNeedsMigrating() throws {
        let sandbox = try BooksSandbox()
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        try Self.fillVersion1(ManagedObjectModel(contentsOf: bundle, version: "Books"), storeURL: sandbox.store)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.store.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sandbox.directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.directory.path) }
        let before = try Data(contentsOf: sandbox.store)
        for arguments in [["list"], ["search", "lem"]] {
            let run = try BadStoreTests.runUnprivileged(arguments, sandbox: sandbox)
            #expect(run.status == 1 && run.stdout.isEmpty, "\(arguments): \(run)")
            #expect(
                run.stderr == "Error: The store \(sandbox.store.path) was written with model version \"1\" and must be "
                    + "migrated to \"4\" before this release can open it, but it is read-only here; nothing was changed: "
                    + "open it once where it can be written, or copy it to a writable folder\n", "\(run)")
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path) == ["Books.sqlite"])
    }

    /// A copy aside that a migration killed while copying left behind
    /// (`.pre-migration.partial-…`) is removed by the next migration of the store.
    @Test func aPartialCopyOfAKilledMigrationIsRemovedByTheNext() throws {
        let sandbox = try BooksSandbox()
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        try Self.fillVersion1(ManagedObjectModel(contentsOf: bundle, version: "Books"), storeURL: sandbox.store)
        let partial = sandbox.directory.appendingPathComponent("Books.sqlite.pre-migration.partial-6F1C2A9E-0000-4000-8000-000000000000")
        try Data(repeating: 0x53, count: 4096).write(to: partial)
        let run = try sandbox.run(["list", "--limit", "1"])
        #expect(run.status == 0, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(FileManager.default.fileExists(atPath: sandbox.store.path + ".pre-migration"))
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

/// The results of runs made on several threads at once, each kept in its own slot.
private final class ConcurrentRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<BooksRun, any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<BooksRun, any Error>) {
        lock.withLock { slots[index] = result }
    }

    var results: [Result<BooksRun, any Error>?] { lock.withLock { slots } }
}
