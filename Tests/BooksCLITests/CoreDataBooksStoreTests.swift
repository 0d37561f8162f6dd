import BookCatalog
import Foundation
import Persistence
import PersistenceSQLite
import Testing

/// `books --store Books.sqlite` on a store in Core Data's own layout for the catalogue's
/// model, as Core Data's "Handling Different Data Types" sample app (whose model the
/// catalogue's follows) would leave it: made and filled through the library's Core Data
/// store (Z tables, Z_PRIMARYKEY, Z_METADATA, Z_MODELCACHE), then listed, searched, shown
/// and edited by the built binary, and read back with plain SQL in Core Data's layout.
@Suite struct CoreDataBooksStoreTests {
    static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    /// The books both stores get: title, author, day, precision, price, color, tags.
    static let books: [(uuid: String, title: String, author: String, date: String, precision: String?, price: String,
        color: Color?, tags: [String])] = [
        (solaris, "Solaris", "Stanisław Lem", "1961-06-01", "month", "12.50", Color(red: 30, green: 144, blue: 255), ["sf"]),
        ("3D7B6A6B-0000-4000-8000-000000000002", "Ficciones", "Jorge Luis Borges", "1944-01-01", "year", "9.99", nil, []),
        ("5E1F0000-0000-4000-8000-000000000003", "Cyberiada", "Stanisław Lem", "1965-03-14", nil, "7.25",
         Color(red: 255, green: 0, blue: 0), ["sf", "humour"]),
        ("77770000-0000-4000-8000-000000000004", "El Aleph", "Jorge Luis Borges", "1949-06-30", nil, "11.00", nil, []),
    ]

    /// Fills the empty store at `url` with `books` through a context, as an app would.
    static func fill(_ url: URL, model: ManagedObjectModel) throws {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let container = try PersistentContainer(model: model, storeURL: url, classes: BooksModel.classes)
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        var authors: [String: Author] = [:]
        var tags: [String: BookCatalog.Tag] = [:]
        let days = ISO8601DateFormatter()
        days.formatOptions = [.withFullDate]
        for entry in books {
            let book = try context.insert(Book.self)
            book.uuid = try #require(UUID(uuidString: entry.uuid))
            book.title = entry.title
            book.publishDate = try #require(days.date(from: entry.date))
            book.datePrecision = entry.precision
            book.price = try #require(Decimal(string: entry.price))
            book.color = entry.color
            book.dateAdded = Date(timeIntervalSince1970: 1_700_000_000)
            if authors[entry.author] == nil {
                let author = try context.insert(Author.self)
                author.name = entry.author
                authors[entry.author] = author
            }
            book.authors = authors[entry.author].map { [$0] } ?? []
            book.byline = entry.author
            for name in entry.tags {
                if tags[name] == nil {
                    let tag = try context.insert(BookCatalog.Tag.self)
                    tag.name = name
                    tags[name] = tag
                }
                book.addToTags(try #require(tags[name]))
            }
        }
        try context.save()
    }

    /// A sandbox whose store is a Core Data store of the catalogue's model, filled with `books`.
    static func coreDataSandbox() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        let model = try Catalog.loadModel()
        try CoreDataStore.create(model: model, at: sandbox.store)
        try fill(sandbox.store, model: model)
        return sandbox
    }

    /// A sandbox whose store is the catalogue's own kind of store, filled with the same books.
    static func persistenceSandbox() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        try fill(sandbox.store, model: try Catalog.loadModel())
        return sandbox
    }

    /// The rows of Core Data's join table of books and tags, and those of them whose book is
    /// gone.
    static func tagLinks(in store: URL) throws -> (total: Int64, dangling: Int64) {
        let database = try Database(path: store.path, mode: .readOnly)
        defer { try? database.close() }
        let table = try #require(
            try database.scalar("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TAGS' ESCAPE '\\'")
                .stringValue)
        let bookColumn = try #require(
            try database.scalar("SELECT name FROM pragma_table_info(?) WHERE name LIKE 'Z\\_%BOOKS' ESCAPE '\\'", [.text(table)])
                .stringValue)
        return (
            try database.scalar("SELECT count(*) FROM \"\(table)\"").int64Value ?? -1,
            try database.scalar(
                "SELECT count(*) FROM \"\(table)\" WHERE \"\(bookColumn)\" NOT IN (SELECT Z_PK FROM ZBOOK)"
            ).int64Value ?? -1
        )
    }

    @Test func theStoreIsInCoreDatasLayout() throws {
        let sandbox = try Self.coreDataSandbox()
        let database = try Database(path: sandbox.store.path, mode: .readOnly)
        defer { try? database.close() }
        let keys = try database.query("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(keys.map { $0.map(\.description).joined(separator: " ") } == ["'Author' 2", "'Book' 4", "'ImportedValues' 0", "'Tag' 2"])
        #expect(try database.scalar("SELECT count(*) FROM Z_METADATA").int64Value == 1)
        #expect(try database.scalar("SELECT length(Z_CONTENT) > 0 FROM Z_MODELCACHE").int64Value == 1)
        #expect(try database.scalar("SELECT count(*) FROM ZBOOK WHERE Z_OPT = 1").int64Value == 4)
        // The many-to-many of books and tags is Core Data's join table.
        let join = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TAGS' ESCAPE '\\'")
        #expect(join.count == 1, "\(join)")
    }

    @Test(arguments: [
        ["list"], ["list", "--by-month"], ["list", "--json"], ["search", "lem"], ["search", "aleph"],
        ["show", "a9ef420f"], ["show", "5e1f"], ["list", "--sort", "price"],
    ])
    func readingCommandsPrintWhatTheyPrintForTheSameBooksInACatalogue(_ arguments: [String]) throws {
        let coreData = try Self.coreDataSandbox()
        let persistence = try Self.persistenceSandbox()
        let before = try Data(contentsOf: coreData.store)
        let run = try coreData.run(arguments)
        let expected = try persistence.run(arguments)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(expected.status == 0, "\(expected)")
        #expect(run.stdout == expected.stdout)
        #expect(try Data(contentsOf: coreData.store) == before, "a listing changes nothing")
    }

    @Test func listingShowsEveryBookWithItsTransformedColorAndDerivedMonth() throws {
        let sandbox = try Self.coreDataSandbox()
        let list = try sandbox.run(["list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.stdoutLines.count == 5, "\(list)")
        #expect(list.stdout.contains("A9EF420F  Solaris — Stanisław Lem · June 1961 · 12.50\n"), "\(list)")
        let byMonth = try sandbox.run(["list", "--by-month"])
        #expect(byMonth.stdout.contains("June 1961 (1)\n  A9EF420F  Solaris"), "\(byMonth)")
        let show = try sandbox.run(["show", "a9ef420f"])
        #expect(show.stdout.contains("Color:     #1E90FF\n"), "\(show)")
        let search = try sandbox.run(["search", "cyberiada"])
        #expect(search.stdout.hasPrefix("5E1F0000  Cyberiada — Stanisław Lem"), "\(search)")
    }

    @Test func anEditIsSavedInCoreDatasLayout() throws {
        let sandbox = try Self.coreDataSandbox()
        let database = try Database(path: sandbox.store.path, mode: .readOnly)
        let metadata = try database.query("SELECT Z_PLIST FROM Z_METADATA").first?.first
        let cache = try database.query("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first
        try database.close()

        let run = try sandbox.run([
            "edit", "a9ef420f", "--title", "Solaris. Wydanie drugie", "--date", "1962-05", "--price", "19.90",
            "--color", "#FF8000", "--rating", "5",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Edited \(Self.solaris).\n", "\(run)")

        let after = try Database(path: sandbox.store.path, mode: .readOnly)
        defer { try? after.close() }
        let uuid = try #require(UUID(uuidString: Self.solaris))
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        let row = try #require(
            try after.query(
                "SELECT Z_OPT, ZTITLE, ZCANONICALTITLE, ZPRICE, ZRATING, ZPUBLISHDATE, ZCOLOR FROM ZBOOK WHERE ZUUID = ?",
                [.blob(bytes)]
            ).first)
        #expect(row[0].int64Value == 2, "Z_OPT bumped once")
        #expect(row[1].stringValue == "Solaris. Wydanie drugie")
        #expect(row[2].stringValue == "solaris. wydanie drugie", "canonicalTitle derived again")
        #expect(row[3].description == "19.9")
        #expect(row[4].int64Value == 5)
        // 1962-05-01T00:00:00Z in seconds since 2001-01-01.
        #expect(row[5].doubleValue == -1_220_400_000)
        #expect(row[6].dataValue == (try ColorToDataTransformer().transformedValue(try Color(hex: "#FF8000"))) as? Data)
        // Other rows and Core Data's bookkeeping are as they were.
        #expect(try after.scalar("SELECT count(*) FROM ZBOOK WHERE Z_OPT = 1").int64Value == 3)
        #expect(try after.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'").int64Value == 4)
        #expect(try after.query("SELECT Z_PLIST FROM Z_METADATA").first?.first == metadata)
        #expect(try after.query("SELECT Z_CONTENT FROM Z_MODELCACHE").first?.first == cache)
        // And the catalogue reads the edit back.
        let show = try sandbox.run(["show", "a9ef"])
        #expect(show.stdout.contains("Published: May 1962\n") && show.stdout.contains("Color:     #FF8000\n"), "\(show)")
        let byMonth = try sandbox.run(["list", "--by-month"])
        #expect(byMonth.stdout.contains("May 1962 (1)\n  A9EF420F  Solaris. Wydanie drugie"), "\(byMonth)")
    }

    @Test func addAndDeleteChangeOnlyTheirBook() throws {
        // Every book here has no ISBN: a new one without an ISBN is no other book (a NULL
        // in a uniqueness constraint matches nothing), so the add inserts a row.
        let sandbox = try Self.coreDataSandbox()
        let before = try sandbox.run(["list"]).stdout
        let added = try sandbox.run(["add", "--title", "Nowy", "--author", "Ktoś", "--date", "2020-01-02", "--price", "1"])
        #expect(added.status == 0, "\(added)")
        let list = try sandbox.run(["list"])
        #expect(list.stdoutLines.count == 6, "\(list)")
        #expect(list.stdout.contains("Nowy — Ktoś · Jan 2, 2020 · 1.00\n"), "\(list)")
        #expect(Set(before.split(separator: "\n")).isSubset(of: Set(list.stdout.split(separator: "\n"))), "\(list)")
        let links = try Self.tagLinks(in: sandbox.store)
        let delete = try sandbox.run(["delete", "a9ef420f", "--yes"])
        #expect(delete.status == 0, "\(delete)")
        let database = try Database(path: sandbox.store.path, mode: .readOnly)
        defer { try? database.close() }
        // The deleted book's tag links went with it, and only they.
        let linksAfter = try Self.tagLinks(in: sandbox.store)
        #expect(linksAfter.total < links.total && linksAfter.dangling == 0, "\(links) before, \(linksAfter) after")
        #expect(try database.scalar("SELECT count(*) FROM ZBOOK").int64Value == 4)
        #expect(try database.scalar("SELECT count(*) FROM ZBOOK WHERE ZTITLE = 'Solaris'").int64Value == 0)
        #expect(try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'").int64Value == 5)
        // Its author stays, with one book.
        #expect(try database.scalar("SELECT count(*) FROM ZAUTHOR").int64Value == 3)
    }

    @Test func historyUndoAndCheckSayWhatTheStoreDoesNotKeepInOneLine() throws {
        let sandbox = try Self.coreDataSandbox()
        #expect(try sandbox.run(["edit", "a9ef420f", "--rating", "4"]).status == 0)
        let before = try Data(contentsOf: sandbox.store)
        let check = try sandbox.run(["check"])
        #expect(check.status == 1 && check.stdout.isEmpty && check.stderrLines.count == 1, "\(check)")
        #expect(check.stderr.hasPrefix("Error: books check checks the catalogue's own stores; \(sandbox.store.path) is a store Core Data wrote"), "\(check)")
        for command in [["history"], ["undo"]] {
            let run = try sandbox.run(command)
            #expect(run.status == 1 && run.stdout.isEmpty, "\(run)")
            #expect(run.stderrLines.count == 1, "\(run)")
            #expect(
                run.stderr == "Error: \(sandbox.store.path) is a store Core Data wrote, which keeps no history of the "
                    + "commands that changed it: there is nothing to \(command == ["undo"] ? "undo" : "show").\n", "\(run)")
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test func aCoreDataStoreOfAnotherModelIsRefusedNamingTheFirstDifference() throws {
        let sandbox = try BooksSandbox()
        let other = ManagedObjectModel {
            Entity("Car") { Attribute("plate", .string) }
        }
        try CoreDataStore.create(model: other, at: sandbox.store)
        let before = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted()
        let bytes = try Data(contentsOf: sandbox.store)
        for command in [["list"], ["edit", "a9ef420f", "--rating", "1"], ["search", "x"]] {
            let run = try sandbox.run(command)
            #expect(run.status == 65 && run.stdout.isEmpty, "\(run)")
            #expect(run.stderrLines.count == 1, "\(run)")
            #expect(
                run.stderr == "Error: The store \(sandbox.store.path) was written with a different model and can't be "
                    + "opened with this one (the store has entity Car (Z_ENT 1), which the model does not have); it was "
                    + "left untouched\n", "\(run)")
        }
        #expect(try Data(contentsOf: sandbox.store) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted() == before)
    }

    /// A store in Core Data's layout of the catalogue's first model version (no isbn, tags,
    /// …) is migrated by the first command that opens it, the store as it was kept beside it.
    @Test func aCoreDataStoreOfTheFirstVersionIsMigratedOnOpen() throws {
        let sandbox = try BooksSandbox()
        let first = try ManagedObjectModel(contentsOf: try Catalog.modelBundleURL(), version: "Books")
        try CoreDataStore.create(model: first, at: sandbox.store)
        let run = try sandbox.run(["list"])
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: sandbox.store.path + ".pre-migration"))
        #expect(try sandbox.run(["add", "--title", "T", "--author", "A", "--author", "B"]).status == 0)
        #expect(try sandbox.run(["list", "--fields", "title,authors"]).stdout.contains("T · A & B\n"))
    }
}
