import Foundation
import ProcessTestSupport
import Testing

/// `books` run as the built binary: stdout, stderr, exit codes and the store file, each test
/// with its own temporary store and an explicit environment.
@Suite struct BooksEndToEndTests {
    static let seedCount = 459

    // MARK: - First use and listing

    @Test func listByMonthOnAMissingStoreCreatesAndSeedsIt() throws {
        let sandbox = try BooksSandbox()
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
        let run = try sandbox.run(["list", "--by-month"])
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: sandbox.store.path))
        #expect(run.stdout.contains("May 1967 (1)\n  3D7B6A6B  Cien años de soledad — Gabriel García Márquez · May 30, 1967 · 47.39\n"))
        let rows = run.stdoutLines.filter { $0.hasPrefix("  ") }
        #expect(rows.count == Self.seedCount)
        let headingCounts = run.stdoutLines.filter { !$0.isEmpty && !$0.hasPrefix("  ") }
            .compactMap { line -> Int? in
                guard let open = line.lastIndex(of: "("), line.hasSuffix(")") else { return nil }
                return Int(line[line.index(after: open)..<line.index(before: line.endIndex)])
            }
        #expect(headingCounts.reduce(0, +) == Self.seedCount)
        #expect(try sandbox.bookCount() == Self.seedCount)
    }

    @Test(arguments: [
        ("fr_FR.UTF-8", "mai 1967 (1)", "3D7B6A6B  Cien años de soledad — Gabriel García Márquez · 30 mai 1967 · 47,39"),
        ("de_DE.UTF-8", "Mai 1967 (1)", "3D7B6A6B  Cien años de soledad — Gabriel García Márquez · 30.05.1967 · 47,39"),
        ("ja_JP.UTF-8", "1967年5月 (1)", "3D7B6A6B  Cien años de soledad — Gabriel García Márquez · 1967/05/30 · 47.39"),
        ("en_US.UTF-8", "May 1967 (1)", "3D7B6A6B  Cien años de soledad — Gabriel García Márquez · May 30, 1967 · 47.39"),
    ])
    func monthHeadingsAndRowsFollowTheLocale(lang: String, heading: String, row: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--by-month"], lang: lang)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("\(heading)\n  \(row)\n"), "\(lang): \(run.stdout.prefix(400))")
    }

    @Test func listJSONHasEveryBookWithTypedFields() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--json"])
        #expect(run.status == 0, "\(run)")
        let books = try run.jsonObjects()
        #expect(books.count == Self.seedCount)
        let day = try Regex("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
        let color = try Regex("^#[0-9A-Fa-f]{6}$")
        let price = try Regex("^[0-9]+(\\.[0-9]+)?$")
        var uuids = Set<String>()
        for book in books {
            let uuid = try #require(book["uuid"] as? String)
            #expect(UUID(uuidString: uuid) != nil)
            uuids.insert(uuid)
            #expect((book["title"] as? String)?.isEmpty == false)
            #expect((book["author"] as? String)?.isEmpty == false)
            let date = try #require(book["publishDate"] as? String)
            #expect(date.wholeMatch(of: day) != nil, "\(date)")
            let month = try #require(book["publishMonthID"] as? String)
            #expect(month == String(date.prefix(4)) + "0" + date.dropFirst(5).prefix(2), "\(month) for \(date)")
            let priceText = try #require(book["price"] as? String, "price must be a string: \(book)")
            #expect(priceText.wholeMatch(of: price) != nil, "\(priceText)")
            let colorText = try #require(book["color"] as? String)
            #expect(colorText.wholeMatch(of: color) != nil, "\(colorText)")
        }
        #expect(uuids.count == Self.seedCount)
        // Every book is the seed file's, field for field; prices exactly (as decimals).
        let seedData = try Data(contentsOf: BuiltProduct.repositoryRoot.appendingPathComponent("SeedData/books.json"))
        let seeds = try #require(try JSONSerialization.jsonObject(with: seedData) as? [[String: Any]])
        let byUUID = Dictionary(uniqueKeysWithValues: books.compactMap { book in (book["uuid"] as? String).map { ($0, book) } })
        var mismatches: [String] = []
        for seed in seeds {
            let uuid = seed["uuid"] as? String ?? ""
            guard let book = byUUID[uuid] else { mismatches.append("missing \(uuid)"); continue }
            let samePrice = (book["price"] as? String).flatMap { Decimal(string: $0) } == (seed["price"] as? String).flatMap { Decimal(string: $0) }
            if book["title"] as? String != seed["title"] as? String || book["author"] as? String != seed["author"] as? String
                || book["publishDate"] as? String != seed["publishDate"] as? String || !samePrice
                || (book["color"] as? String)?.uppercased() != (seed["color"] as? String)?.uppercased()
            {
                mismatches.append("\(book) vs \(seed)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ from the seed file, such as \(mismatches.prefix(2))")
        let cien = try #require(books.first { $0["title"] as? String == "Cien años de soledad" })
        #expect(cien["publishDate"] as? String == "1967-05-30")
        #expect(cien["publishMonthID"] as? String == "1967005")
        #expect(cien["price"] as? String == "47.39")
        #expect(cien["author"] as? String == "Gabriel García Márquez")
    }

    @Test func listByMonthJSONIsAnArrayOfSections() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--by-month", "--json"], lang: "fr_FR.UTF-8")
        #expect(run.status == 0, "\(run)")
        let sections = try run.jsonObjects()
        var total = 0
        for section in sections {
            #expect(Set(section.keys) == ["monthID", "title", "count", "books"], "\(section.keys)")
            let count = try #require(section["count"] as? Int)
            let books = try #require(section["books"] as? [[String: Any]])
            #expect(books.count == count)
            #expect(section["monthID"] as? Int != nil)
            total += count
        }
        #expect(total == Self.seedCount)
        let may1967 = try #require(sections.first { $0["monthID"] as? Int == 1_967_005 })
        #expect(may1967["title"] as? String == "mai 1967")
        #expect(may1967["count"] as? Int == 1)
    }

    @Test func limitPrintsAtMostThatManyBooks() throws {
        let sandbox = try BooksSandbox.seeded()
        let json = try sandbox.run(["list", "--json", "--limit", "3"])
        #expect(json.status == 0, "\(json)")
        #expect(try json.jsonObjects().count == 3)
        let text = try sandbox.run(["list", "--limit", "3"])
        #expect(text.stdoutLines.filter { !$0.isEmpty }.count == 3, "\(text)")
    }

    @Test func pipedOutputHasNoEscapeBytes() throws {
        let sandbox = try BooksSandbox.seeded()
        // Even with colors not forbidden: stdout is a pipe, not a terminal.
        let environments: [[String: String]] = [[:], ["TERM": "xterm-256color", "NO_COLOR": ""]]
        for extra in environments {
            for arguments in [["list", "--by-month"], ["list"], ["search", "kafka"], ["list", "--json"]] {
                let run = try sandbox.run(arguments, extra: extra)
                #expect(run.status == 0, "\(arguments): \(run)")
                #expect(!run.stdoutData.isEmpty)
                #expect(!run.stdoutData.contains(0x1B), "ESC in stdout of \(arguments) with \(extra)")
            }
        }
    }

    @Test func whereFiltersByPrice() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--where", "price < 1", "--json"])
        #expect(run.status == 0, "\(run)")
        let books = try run.jsonObjects()
        let prices = books.compactMap { ($0["price"] as? String).flatMap { Decimal(string: $0) } }
        #expect(prices.count == books.count)
        #expect(prices.allSatisfy { $0 < 1 }, "prices: \(prices.prefix(10))")
        #expect(books.count == 6, "the seed has 6 books under 1; got \(books.count)")
    }

    // MARK: - Seed, add, show, delete

    @Test func seedingTwiceKeepsTheCount() throws {
        let sandbox = try BooksSandbox()
        let first = try sandbox.run(["seed"])
        #expect(first.status == 0, "\(first)")
        #expect(try sandbox.bookCount() == Self.seedCount)
        let second = try sandbox.run(["seed"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr == "")
        #expect(try sandbox.bookCount() == Self.seedCount)
    }

    @Test func addThenShowThenDelete() throws {
        let sandbox = try BooksSandbox.seeded()
        let add = try sandbox.run([
            "add", "--title", "Zażółć gęślą jaźń", "--author", "Test Autor", "--date", "2020-02-29",
            "--price", "12.30", "--color", "#1E90FF",
        ])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdout == "Added \(add.addedID)  Zażółć gęślą jaźń — Test Autor · Feb 29, 2020 · 12.30\n", "\(add)")
        #expect(add.addedID.count >= 8)

        let show = try sandbox.run(["show", add.addedID])
        #expect(show.status == 0, "\(show)")
        #expect(show.stdout.contains("Title:     Zażółć gęślą jaźń\n"), "\(show.stdout)")
        #expect(show.stdout.contains("Author:    Test Autor\n"))
        #expect(show.stdout.contains("Published: Feb 29, 2020\n"))
        #expect(show.stdout.contains("Price:     12.30\n"))
        #expect(show.stdout.contains("Color:     #1E90FF\n"))
        let uuidLine = try #require(show.stdoutLines.first { $0.hasPrefix("UUID:") })
        let uuid = try #require(UUID(uuidString: String(uuidLine.dropFirst(11))), "\(show)")
        #expect(uuid.uuidString.hasPrefix(add.addedID))

        let books = try sandbox.run(["list", "--json"]).jsonObjects()
        #expect(books.count == Self.seedCount + 1)
        let added = try #require(books.first { $0["uuid"] as? String == uuid.uuidString })
        #expect((added["price"] as? String).flatMap { Decimal(string: $0) } == Decimal(string: "12.3"), "\(added)")
        #expect(added["publishDate"] as? String == "2020-02-29")

        let delete = try sandbox.run(["delete", uuid.uuidString, "--yes"])
        #expect(delete.status == 0, "\(delete)")
        let after = try sandbox.run(["list", "--json"]).jsonObjects()
        #expect(after.count == Self.seedCount)
        #expect(!after.contains { $0["uuid"] as? String == uuid.uuidString })
        let titles = Set(after.compactMap { $0["title"] as? String })
        #expect(titles.contains("Intermezzo") && titles.contains("Cien años de soledad"), "delete removed another book")

        let again = try sandbox.run(["delete", uuid.uuidString])
        #expect(again.status == 1, "\(again)")
        #expect(again.stderrLines.count == 1 && again.stderr.hasPrefix("Error: "), "\(again.stderr)")
        #expect(try sandbox.bookCount() == Self.seedCount)
    }

    @Test func showOfAnUnknownUUIDFails() throws {
        let sandbox = try BooksSandbox.seeded()
        let uuid = "00000000-1111-2222-3333-444444444444"
        let run = try sandbox.run(["show", uuid])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout == "")
        #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("Error: "), "\(run.stderr)")
        #expect(run.stderr.contains(uuid))
    }

    static let badAdds: [(String, String)] = [
        ("--date", "2023-02-30"), ("--price", "19,99"), ("--price", "-1"), ("--price", "1e999"),
        ("--price", "abc"), ("--price", "12.3.4"), ("--title", ""),
        ("--title", String(repeating: "x", count: 501)), ("--color", "red"),
    ]

    @Test(arguments: badAdds)
    func addRejectsBadInputWith65AndLeavesTheStoreAlone(option: String, value: String) throws {
        let sandbox = try BooksSandbox.seeded()
        var fields = ["--title": "A title", "--author": "An Author", "--date": "2023-02-03", "--price": "19.99"]
        fields[option] = value
        let arguments = ["add"] + fields.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let run = try sandbox.run(arguments)
        #expect(run.status == 65, "\(option) \(value): \(run)")
        #expect(run.stdout == "")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: "), "\(run.stderr)")
        #expect(try sandbox.bookCount() == Self.seedCount)
    }

    // MARK: - Command-line errors, help, version

    @Test func unknownCommandSuggestsTheNearestOne() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["lst"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout == "")
        #expect(run.stderr.contains("Did you mean 'list'?"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }

    @Test func unknownFlagSuggestsTheNearestOne() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["list", "--by-mnth"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains("--by-month"), "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: "))
    }

    @Test func missingOptionValueIsAUsageError() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["list", "--limit"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains("--limit"), "\(run.stderr)")
        #expect(run.stdout == "")
    }

    @Test func helpAndVersionSucceed() throws {
        let sandbox = try BooksSandbox()
        for arguments in [["--help"], ["help", "list"], ["list", "--help"]] {
            let run = try sandbox.runBare(arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.stdout.contains("USAGE:"), "\(arguments): \(run.stdout)")
            #expect(run.stderr == "")
        }
        #expect(try sandbox.runBare(["help", "list"]).stdout.contains("--by-month"))
        let version = try sandbox.runBare(["--version"])
        #expect(version.status == 0, "\(version)")
        #expect(version.stdout.hasPrefix("books "), "\(version.stdout)")
        // Neither help nor version touches the default store under HOME.
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent(".local").path))
    }

    // MARK: - Bad stores

    @Test func storeInAMissingDirectoryFailsAndCreatesNothing() throws {
        let sandbox = try BooksSandbox()
        let missing = sandbox.directory.appendingPathComponent("no-such-dir")
        let run = try sandbox.runBare(["--store", missing.appendingPathComponent("Books.sqlite").path, "list"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains(missing.path), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).isEmpty)
    }

    @Test func theDefaultStoreDirectoryIsCreatedButANamedOneIsNot() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["list", "--limit", "1"])  // HOME is the sandbox
        #expect(run.status == 0, "\(run)")
        let store = sandbox.directory.appendingPathComponent(".local/share/books/Books.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
        let xdg = sandbox.directory.appendingPathComponent("xdg")
        let underXDG = try sandbox.runBare(["list", "--limit", "1"], extra: ["XDG_DATA_HOME": xdg.path])
        #expect(underXDG.status == 0, "\(underXDG)")
        #expect(FileManager.default.fileExists(atPath: xdg.appendingPathComponent("books/Books.sqlite").path))
        let named = sandbox.directory.appendingPathComponent("named/Books.sqlite")
        let viaEnvironment = try sandbox.runBare(["list"], extra: ["BOOKS_STORE": named.path])
        #expect(viaEnvironment.status == 1, "\(viaEnvironment)")
        #expect(!FileManager.default.fileExists(atPath: named.deletingLastPathComponent().path))
    }

    @Test func storeThatIsADirectoryFails() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["--store", sandbox.directory.path, "list"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("Error: "), "\(run.stderr)")
        #expect(run.stderr.contains(sandbox.directory.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).isEmpty)
    }

    @Test func storeThatIsNotSQLiteFailsAndIsUnchanged() throws {
        let sandbox = try BooksSandbox()
        var generator = SystemRandomNumberGenerator()
        var bytes = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        bytes.replaceSubrange(0..<4, with: [0x42, 0x4F, 0x4F, 0x4B])  // never "SQLite format 3"
        try bytes.write(to: sandbox.store)
        for arguments in [["list"], ["seed"], ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 65, "\(arguments): \(run)")
            #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("Error: "), "\(run.stderr)")
            #expect(run.stderr.contains(sandbox.store.path), "\(run.stderr)")
            #expect(try Data(contentsOf: sandbox.store) == bytes)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path) == ["Books.sqlite"])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func foreignSQLiteDatabaseIsRefusedAndUnchanged() throws {
        let sandbox = try BooksSandbox()
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [sandbox.store.path, "CREATE TABLE t(x); INSERT INTO t VALUES (42);"]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let before = try Data(contentsOf: sandbox.store)
        for arguments in [["list", "--by-month"], ["seed"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 65, "\(arguments): \(run)")
            #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains("not a Persistence store"), "\(run.stderr)")
            #expect(try Data(contentsOf: sandbox.store) == before)
        }
    }

    // MARK: - Search

    // A quote that opens a term is search syntax (a phrase); one left open is refused
    // (SearchSyntaxTests), and one inside a word is a character like these.
    @Test(arguments: ["'", "%", "_", "*", ";", "--", "NEAR", "OR", "a'b\"c", "%_%"])
    func searchTreatsQueryCharactersLiterally(query: String) throws {
        let sandbox = try BooksSandbox.seeded()
        // `--` ends the options, so the query `--` follows one.
        let run = try sandbox.run(["search", "--", query + "zzqx"])
        #expect(run.status == 0, "\(query): \(run)")
        #expect(run.stdout == "", "\(query): \(run.stdout.prefix(300))")
        #expect(run.stderr == "No books match \"\(query)zzqx\".\n")
    }

    @Test(arguments: ["'", "%", "_", "*", ";"])
    func searchSyntaxAloneDoesNotMatchEverything(query: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["search", "--json", "--", query])
        #expect(run.status == 0, "\(query): \(run)")
        let books = try run.jsonObjects()
        #expect(books.count < Self.seedCount, "\(query) matched every book")
        let strays = books.compactMap { book -> String? in
            let title = book["title"] as? String ?? "", author = book["author"] as? String ?? ""
            return (title + " " + author).contains(query) ? nil : title
        }
        #expect(strays.isEmpty, "\(query) matched \(strays.count) books without it, such as \(strays.prefix(3))")
    }

    @Test(arguments: [
        (["milosz"], "Zniewolony umysł"), (["marquez", "cien"], "Cien años de soledad"),
        (["MIŁOSZ", "umysl"], "Zniewolony umysł"), (["dostoevsky"], nil),
    ])
    func searchFoldsCaseAndAccents(words: [String], title: String?) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["search", "--json"] + words)
        #expect(run.status == 0, "\(run)")
        let titles = try run.jsonObjects().compactMap { $0["title"] as? String }
        if let title {
            #expect(titles.contains(title), "\(words) → \(titles.prefix(5))")
            #expect(titles.count < 10, "\(words) matched \(titles.count) books")
        } else {
            #expect(titles.isEmpty, "\(words) → \(titles.prefix(5))")
        }
    }

    @Test func searchTextPrintsMatchesOrTheNoMatchLine() throws {
        let sandbox = try BooksSandbox.seeded()
        let hit = try sandbox.run(["search", "marquez", "cien"])
        #expect(hit.status == 0)
        #expect(hit.stdout == "3D7B6A6B  Cien años de soledad — Gabriel García Márquez · May 30, 1967 · 47.39\n", "\(hit.stdout.prefix(300))")
        let miss = try sandbox.run(["search", "qqqqzz"])
        #expect(miss.status == 0)
        #expect(miss.stdout == "" && miss.stderr == "No books match \"qqqqzz\".\n", "\(miss)")
    }

    @Test func searchPrintsTheBestFiftyAndSaysWhenMoreMatch() throws {
        let sandbox = try BooksSandbox()
        // About 9% of synthetic titles have the word "light": about 90 of 1,000 books.
        let seed = try sandbox.run(["seed", "--count", "1000"])
        try #require(seed.status == 0, "\(seed.stderr)")
        let all = try sandbox.run(["search", "light", "--limit", "0"])
        #expect(all.status == 0 && all.stderr.isEmpty, "\(all.stderr)")
        let every = all.stdoutLines.filter { !$0.isEmpty }
        try #require(every.count > 50, "only \(every.count) books match 'light'")

        let best = try sandbox.run(["search", "light"])
        #expect(best.status == 0)
        #expect(best.stdoutLines.filter { !$0.isEmpty } == Array(every.prefix(50)))
        #expect(best.stderr == "More books match; these are the best 50. Use --limit N to see more, --limit 0 to see all.\n")

        let three = try sandbox.run(["search", "light", "--limit", "3", "--json"])
        #expect(three.status == 0 && three.stderr.contains("the best 3."))
        let exact = try sandbox.run(["search", "light", "--limit", String(every.count)])
        #expect(exact.stderr.isEmpty, "no note when every match is shown: \(exact.stderr)")
        #expect(exact.stdout == all.stdout)
        let huge = try sandbox.run(["search", "light", "--limit", String(Int.max)])
        #expect(huge.status == 0 && huge.stdout == all.stdout && huge.stderr.isEmpty)
    }
}
