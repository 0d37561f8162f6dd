import Foundation
import Testing

/// `books seed --file PATH`, `--count N` and `--batch-size N`, run as the built binary.
@Suite struct SeedCommandTests {
    static let seedCount = 459

    /// A seed file of `count` distinct books numbered from `first`, by `authors` authors.
    static func seedFile(first: Int = 0, count: Int, authors: Int = 7) -> Data {
        let entries = (first..<first + count).map { index -> [String: String] in
            var book: [String: String] = [:]
            book["uuid"] = String(format: "00000000-0000-4000-8000-%012X", index)
            book["title"] = "Księga numer \(index)"
            book["author"] = "Autor Ł. \(index % authors)"
            let year: Int = index % 100, month: Int = index % 12 + 1, day: Int = index % 28 + 1
            book["publishDate"] = String(format: "19%02d-%02d-%02d", year, month, day)
            let cents: Int = index % 100
            book["price"] = "\(index % 50)." + String(format: "%02d", cents)
            let rgb: Int = (index * 2_654_435) % 0xFF_FFFF
            book["color"] = String(format: "#%06X", rgb)
            return book
        }
        return (try? JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])) ?? Data()
    }

    @Test func seedFileLoadsItsBooksInsteadOfTheBundledOnes() throws {
        let sandbox = try BooksSandbox()
        let file = sandbox.directory.appendingPathComponent("mine.json")
        try Self.seedFile(count: 25).write(to: file)
        let run = try sandbox.run(["seed", "--file", file.path, "--batch-size", "10"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Seeded 25 books; the catalogue has 25.\n")
        #expect(run.stderr == "")
        let books = try sandbox.run(["list", "--json"]).jsonObjects()
        #expect(books.count == 25)
        let third = try #require(books.first { $0["uuid"] as? String == "00000000-0000-4000-8000-000000000002" })
        #expect(third["title"] as? String == "Księga numer 2")
        #expect(third["price"] as? String == "2.02")
        #expect(third["publishDate"] as? String == "1902-03-03")

        // Again: matched by UUID and left as they are, never duplicated.
        let again = try sandbox.run(["seed", "--file", file.path])
        #expect(
            again.stdout == "Seeded 0 of 25 books (25 already in the catalogue were left as they are); the catalogue has 25.\n",
            "\(again)")
        let audit = StoreAudit(store: sandbox.store)
        #expect(try audit.count("Author") == 7)
        #expect(try audit.problems() == [])
    }

    /// `books seed; books edit ID --rating 5 --notes mine; books seed; books undo`: the second
    /// seed adds what is missing and leaves the edited sample book (and its date added) as
    /// the user left it; undo then reverses the user's edit, not the seed.
    @Test func seedingAgainNeverOverwritesABookTheUserChanged() throws {
        let sandbox = try BooksSandbox.seeded()
        let solaris = "a9ef420f"
        let edit = try sandbox.run(["edit", solaris, "--rating", "5", "--notes", "mine", "--status", "read", "--tag", "kept"])
        #expect(edit.status == 0, "\(edit)")
        let edited = try sandbox.run(["show", solaris, "--json"])
        // One sample book is gone too: the second seed brings that one back, and only it.
        let removed = try sandbox.run(["delete", "56a81f96", "--yes"])
        #expect(removed.status == 0, "\(removed)")

        let again = try sandbox.run(["seed"])
        #expect(again.status == 0, "\(again)")
        #expect(
            again.stdout == "Seeded 1 of 459 books (458 already in the catalogue were left as they are); the catalogue has 459.\n",
            "\(again)")
        #expect(try sandbox.run(["show", solaris, "--json"]).stdout == edited.stdout)

        // Undo takes back the seed's one book, then the delete is what comes next.
        let undoSeed = try sandbox.run(["undo"])
        #expect(undoSeed.stdout.hasPrefix("Undid books seed") && undoSeed.stdout.hasSuffix("removed 1 book.\n"), "\(undoSeed)")
        #expect(try sandbox.run(["show", solaris, "--json"]).stdout == edited.stdout)
        #expect(try sandbox.bookCount() == Self.seedCount - 1)
    }

    @Test func missingSeedFileExits66AndCreatesNoStore() throws {
        let sandbox = try BooksSandbox()
        let missing = sandbox.directory.appendingPathComponent("nope.json")
        let run = try sandbox.run(["seed", "--file", missing.path])
        #expect(run.status == 66, "\(run)")
        #expect(run.stdout == "")
        #expect(run.stderr == "Error: The seed file '\(missing.path)' cannot be used: it does not exist.\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))

        let directory = try sandbox.run(["seed", "--file", sandbox.directory.path])
        #expect(directory.status == 66, "\(directory)")
        #expect(directory.stderr.contains("it is a directory"), "\(directory.stderr)")
    }

    static let malformedFiles: [(name: String, text: String, message: String)] = [
        ("truncated", "[{\"uuid\": \"00000000-0000-4000-8000-000000000001\",\n \"title\": \"Kra",
         "it is not valid JSON (the file ends unexpectedly at line 2, column 15; is it truncated?)"),
        ("empty", "", "it is not valid JSON (the file ends unexpectedly at line 1, column 1; is it truncated?)"),
        ("not JSON", "[{\"uuid\": nope}]", "it is not valid JSON (expected a value, found 'n' at line 1, column 11)"),
        ("an object", "{\"books\": []}", "expected a JSON array of books"),
        ("a missing key", "[{\"title\": \"T\"}]", "entry 1: uuid '': the key is missing"),
        ("a bad day",
         "[{\"uuid\": \"00000000-0000-4000-8000-000000000001\", \"title\": \"T\", \"author\": \"A\", \"publishDate\": \"2023-02-30\", \"price\": \"1\"}]",
         "entry 1: publishDate '2023-02-30'"),
        ("a bad price",
         "[{\"uuid\": \"00000000-0000-4000-8000-000000000001\", \"title\": \"T\", \"author\": \"A\", \"publishDate\": \"2023-02-03\", \"price\": \"19,99\"}]",
         "entry 1: price '19,99'"),
        ("a newline in a value",
         "[{\"uuid\": \"x\\ny\"}]", "entry 1: uuid 'x\\ny': expected a UUID"),
        ("a repeated UUID",
         "[{\"uuid\": \"00000000-0000-4000-8000-000000000001\", \"title\": \"T\", \"author\": \"A\", \"publishDate\": \"2023-02-03\", \"price\": \"1\"},"
            + " {\"uuid\": \"00000000-0000-4000-8000-000000000002\", \"title\": \"U\", \"author\": \"A\", \"publishDate\": \"2023-02-03\", \"price\": \"1\"},"
            + " {\"uuid\": \"00000000-0000-4000-8000-000000000001\", \"title\": \"V\", \"author\": \"A\", \"publishDate\": \"2023-02-03\", \"price\": \"1\"}]",
         "entry 3: uuid '00000000-0000-4000-8000-000000000001': entry 1 has the same UUID"),
    ]

    @Test(arguments: malformedFiles)
    func malformedSeedFileExits65NamingWhereAndLeavesTheStoreAlone(name: String, text: String, message: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        let file = sandbox.directory.appendingPathComponent("bad.json")
        try Data(text.utf8).write(to: file)
        let run = try sandbox.run(["seed", "--file", file.path])
        #expect(run.status == 65, "\(name): \(run)")
        #expect(run.stdout == "")
        #expect(run.stderrLines.count == 1, "\(name): \(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: Invalid "), "\(name): \(run.stderr)")
        #expect(run.stderr.contains(file.path), "\(name): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(name): \(run.stderr)")
        #expect(try Data(contentsOf: sandbox.store) == before, "\(name): the store changed")
    }

    @Test func seedFileWithABadBookAfterGoodOnesWritesNone() throws {
        let sandbox = try BooksSandbox.seeded()
        var entries = try JSONSerialization.jsonObject(with: Self.seedFile(count: 30)) as? [[String: String]] ?? []
        entries[29]["price"] = "-1"
        let file = sandbox.directory.appendingPathComponent("late.json")
        try JSONSerialization.data(withJSONObject: entries).write(to: file)
        let run = try sandbox.run(["seed", "--file", file.path, "--batch-size", "5"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("entry 30: price '-1'"), "\(run.stderr)")
        #expect(try sandbox.bookCount() == Self.seedCount)
    }

    @Test func seedCountGrowsByNAndARerunAddsOnlyTheMissingBooks() throws {
        let sandbox = try BooksSandbox.seeded()
        let first = try sandbox.run(["seed", "--count", "1200", "--batch-size", "500"])
        #expect(first.status == 0, "\(first)")
        #expect(
            first.stdout == "Seeded 1200 of \(Self.seedCount + 1_200) books (\(Self.seedCount) already in the catalogue "
                + "were left as they are); the catalogue has \(Self.seedCount + 1_200).\n", "\(first)")
        #expect(first.stderr == "", "no progress bar on a pipe")
        let audit = StoreAudit(store: sandbox.store)
        #expect(try audit.count("Book") == Self.seedCount + 1_200)

        // Synthetic book i is always the same book: a rerun adds nothing, a longer run extends.
        let again = try sandbox.run(["seed", "--count", "1200"])
        #expect(again.status == 0, "\(again)")
        #expect(try audit.count("Book") == Self.seedCount + 1_200)
        let longer = try sandbox.run(["seed", "--count", "1500"])
        #expect(longer.status == 0, "\(longer)")
        #expect(try audit.count("Book") == Self.seedCount + 1_500)
        #expect(try audit.problems() == [])
        let titles = try audit.books().map(\.title)
        #expect(titles.contains { $0.hasSuffix(" 1499") } && !titles.contains { $0.hasSuffix(" 1500") })
    }

    @Test func batchSizeMustBeAtLeastOne() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["seed", "--batch-size", "0"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.hasPrefix("Error: "), "\(run.stderr)")
        #expect(run.stderr.contains("--batch-size"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }
}
