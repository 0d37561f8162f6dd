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

    /// Fills the empty store at `url` with `entries` (by default ``books``), each published on
    /// the day `date` gives for its position, through a context, as an app would.
    static func fill(
        _ url: URL, _ entries: [(title: String, author: String, series: String?)] = books,
        date: (Int) -> Date? = { Date(timeIntervalSince1970: Double($0) * 86_400 * 400) }
    ) throws {
        ValueTransformers.register(ColorToDataTransformer(), forName: ColorToDataTransformer.name)
        let model = try Catalog.loadModel()
        let container = try PersistentContainer(model: model, storeURL: url, classes: BooksModel.classes)
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        var authors: [String: Author] = [:]
        for (index, entry) in entries.enumerated() {
            let book = try context.insert(Book.self)
            book.uuid = try #require(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1)))
            book.title = entry.title
            book.series = entry.series
            book.publishDate = date(index)
            book.price = Decimal(index + 1)
            book.dateAdded = Date(timeIntervalSince1970: 1_700_000_000)
            // An author's name is unique: one author for the books that share it.
            let author = try authors[entry.author] ?? context.insert(Author.self)
            author.name = entry.author
            authors[entry.author] = author
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

    /// 75 books of which most hold the common word "muller" at each rank (a whole word, the
    /// start of a word, inside one; "müller" and "MULLER" too), in only a few titles and
    /// publication days (one in five unknown), so that a search's order rests on its ties:
    /// rank, then title, then newest first, then the order the books were added.
    static let commonWordBooks: [(title: String, author: String, series: String?)] = (0..<75).map { index in
        let titles = ["Muller", "The Muller Papers", "Mullerian Mimicry", "Zmuller Tales", "Anna and the Mill", "MÜLLER NOTES"]
        let authors = ["Hans Müller", "Anna Muller-Lyer", "Ann Smullers", "Lev Tolstoy", "Kurt Mullerson"]
        return (titles[index % titles.count], authors[index % authors.count], index % 4 == 0 ? "Muller Series" : nil)
    }

    /// The day of the ``commonWordBooks`` book at `index`: one of three, or unknown.
    static func commonWordDate(_ index: Int) -> Date? {
        index % 5 == 0 ? nil : Date(timeIntervalSince1970: Double(index % 3) * 86_400 * 400)
    }

    /// `search` of a common word on Core Data's layout, which ranks, sorts and windows in
    /// SQL (`predicate_search_rank`) and decodes only the books it prints, prints what the
    /// catalogue's own store prints, byte for byte, "More books match" included: with the
    /// default limit (more than 50 match), `--limit`, `--limit 0`, `--json`, `--where`,
    /// `--sort` (with `--reverse`), `--format` and `--fields`, and the query syntax.
    @Test(arguments: [
        ["search", "muller"], ["search", "MULLER"], ["search", "müller"], ["search", "muller", "--limit", "5"],
        ["search", "muller", "--limit", "1"], ["search", "muller", "--limit", "0"], ["search", "muller", "--json"],
        ["search", "muller", "--json", "--limit", "7"], ["search", "mull"], ["search", "ull", "--limit", "12"],
        ["search", "muller", "ann"], ["search", "ann", "muller", "--limit", "9"], ["search", "muller papers"],
        ["search", "the", "muller", "--limit", "0"], ["search", "muller", "--where", "price > 20"],
        ["search", "muller", "--where", "price > 20", "--limit", "4"], ["search", "muller", "--where", "publishDate == nil"],
        ["search", "muller", "--where", "title MATCHES '.*(Papers|Tales)'", "--limit", "6"],
        ["search", "muller", "--sort", "title"], ["search", "muller", "--sort", "date", "--reverse", "--limit", "7"],
        ["search", "muller", "--sort", "author", "--limit", "0"], ["search", "muller", "--format", "csv", "--fields", "title,author"],
        ["search", "muller", "--format", "json", "--limit", "3"], ["search", "author:muller"], ["search", "muller", "-anna"],
        ["search", "muller", "OR", "tolstoy", "--limit", "20"], ["search", "title:muller", "ann"], ["search", "series:muller", "hans"],
    ])
    func searchingACommonWordOnCoreDatasLayoutPrintsWhatTheCataloguesStorePrints(_ arguments: [String]) throws {
        let coreData = try BooksSandbox()
        try CoreDataStore.create(model: try Catalog.loadModel(), at: coreData.store)
        try Self.fill(coreData.store, Self.commonWordBooks, date: Self.commonWordDate)
        let persistence = try BooksSandbox()
        try Self.fill(persistence.store, Self.commonWordBooks, date: Self.commonWordDate)
        let before = try Data(contentsOf: coreData.store)
        let run = try coreData.run(arguments)
        let expected = try persistence.run(arguments)
        #expect(expected.status == 0, "\(expected)")
        #expect(!expected.stdout.isEmpty, "the query finds books: \(expected)")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == expected.stdout)
        #expect(run.stderr == expected.stderr)
        #expect(try Data(contentsOf: coreData.store) == before, "a search changes nothing")
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
