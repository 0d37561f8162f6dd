import Foundation
import Testing

/// `books stats`: the charts of a small catalogue as the built binary draws them (Unicode
/// blocks in a UTF-8 locale, `#` in ASCII), the JSON tables, the width the bars take, and
/// what an empty or missing catalogue gives.
@Suite struct StatsCommandTests {
    /// Six books, added as a reader would: two read in 2023 and one in 2024 (with pages),
    /// one book by two authors, two in a series, one with nothing but a title and author.
    static func sandbox() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        let books: [[String]] = [
            ["--title", "Solaris", "--author", "Stanisław Lem", "--date", "1961", "--read", "2023-03-01",
             "--pages", "204", "--rating", "5", "--status", "read"],
            ["--title", "The Cyberiad", "--author", "Stanisław Lem", "--date", "1965-01-01", "--read", "2023-08-10",
             "--pages", "295", "--rating", "4", "--status", "read"],
            ["--title", "Good Omens", "--author", "Terry Pratchett", "--author", "Neil Gaiman", "--date", "1990-05",
             "--read", "2024-01-05", "--pages", "412", "--rating", "5", "--status", "read"],
            ["--title", "The Colour of Magic", "--author", "Terry Pratchett", "--date", "1983",
             "--series", "Discworld", "--series-number", "1", "--status", "reading"],
            ["--title", "The Light Fantastic", "--author", "Terry Pratchett", "--date", "1986",
             "--series", "Discworld", "--series-number", "2", "--status", "to-read"],
            ["--title", "Untitled", "--author", "Anonymous"],
        ]
        for book in books {
            let add = try sandbox.run(["add"] + book)
            #expect(add.status == 0, "\(add)")
        }
        return sandbox
    }

    static let unicodeCharts = """
        6 books in the catalogue.

        Books read per year
          2023  2 ██████████████████████████████████████████████████
          2024  1 █████████████████████████

        Pages read per year
          2023  499 ████████████████████████████████████████████████
          2024  412 ███████████████████████████████████████▋

        Books per publication decade
          1960s    2 ███████████████████████████████████████████████
          1980s    2 ███████████████████████████████████████████████
          1990s    1 ███████████████████████▌
          unknown  1 ███████████████████████▌

        Books by status
          to-read  1 ███████████████▋
          reading  1 ███████████████▋
          read     3 ███████████████████████████████████████████████
          none     1 ███████████████▋

        Books by rating
          5/5      2 ███████████████████████████████▍
          4/5      1 ███████████████▋
          3/5      0
          2/5      0
          1/5      0
          unrated  3 ███████████████████████████████████████████████

        Top authors
          Terry Pratchett  3 ███████████████████████████████████████
          Stanisław Lem    2 ██████████████████████████
          Anonymous        1 █████████████
          Neil Gaiman      1 █████████████

        Top series
          Discworld  2 █████████████████████████████████████████████

        """

    @Test func chartsASmallCatalogueWithUnicodeBlocks() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["stats"], extra: ["COLUMNS": "60"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(run.stdout == Self.unicodeCharts, "\(run.stdout)")
    }

    @Test func asciiWithTheFlagOrALocaleThatIsNotUTF8() throws {
        let sandbox = try Self.sandbox()
        let expected = Self.asciiCharts
        let flagged = try sandbox.run(["stats", "--ascii"], extra: ["COLUMNS": "60"])
        #expect(flagged.status == 0 && flagged.stderr.isEmpty, "\(flagged)")
        #expect(flagged.stdout == expected, "\(flagged.stdout)")
        // The locale of characters decides: LC_ALL over LC_CTYPE over LANG; C is ASCII.
        for (lang, extra) in [
            ("C", [:]), ("POSIX", [:]), ("en_US.ISO-8859-1", [:]), ("", [:]),
            ("en_US.UTF-8", ["LC_ALL": "C"]), ("en_US.UTF-8", ["LC_CTYPE": "POSIX"]),
        ] as [(String, [String: String])] {
            let run = try sandbox.run(["stats"], lang: lang, extra: extra.merging(["COLUMNS": "60"]) { $1 })
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == expected, "LANG=\(lang) \(extra)")
        }
        for (lang, extra) in [("C", ["LC_ALL": "de_DE.utf8"]), ("C", ["LC_CTYPE": "C.UTF-8"]), ("fr_FR.utf8", [:])] {
            let run = try sandbox.run(["stats"], lang: lang, extra: extra.merging(["COLUMNS": "60"]) { $1 })
            #expect(run.stdout == Self.unicodeCharts, "LANG=\(lang) \(extra)")
        }
    }

    static var asciiCharts: String {
        // The same charts, whole columns of # instead of eighths of blocks.
        """
        6 books in the catalogue.

        Books read per year
          2023  2 ##################################################
          2024  1 #########################

        Pages read per year
          2023  499 ################################################
          2024  412 ########################################

        Books per publication decade
          1960s    2 ###############################################
          1980s    2 ###############################################
          1990s    1 ########################
          unknown  1 ########################

        Books by status
          to-read  1 ################
          reading  1 ################
          read     3 ###############################################
          none     1 ################

        Books by rating
          5/5      2 ###############################
          4/5      1 ################
          3/5      0
          2/5      0
          1/5      0
          unrated  3 ###############################################

        Top authors
          Terry Pratchett  3 #######################################
          Stanisław Lem    2 ##########################
          Anonymous        1 #############
          Neil Gaiman      1 #############

        Top series
          Discworld  2 #############################################

        """
    }

    @Test func jsonHasEveryTableInAFixedOrder() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["stats", "--json"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        #expect(object["books"] as? Int == 6)
        func rows(_ key: String) -> [[String: Any]] { object[key] as? [[String: Any]] ?? [] }
        func pairs(_ key: String, _ a: String, _ b: String) -> [String] {
            rows(key).map { "\($0[a].map { "\($0)" } ?? "nil")=\($0[b].map { "\($0)" } ?? "nil")" }
        }
        #expect(pairs("booksReadPerYear", "year", "books") == ["2023=2", "2024=1"])
        #expect(pairs("pagesReadPerYear", "year", "pages") == ["2023=499", "2024=412"])
        #expect(pairs("publicationDecades", "decade", "books") == ["1960=2", "1980=2", "1990=1", "<null>=1"])
        #expect(pairs("status", "status", "books") == ["to-read=1", "reading=1", "read=3", "<null>=1"])
        #expect(pairs("ratings", "rating", "books") == ["5=2", "4=1", "3=0", "2=0", "1=0", "0=0", "<null>=3"])
        #expect(pairs("topAuthors", "name", "books") == ["Terry Pratchett=3", "Stanisław Lem=2", "Anonymous=1", "Neil Gaiman=1"])
        #expect(pairs("topSeries", "name", "books") == ["Discworld=2"])
        // Keys in their documented order, for scripts that read the text.
        let keys = ["books", "booksReadPerYear", "pagesReadPerYear", "publicationDecades", "status", "ratings", "topAuthors", "topSeries"]
        let offsets = keys.map { run.stdout.range(of: "\"\($0)\":")?.lowerBound }
        #expect(offsets.allSatisfy { $0 != nil } && offsets.compactMap { $0 } == offsets.compactMap { $0 }.sorted(), "\(run.stdout)")
        #expect(Set(object.keys) == Set(keys))
    }

    @Test func topLimitsTheAuthorsAndSeries() throws {
        let sandbox = try Self.sandbox()
        let run = try sandbox.run(["stats", "--json", "--top", "2"])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        #expect((object["topAuthors"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Terry Pratchett", "Stanisław Lem"])
        let text = try sandbox.run(["stats", "--top", "1"], extra: ["COLUMNS": "60"])
        #expect(text.stdout.contains("Top authors\n  Terry Pratchett  3 "), "\(text.stdout)")
        for bad in ["0", "-1", "x", "1001"] {
            let refused = try sandbox.run(["stats", "--top", bad])
            #expect(refused.status == 64 && refused.stdout.isEmpty, "--top \(bad): \(refused)")
            #expect(refused.stderr.hasPrefix("Error: "), "\(refused)")
        }
    }

    @Test func barsTakeTheWidthOfCOLUMNS() throws {
        let sandbox = try Self.sandbox()
        for columns in [40, 80, 132] {
            let run = try sandbox.run(["stats"], extra: ["COLUMNS": "\(columns)"])
            let lines = run.stdout.split(separator: "\n").map(String.init)
            // The longest bar of each chart ends the line at the last column.
            let widest = lines.map(\.count).max() ?? 0
            #expect(widest == columns, "COLUMNS=\(columns):\n\(run.stdout)")
            #expect(lines.contains("  2023  2 " + String(repeating: "█", count: columns - 10)), "\(run.stdout)")
        }
        // No COLUMNS (or one that is no width) and no terminal: 80.
        for value in [nil, "", "wide", "5", "0"] as [String?] {
            let run = try sandbox.run(["stats"], extra: value.map { ["COLUMNS": $0] } ?? [:])
            #expect(run.stdout.contains("\n  2023  2 " + String(repeating: "█", count: 70) + "\n"), "COLUMNS=\(value ?? "unset")")
        }
    }

    @Test func aLongNameIsCutToATHirdOfTheLine() throws {
        let sandbox = try BooksSandbox()
        let name = "Johann Wolfgang von Goethe und Friedrich Schiller"
        #expect(try sandbox.run(["add", "--title", "Xenien", "--author", name]).status == 0)
        let run = try sandbox.run(["stats"], extra: ["COLUMNS": "60"])
        #expect(run.stdout.contains("\n  Johann Wolfgang von…  1 " + String(repeating: "█", count: 34) + "\n"), "\(run.stdout)")
        let ascii = try sandbox.run(["stats", "--ascii"], extra: ["COLUMNS": "60"])
        #expect(ascii.stdout.contains("\n  Johann Wolfgang v...  1 " + String(repeating: "#", count: 34) + "\n"), "\(ascii.stdout)")
    }

    @Test func anEmptyCatalogueSaysSoAndExitsZero() throws {
        let sandbox = try BooksSandbox()
        let id = try sandbox.run(["add", "--title", "Gone", "--author", "Nobody"]).addedID
        #expect(try sandbox.run(["delete", id, "--yes"]).status == 0)
        let run = try sandbox.run(["stats"])
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run)")
        #expect(run.stderr == "The catalogue has no books.\n", "\(run)")
        let json = try sandbox.run(["stats", "--json"])
        #expect(json.status == 0 && json.stderr.isEmpty, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(object["books"] as? Int == 0)
        #expect((object["booksReadPerYear"] as? [Any])?.isEmpty == true)
        #expect((object["status"] as? [[String: Any]])?.compactMap { $0["books"] as? Int } == [0, 0, 0, 0])
    }

    @Test func aMissingCatalogueIsCreatedWithTheSampleBooksAsListDoes() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["stats"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("sample books"), "\(run)")
        let count = try sandbox.bookCount()
        #expect(count > 0)
        #expect(run.stdout.hasPrefix("\(count) books in the catalogue.\n\nBooks read per year\n"), "\(run.stdout)")
        // Every book is counted once by status and once by rating.
        let object = try #require(
            try JSONSerialization.jsonObject(with: try sandbox.run(["stats", "--json"]).stdoutData) as? [String: Any])
        #expect((object["status"] as? [[String: Any]])?.compactMap { $0["books"] as? Int }.reduce(0, +) == count)
        #expect((object["ratings"] as? [[String: Any]])?.compactMap { $0["books"] as? Int }.reduce(0, +) == count)
        #expect((object["publicationDecades"] as? [[String: Any]])?.compactMap { $0["books"] as? Int }.reduce(0, +) == count)
    }
}
