import Foundation
import Testing

/// `books list --sort … --reverse --fields … --format …`, `--since`/`--until`, dates typed in
/// `--where`, month headings under `--limit`, and what an empty listing prints, run as the
/// built binary against five books whose order each key changes.
@Suite struct ListOrderAndFieldsTests {
    /// Five books: three in March 1961 (one of them by accents and case between the
    /// others), one whose title needs CSV quoting, one known only to its month.
    static let seedJSON = """
        [
          {"uuid": "11111111-0000-4000-8000-000000000001", "title": "zebra", "author": "Ana",
           "publishDate": "1961-03-10", "price": "5.00"},
          {"uuid": "22222222-0000-4000-8000-000000000002", "title": "Émile", "author": "Zoe",
           "publishDate": "1961-03-20", "price": "20.00"},
          {"uuid": "33333333-0000-4000-8000-000000000003", "title": "apple", "author": "Bob",
           "publishDate": "1961-03-01", "price": "10.00", "color": "#FF0000"},
          {"uuid": "44444444-0000-4000-8000-000000000004", "title": "Mango, \\"ripe\\"", "author": "bob",
           "publishDate": "1975-07-15", "price": "7.50"},
          {"uuid": "55555555-0000-4000-8000-000000000005", "title": "banana", "author": "Cy",
           "publishDate": "2021-05-01", "datePrecision": "month", "price": "1.00"}
        ]
        """

    static func sandbox() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        let file = sandbox.directory.appendingPathComponent("five.json")
        try Data(seedJSON.utf8).write(to: file)
        let seed = try sandbox.run(["seed", "--file", file.path])
        #expect(seed.status == 0, "\(seed)")
        return sandbox
    }

    /// The titles `list` prints with these arguments, one a line.
    static func titles(_ sandbox: BooksSandbox, _ arguments: [String]) throws -> [String] {
        let run = try sandbox.run(["list", "--fields", "title"] + arguments)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func eachSortKeyOrdersTheListAndReverseTurnsItAround() throws {
        let sandbox = try Self.sandbox()
        let expected: [String: [String]] = [
            // Case and accents do not count: Émile between banana and Mango.
            "title": ["apple", "banana", "Émile", "Mango, \"ripe\"", "zebra"],
            // Bob and bob are one author to the sort; their books fall by title.
            "author": ["zebra", "apple", "Mango, \"ripe\"", "banana", "Émile"],
            "date": ["banana", "Mango, \"ripe\"", "Émile", "zebra", "apple"],
            "price": ["banana", "zebra", "Mango, \"ripe\"", "apple", "Émile"],
            // Seeded together: the same time added, so by title.
            "added": ["apple", "banana", "Émile", "Mango, \"ripe\"", "zebra"],
        ]
        for (key, titles) in expected {
            #expect(try Self.titles(sandbox, ["--sort", key]) == titles, "--sort \(key)")
            #expect(try Self.titles(sandbox, ["--sort", key, "--reverse"]) == titles.reversed(), "--sort \(key) --reverse")
        }
        // Without --sort: newest first, as before.
        #expect(try Self.titles(sandbox, []) == expected["date"])
    }

    @Test func byMonthSortsWithinMonthsAndCountsTheMonthNotTheShownBooks() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["list", "--by-month", "--sort", "title", "--limit", "4", "--fields", "id,title"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdout == """
                May 2021 (1)
                  55555555 · banana

                July 1975 (1)
                  44444444 · Mango, "ripe"

                March 1961 (2 of 3)
                  33333333 · apple
                  22222222 · Émile

                """, "\(run)")
        // Oldest month first only when sorting by date reversed.
        let oldest = try sandbox.run(["list", "--by-month", "--sort", "date", "--reverse", "--fields", "title"])
        #expect(oldest.stdout.hasPrefix("March 1961 (3)\n  apple\n  zebra\n  Émile\n\nJuly 1975"), "\(oldest)")
        // JSON counts the month too.
        let json = try sandbox.run(["list", "--by-month", "--json", "--limit", "3", "--fields", "title"])
        let sections = try json.jsonObjects()
        #expect(sections.map { $0["count"] as? Int } == [1, 1, 3])
        #expect((sections.last?["books"] as? [[String: Any]])?.count == 1)
    }

    @Test func csvHasAHeaderAndQuotesAsRFC4180Says() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["list", "--format", "csv", "--sort", "title", "--fields", "title,author,price,date,color"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdout == "title,author,price,publishDate,color\r\n" + "apple,Bob,10.00,1961-03-01,#FF0000\r\n"
                + "banana,Cy,1.00,2021-05-01,\r\n" + "Émile,Zoe,20.00,1961-03-20,\r\n"
                + "\"Mango, \"\"ripe\"\"\",bob,7.50,1975-07-15,\r\n" + "zebra,Ana,5.00,1961-03-10,\r\n", "\(run)")
        // Without --fields, CSV has the fields of JSON a file can keep.
        let plain = try sandbox.run(["list", "--format", "csv", "--limit", "1"])
        #expect(plain.stdout == "uuid,title,author,publishDate,price,color\r\n55555555-0000-4000-8000-000000000005,banana,Cy,2021-05-01,1.00,\r\n", "\(plain)")
    }

    @Test func jsonFieldsAreTheKeysAskedForInTheirOrder() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["list", "--format", "json", "--limit", "1", "--fields", "id,title,rating,added,tags"])
        #expect(run.status == 0, "\(run)")
        let book = try #require(try run.jsonObjects().first)
        #expect(Set(book.keys) == ["id", "title", "rating", "dateAdded", "tags"])
        #expect(book["id"] as? String == "55555555" && book["rating"] is NSNull && (book["tags"] as? [Any])?.isEmpty == true)
        #expect(run.stdout.hasPrefix("[\n{\"id\": \"55555555\", \"title\": \"banana\", \"rating\": null, \"dateAdded\": \""), "\(run)")
        // --json is --format json.
        let same = try sandbox.run(["list", "--json", "--limit", "1", "--fields", "id,title,rating,added,tags"])
        #expect(same.stdout.prefix(40) == run.stdout.prefix(40))
    }

    @Test(arguments: [
        (["--fields", "title,pagez"], "Error: The value 'title,pagez' is invalid for '--fields <list>': unknown field 'pagez'; the fields are id, uuid, title, author, authors, date, price, color, isbn, language, rating, status, notes, added, tags, series, seriesNumber, publisher, pages, format, read, readCount, review, all. See 'books help list'.\n"),
        (["--fields", "title,,author"], nil),
        (["--sort", "pages"], "Error: The value 'pages' is invalid for '--sort <key>': must be one of title, author, date, price, added, series. See 'books help list'.\n"),
        (["--format", "xml"], nil),
        (["--json", "--format", "csv"], "Error: --json and --format csv ask for different formats; give one. See 'books help list'.\n"),
        (["--since", "1961-13"], "Error: The value '1961-13' is invalid for '--since <date>': '1961-13' is not a date: there is no month 13. See 'books help list'.\n"),
        (["--until", "soon"], nil),
        (["--where", #"publishDate > "yesterday""#], nil),
    ])
    func badListArgumentsAreUsageErrorsNamingTheValue(arguments: [String], message: String?) throws {
        let sandbox = try Self.sandbox()
        let before = try Data(contentsOf: sandbox.store)
        let run = try sandbox.run(["list"] + arguments)
        #expect(run.status == 64, "\(arguments): \(run)")
        #expect(run.stdout.isEmpty && run.stderrLines.count == 1, "\(arguments): \(run)")
        if let message { #expect(run.stderr == message) }
        #expect(run.stderr.hasPrefix("Error: "))
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test func theNotADateErrorNamesTheText() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["list", "--where", #"publishDate > "yesterday""#])
        #expect(run.stderr.contains("'yesterday' is not a date"), "\(run)")
    }

    @Test func datesTypedInPredicatesAndSinceUntilSelectByPublicationDate() throws {
        let sandbox = try Self.sandbox()
        #expect(try Self.titles(sandbox, ["--where", #"publishDate > "2020-01-01""#]) == ["banana"])
        #expect(try Self.titles(sandbox, ["--where", #"publishDate >= "1961-03-20T00:00:00+00:00""#]) == ["banana", "Mango, \"ripe\"", "Émile"])
        #expect(try Self.titles(sandbox, ["--where", #"publishDate < "1961-03-10T03:00:00+02:00""#]) == ["zebra", "apple"])
        // Inclusive, and a year or month counts whole.
        #expect(try Self.titles(sandbox, ["--until", "1961"]) == ["Émile", "zebra", "apple"])
        #expect(try Self.titles(sandbox, ["--since", "1961-03-10", "--until", "1961-03-20"]) == ["Émile", "zebra"])
        #expect(try Self.titles(sandbox, ["--since", "1970", "--until", "2021-04"]) == ["Mango, \"ripe\""])
        #expect(try Self.titles(sandbox, ["--since", "2021-05", "--where", "price < 2"]) == ["banana"])
    }

    @Test func anEmptyListingSaysSoOnStandardErrorAsSearchDoes() throws {
        let sandbox = try Self.sandbox()
        let text = try sandbox.run(["list", "--where", "price > 1000"])
        #expect(text.status == 0 && text.stdout.isEmpty && text.stderr == "No books match.\n", "\(text)")
        let json = try sandbox.run(["list", "--since", "2030", "--json"])
        #expect(json.status == 0 && json.stdout == "[]\n" && json.stderr.isEmpty, "\(json)")
        let csv = try sandbox.run(["list", "--since", "2030", "--format", "csv", "--fields", "title"])
        #expect(csv.status == 0 && csv.stdout == "title\r\n" && csv.stderr.isEmpty, "\(csv)")
        let search = try sandbox.run(["search", "qqqqzz"])
        #expect(search.status == 0 && search.stdout.isEmpty && search.stderr == "No books match \"qqqqzz\".\n", "\(search)")
        let searchJSON = try sandbox.run(["search", "--json", "qqqqzz"])
        #expect(searchJSON.status == 0 && searchJSON.stdout == "[]\n" && searchJSON.stderr.isEmpty, "\(searchJSON)")
    }

    @Test func limitZeroMeansAllForListAsForSearch() throws {
        let sandbox = try Self.sandbox()
        #expect(try Self.titles(sandbox, ["--limit", "0"]).count == 5)
        #expect(try Self.titles(sandbox, ["--limit", "2"]).count == 2)
        let search = try sandbox.run(["search", "--limit", "0", "a"])
        #expect(search.status == 0 && search.stdoutLines.filter { !$0.isEmpty }.count >= 4, "\(search)")
    }

    @Test func oneSeededBookIsOneBook() throws {
        let sandbox = try BooksSandbox()
        let file = sandbox.directory.appendingPathComponent("one.json")
        try Data(#"[{"uuid": "11111111-0000-4000-8000-000000000001", "title": "zebra", "author": "Ana", "publishDate": "1961-03-10", "price": "5.00"}]"#.utf8).write(to: file)
        let run = try sandbox.run(["seed", "--file", file.path])
        #expect(run.stdout == "Seeded 1 book; the catalogue has 1.\n", "\(run)")
    }
}
