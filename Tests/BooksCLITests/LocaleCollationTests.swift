import Foundation
import Testing

/// `books list --sort title|author|series` (and `search --sort`) order text as the user's
/// locale (`LC_ALL`, `LC_COLLATE`, `LANG`) does, leading articles of titles skipped, run as
/// the built binary. Each expected order comes from the language's published alphabet (the
/// Swedish Academy's, DIN 5007-1, the Polish, Turkish and Spanish alphabets), not from the
/// implementation; the books are seeded in another order.
@Suite struct LocaleCollationTests {
    /// A sandbox whose catalogue holds one book per entry (`title`, or `author` with a title
    /// of its own), seeded in the reverse of the expected order so that no order survives
    /// by accident.
    static func sandbox(titles: [String] = [], authors: [String] = []) throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        var books: [[String: Any]] = []
        for (index, title) in titles.enumerated().reversed() {
            books.append([
                "uuid": uuid(index), "title": title, "author": "Author \(index)",
                "price": "1.00", "publishDate": "2001-01-0\(index % 9 + 1)",
            ])
        }
        for (index, author) in authors.enumerated().reversed() {
            books.append([
                "uuid": uuid(100 + index), "title": "Book \(index)", "author": author,
                "price": "1.00", "publishDate": "2002-02-0\(index % 9 + 1)",
            ])
        }
        let file = sandbox.directory.appendingPathComponent("books.json")
        try JSONSerialization.data(withJSONObject: books).write(to: file)
        let seed = try sandbox.run(["seed", "--file", file.path])
        #expect(seed.status == 0, "\(seed)")
        return sandbox
    }

    /// A UUID made of `number`.
    static func uuid(_ number: Int) -> String {
        String(format: "%08d-0000-4000-8000-000000000000", number)
    }

    /// The values of `field` that `list` prints with these arguments under `lang`, one a line.
    static func listed(
        _ sandbox: BooksSandbox, _ field: String, _ arguments: [String], lang: String, extra: [String: String] = [:]
    ) throws -> [String] {
        let run = try sandbox.run(["list", "--fields", field] + arguments, lang: lang, extra: extra)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// `--sort title` under `lang` lists `expected`; `--reverse` lists it backwards, and
    /// `--limit` lists its first books either way.
    static func expectTitles(_ expected: [String], lang: String) throws {
        let sandbox = try sandbox(titles: expected)
        #expect(try listed(sandbox, "title", ["--sort", "title"], lang: lang) == expected, "\(lang)")
        #expect(try listed(sandbox, "title", ["--sort", "title", "--reverse"], lang: lang) == expected.reversed())
        #expect(try listed(sandbox, "title", ["--sort", "title", "--limit", "3"], lang: lang) == Array(expected.prefix(3)))
        #expect(
            try listed(sandbox, "title", ["--sort", "title", "--reverse", "--limit", "3"], lang: lang)
                == Array(expected.reversed().prefix(3)))
    }

    /// `--sort author` under `lang` lists `expected`, forwards and backwards.
    static func expectAuthors(_ expected: [String], lang: String) throws {
        let sandbox = try sandbox(authors: expected)
        #expect(try listed(sandbox, "authors", ["--sort", "author"], lang: lang) == expected, "\(lang)")
        #expect(try listed(sandbox, "authors", ["--sort", "author", "--reverse"], lang: lang) == expected.reversed())
    }

    // MARK: - Languages

    /// Swedish: å, ä, ö are the last letters of the alphabet, after z; v and w are two.
    static let swedishAuthors = [
        "Andersson", "Ekman", "Vallin", "Wallin", "Zorn", "Åkesson", "Ängel", "Östlund",
    ]

    @Test func swedishPutsÅÄÖAfterZ() throws {
        try Self.expectAuthors(Self.swedishAuthors, lang: "sv_SE.UTF-8")
        // LC_COLLATE alone chooses the order; LC_ALL overrides it.
        let sandbox = try Self.sandbox(authors: Self.swedishAuthors)
        #expect(
            try Self.listed(sandbox, "authors", ["--sort", "author"], lang: "C", extra: ["LC_COLLATE": "sv_SE.UTF-8"])
                == Self.swedishAuthors)
        #expect(
            try Self.listed(
                sandbox, "authors", ["--sort", "author"], lang: "en_US.UTF-8", extra: ["LC_ALL": "sv_SE.UTF-8"])
                == Self.swedishAuthors)
    }

    @Test func swedishSkipsEnEttDenDetInTitles() throws {
        try Self.expectTitles(
            ["Den allvarsamma leken", "Ett drömspel", "Hemsöborna", "Röda rummet", "Det sjunde inseglet", "Året runt",
             "Ögat"],
            lang: "sv_SE.UTF-8")
    }

    /// German dictionary order (DIN 5007-1): ä, ö, ü sort as a, o, u, ß as ss; der, die, das,
    /// ein, eine skipped.
    @Test func germanSortsUmlautsAsTheirVowelsAndSkipsArticles() throws {
        try Self.expectTitles(
            ["Apfel", "Ärger", "Arm", "Die Blechtrommel", "Das Boot", "Ein Landarzt", "Ofen", "Öl", "Straße", "Strauch",
             "Über", "Ufer", "Der Zauberberg"],
            lang: "de_DE.UTF-8")
    }

    /// French: accents count only between words that are otherwise the same; le, la, les,
    /// l', un, une skipped.
    @Test func frenchIgnoresAccentsAndCaseFirstAndSkipsArticles() throws {
        try Self.expectTitles(
            ["Élan", "elle", "Émile", "Emma", "L'Étranger", "Lola", "Les Misérables", "La Peste", "Le Petit Prince",
             "Une saison en enfer", "Zazie dans le métro"],
            lang: "fr_FR.UTF-8")
    }

    /// Polish: ą, ć, ę, ł, ń, ó, ś, ź, ż are letters of their own, each after its base
    /// letter (ź before ż).
    @Test func polishPutsEachAccentedLetterAfterItsBase() throws {
        try Self.expectAuthors(
            ["Baczyński", "Bartoszewski", "Bąk", "Czarnecki", "Ćwikliński", "Lem", "Lwowski", "Łukasiewicz",
             "Orzeszkowa", "Ósmy", "Sienkiewicz", "Szymborska", "Śmigielski", "Zapolska", "Źródłowski", "Żeromski"],
            lang: "pl_PL.UTF-8")
    }

    /// Turkish: ç, ğ, ö, ş, ü follow c, g, o, s, u; dotless ı (capital I) comes before
    /// dotted i (capital İ).
    @Test func turkishOrdersDotlessIBeforeIAndCedillasAfterTheirBase() throws {
        try Self.expectAuthors(
            ["Acar", "Agop", "Ağca", "Cemal", "Cudi", "Çelik", "Irmak", "Işık", "İlhan", "İnce", "Oral", "Ozan",
             "Öztürk", "Sezer", "Şahin", "Uçar", "Ünal"],
            lang: "tr_TR.UTF-8")
    }

    /// Spanish: ñ is a letter after n; el, la, los, las, un, una skipped.
    @Test func spanishPutsÑAfterNAndSkipsArticles() throws {
        try Self.expectTitles(
            ["El Aleph", "Anzuelo", "Año", "Las batallas en el desierto", "La casa de los espíritus",
             "Cien años de soledad", "Los de abajo", "Un mundo feliz", "Nube", "Nunca", "Ñandú", "Oro"],
            lang: "es_ES.UTF-8")
    }

    /// English: the, a, an skipped ("Theory" is not "The").
    @Test func englishSkipsTheAAn() throws {
        try Self.expectTitles(
            ["Dune", "The Hobbit", "An Instance of the Fingerpost", "Theory of Everything", "A Wizard of Earthsea"],
            lang: "en_GB.UTF-8")
    }

    /// The C locale keeps the store's order: the folded text's bytes, articles and all.
    @Test func theCLocaleKeepsTheStoreOrder() throws {
        let sandbox = try Self.sandbox(titles: ["Året runt", "Dune", "The Hobbit", "Zorro"])
        for lang in ["C", "POSIX", "C.UTF-8"] {
            #expect(
                try Self.listed(sandbox, "title", ["--sort", "title"], lang: lang)
                    == ["Året runt", "Dune", "The Hobbit", "Zorro"], "\(lang)")
        }
    }

    // MARK: - Series, months, search

    /// Swedish series: case aside, "Den" skipped, å and ä after z (and å before ä).
    static let swedishSeries = [
        "arn 1", "Bo 1", "Millennium 1", "Millennium 2", "Den mörka sidan 1", "Åsa 1", "Änglar 1",
    ]

    /// A series sorts by its name collated, then by number; a book of no series comes last
    /// in either direction.
    @Test func seriesCollateAndBooksWithoutOneStayLast() throws {
        let sandbox = try Self.sandbox(titles: ["Ingen serie"])
        let series = [
            ("Änglar", 1), ("Åsa", 1), ("Den mörka sidan", 1), ("Millennium", 2), ("Millennium", 1), ("Bo", 1),
            ("arn", 1),
        ]
        for (series, number) in series {
            let add = try sandbox.run(
                ["add", "--title", "\(series) \(number)", "--author", "A", "--series", series,
                 "--series-number", "\(number)"])
            #expect(add.status == 0, "\(add)")
        }
        let lang = "sv_SE.UTF-8"
        #expect(
            try Self.listed(sandbox, "title", ["--sort", "series"], lang: lang)
                == Self.swedishSeries + ["Ingen serie"])
        #expect(
            try Self.listed(sandbox, "title", ["--sort", "series", "--reverse"], lang: lang)
                == Self.swedishSeries.reversed() + ["Ingen serie"])
        #expect(
            try Self.listed(sandbox, "title", ["--sort", "series", "--limit", "5"], lang: lang)
                == Array(Self.swedishSeries.prefix(5)))
    }

    /// A listing by month sorts each month's books with the same collation, and a search
    /// sorted by author lists its matches as `list` does.
    @Test func monthsAndSearchesCollateAsListDoes() throws {
        let sandbox = try Self.sandbox(authors: Self.swedishAuthors)
        let run = try sandbox.run(["list", "--by-month", "--sort", "author", "--fields", "authors"], lang: "sv_SE.UTF-8")
        #expect(run.status == 0, "\(run)")
        let inMonth = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(inMonth == Self.swedishAuthors, "\(run)")
        let search = try sandbox.run(
            ["search", "book", "--sort", "author", "--fields", "authors", "--limit", "0"], lang: "sv_SE.UTF-8")
        #expect(search.status == 0, "\(search)")
        #expect(search.stdout.split(separator: "\n").map(String.init) == Self.swedishAuthors, "\(search)")
    }

    /// A store in Core Data's layout gives the same collated order as the catalogue's own:
    /// the order is made by the catalogue, not by a store's SQL.
    @Test func aCoreDataLayoutStoreListsInTheSameOrder() throws {
        let expected = ["El Aleph", "Cyberiada", "Ficciones", "Solaris"]
        for sandbox in [try CoreDataBooksStoreTests.coreDataSandbox(), try CoreDataBooksStoreTests.persistenceSandbox()] {
            #expect(try Self.listed(sandbox, "title", ["--sort", "title"], lang: "es_ES.UTF-8") == expected)
            #expect(
                try Self.listed(sandbox, "title", ["--sort", "title", "--reverse", "--limit", "2"], lang: "es_ES.UTF-8")
                    == ["Solaris", "Ficciones"])
            #expect(
                try Self.listed(sandbox, "title", ["--sort", "title"], lang: "C")
                    == ["Cyberiada", "El Aleph", "Ficciones", "Solaris"])
        }
    }
}
