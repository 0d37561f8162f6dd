import BookCatalog
import Foundation
import Persistence
import Testing

/// `books search` and `CONTAINS[cd]` on a store in Core Data's layout print what they print
/// on the catalogue's own store for the same books: a match through case, diacritics,
/// full-width forms and letters that fold to others (`ß` → `ss`, `Ł` → `l`), none for a
/// near miss. Core Data's layout has no search index, so its SQL matches each row's text
/// through the connection's `predicate_contains_folded`, which reads all-ASCII text in place
/// and folds any other; the SQLite store answers from its trigram index. The two must agree.
@Suite struct CoreDataSearchTests {
    /// Titles, authors and series with text that matches only once folded.
    static let books: [(title: String, author: String, series: String?)] = [
        ("Anna Karenina", "Lev Tolstoï", nil),
        ("WAR AND PEACE", "LEV TOLSTOY", "Russian Classics"),
        ("Ångström and the Light", "Åsa Lind", "Nordiska Läsare"),
        ("Die Straße der Ölsardinen", "John Steinbeck", nil),
        ("Łódź Nights", "Ödön Ärger", "RUSSIAN CLASSICS"),
        ("Cien años de soledad", "Gabriel García Márquez", "Realismo Mágico"),
        ("Ｆｕｌｌ Width Tales", "Ana Ｗｉｄｅ", nil),
        ("Tolstoyan Essays", "Ann Other", nil),
        ("The Boring Book", "N. N.", nil),
    ]

    /// Fills the empty store at `url` with `books` through a context, as an app would.
    static func fill(_ url: URL) throws {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let model = try Catalog.loadModel()
        let container = try PersistentContainer(model: model, storeURL: url, classes: BooksModel.classes)
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        for (index, entry) in books.enumerated() {
            let book = try context.insert(Book.self)
            book.uuid = try #require(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1)))
            book.title = entry.title
            book.series = entry.series
            book.publishDate = Date(timeIntervalSince1970: Double(index) * 86_400 * 400)
            book.price = Decimal(index + 1)
            book.dateAdded = Date(timeIntervalSince1970: 1_700_000_000)
            let author = try context.insert(Author.self)
            author.name = entry.author
            book.authors = [author]
            book.byline = entry.author
        }
        try context.save()
    }

    /// One catalogue in Core Data's layout and one in the catalogue's own, with `books`.
    static func sandboxes() throws -> (coreData: BooksSandbox, persistence: BooksSandbox) {
        let coreData = try BooksSandbox()
        try CoreDataStore.create(model: try Catalog.loadModel(), at: coreData.store)
        try fill(coreData.store)
        let persistence = try BooksSandbox()
        try fill(persistence.store)
        return (coreData, persistence)
    }

    @Test(arguments: [
        ["search", "tolstoy"], ["search", "TOLSTOY"], ["search", "tolstoï"], ["search", "TOLSTOÏ"],
        ["search", "Å"], ["search", "å"], ["search", "angstrom"], ["search", "ÅNGSTRÖM light"],
        ["search", "strasse"], ["search", "STRASSE"], ["search", "ölsardinen"], ["search", "lodz"],
        ["search", "ŁÓDŹ"], ["search", "marquez cien"], ["search", "full width"], ["search", "ｗｉｄｅ"],
        ["search", "oring"], ["search", "tolstoyx"], ["search", "lev anna"], ["search", "series:russian"],
        ["search", "series:magico"], ["search", "series:lasare"],
        ["list", "--where", "title CONTAINS[cd] 'STRASSE'"], ["list", "--where", "title CONTAINS[cd] 'and the'"],
        ["list", "--where", "title CONTAINS[cd] 'angstrom'"], ["list", "--where", "NOT title CONTAINS[cd] 'a'"],
        ["list", "--where", "series CONTAINS[cd] 'russian'"], ["list", "--where", "NOT series CONTAINS[cd] 'russian'"],
    ])
    func searchingCoreDatasLayoutFindsWhatTheCataloguesStoreFinds(_ arguments: [String]) throws {
        let (coreData, persistence) = try Self.sandboxes()
        let before = try Data(contentsOf: coreData.store)
        let run = try coreData.run(arguments)
        let expected = try persistence.run(arguments)
        #expect(expected.status == 0, "\(expected)")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == expected.stdout)
        #expect(run.stderr == expected.stderr)
        #expect(try Data(contentsOf: coreData.store) == before, "a search changes nothing")
    }

    /// What the folding finds, stated outright (so that the comparison above cannot pass
    /// with both stores finding nothing).
    @Test(arguments: [
        ("tolstoï", ["Anna Karenina"]),
        ("TOLSTOY", ["WAR AND PEACE", "Tolstoyan Essays"]),
        ("ÅSA", ["Ångström and the Light"]),
        ("strasse", ["Die Straße der Ölsardinen"]),
        ("lodz", ["Łódź Nights"]),
        ("wide", ["Ｆｕｌｌ Width Tales"]),
    ])
    func searchingCoreDatasLayoutFindsThroughFolding(_ query: String, _ titles: [String]) throws {
        let (coreData, _) = try Self.sandboxes()
        let run = try coreData.run(["search", query, "--json"])
        #expect(run.status == 0, "\(run)")
        let found = try run.jsonObjects().compactMap { $0["title"] as? String }
        #expect(Set(found) == Set(titles), "\(run)")
    }
}
