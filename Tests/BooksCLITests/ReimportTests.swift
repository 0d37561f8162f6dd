import Foundation
import Testing

/// Importing a newer export of the same source, through the built `books`: what the reader
/// changed in the catalogue since the last import of that source is kept, a field only the
/// file changed is updated, a field both changed is named and kept as the reader's (unless
/// `--prefer-file`), tags merge, `--dry-run` writes nothing, and undo takes a re-import back
/// with what it remembered of the file.
@Suite struct ReimportTests {
    /// A Goodreads export of two books, as Goodreads writes its columns.
    private static let header =
        "Book Id,Title,Author,ISBN13,My Rating,Year Published,Number of Pages,Private Notes,Bookshelves,Exclusive Shelf\r\n"

    /// The first export: Dune read and rated 4, shelved classics and sf; Kindred to read.
    private static let firstExport = header
        + "1001,Dune,Frank Herbert,\"=\"\"9780441013593\"\"\",4,1965,412,,\"classics, sf\",read\r\n"
        + "1002,Kindred,Octavia E. Butler,\"=\"\"9780807083697\"\"\",0,1979,264,,,to-read\r\n"

    /// A newer export: Dune's pages and shelves changed (a new shelf, space); Kindred read,
    /// rated 5, with a private note.
    private static let newerExport = header
        + "1001,Dune,Frank Herbert,\"=\"\"9780441013593\"\"\",4,1965,896,,\"classics, sf, space\",read\r\n"
        + "1002,Kindred,Octavia E. Butler,\"=\"\"9780807083697\"\"\",5,1979,264,Gift from Ana,,read\r\n"

    /// A catalogue that imported the first export, then was edited by its reader: Dune
    /// rated 5, reading again, its sf tag taken off and mine put on; Kindred rated 3 and
    /// being read. Returns the sandbox, the newer export's path and each book's short ID.
    private static func editedAfterImport(_ given: BooksSandbox? = nil) throws -> (BooksSandbox, String, dune: String, kindred: String) {
        let sandbox = try given ?? BooksSandbox()
        let first = sandbox.directory.appendingPathComponent("goodreads_library_export.csv")
        try Data(firstExport.utf8).write(to: first)
        let imported = try sandbox.run(["import", first.path])
        #expect(imported.stdout == "Imported 2 books (Goodreads CSV): 2 added, 0 updated, 0 unchanged.\n", "\(imported)")
        let newer = sandbox.directory.appendingPathComponent("goodreads_library_export (1).csv")
        try Data(newerExport.utf8).write(to: newer)
        let books = try Self.books(sandbox)
        let dune = try #require(books["Dune"]?["uuid"] as? String).prefix(8)
        let kindred = try #require(books["Kindred"]?["uuid"] as? String).prefix(8)
        for edit in [
            ["edit", String(dune), "--rating", "5", "--status", "reading", "--tag", "-sf", "--tag", "+mine"],
            ["edit", String(kindred), "--rating", "3", "--status", "reading"],
        ] {
            let run = try sandbox.run(edit)
            #expect(run.status == 0, "\(run)")
        }
        return (sandbox, newer.path, String(dune), String(kindred))
    }

    /// Every book as `books export` writes it, by title.
    private static func books(_ sandbox: BooksSandbox) throws -> [String: [String: Any]] {
        let run = try sandbox.run(["export", "--format", "json"])
        #expect(run.status == 0, "\(run)")
        return Dictionary(uniqueKeysWithValues: try run.jsonObjects().map { ($0["title"] as? String ?? "", $0) })
    }

    /// The finding of issue #48: a rating, tags and a status changed in books went back to
    /// the file's values, and tags were replaced. In the library's store and in Core Data's
    /// layout (which keeps no history, but keeps what imports gave).
    @Test(arguments: [false, true])
    func aNewerGoodreadsExportKeepsTheReadersEditsAndMergesTags(coreDataLayout: Bool) throws {
        let (sandbox, newer, _, kindred) = try Self.editedAfterImport(
            coreDataLayout ? try CoreDataBooksStoreTests.coreDataSandbox() : try BooksSandbox())
        let run = try sandbox.run(["import", newer])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(
            run.stdoutLines == [
                "Imported 2 books (Goodreads CSV): 0 added, 2 updated, 0 unchanged; "
                    + "2 conflicts kept yours (--prefer-file takes the file's).",
                "Conflict: \(kindred) \"Kindred\", rating: kept yours (3); the file changed it from none to 5.",
                "Conflict: \(kindred) \"Kindred\", status: kept yours (reading); the file changed it from to-read to read.",
                "",
            ], "\(run)")
        let books = try Self.books(sandbox)
        let duneBook = try #require(books["Dune"])
        // The reader's rating and status stay; the pages only the file changed follow it;
        // the tag the reader took off stays off, theirs stays, the file's new one comes.
        #expect(duneBook["rating"] as? Int == 5 && duneBook["status"] as? String == "reading", "\(duneBook)")
        #expect(duneBook["pages"] as? Int == 896, "\(duneBook)")
        #expect(duneBook["tags"] as? [String] == ["classics", "mine", "space"], "\(duneBook)")
        let kindredBook = try #require(books["Kindred"])
        #expect(kindredBook["rating"] as? Int == 3 && kindredBook["status"] as? String == "reading", "\(kindredBook)")
        #expect(kindredBook["notes"] as? String == "Gift from Ana", "\(kindredBook)")

        // The same file again: nothing changed in it since, so nothing to do or report.
        let again = try sandbox.run(["import", newer])
        #expect(again.stdout == "Imported 2 books (Goodreads CSV): 0 added, 0 updated, 2 unchanged.\n", "\(again)")
    }

    /// calibre's JSON and CSV are one source: the same merge, a conflict named with the
    /// values as the catalogue has them (calibre's 8 of 10 is 4 stars).
    @Test func aNewerCalibreExportKeepsTheReadersEditsToo() throws {
        let sandbox = try BooksSandbox()
        let uuid = "11111111-2222-4333-8444-555555555555"
        func write(_ name: String, rating: Int, tags: String, publisher: String) throws -> String {
            let json = """
                [{"id": 1, "uuid": "\(uuid)", "title": "Songs", "authors": "Paul Simon", "rating": \(rating), \
                "tags": [\(tags)], "publisher": "\(publisher)"}]
                """
            let url = sandbox.directory.appendingPathComponent(name)
            try Data(json.utf8).write(to: url)
            return url.path
        }
        let first = try write("first.json", rating: 6, tags: "\"music\"", publisher: "Columbia")
        #expect(try sandbox.run(["import", first]).stdout == "Imported 1 book (calibre JSON): 1 added, 0 updated, 0 unchanged.\n")
        #expect(try sandbox.run(["edit", "11111111", "--rating", "5", "--tag", "-music"]).status == 0)
        let newer = try write("newer.json", rating: 8, tags: "\"music\", \"folk\"", publisher: "Legacy")
        let run = try sandbox.run(["import", newer])
        #expect(
            run.stdoutLines == [
                "Imported 1 book (calibre JSON): 0 added, 1 updated, 0 unchanged; 1 conflict kept yours (--prefer-file takes the file's).",
                "Conflict: 11111111 \"Songs\", rating: kept yours (5); the file changed it from 3 to 4.",
                "",
            ], "\(run)")
        let book = try #require(try Self.books(sandbox)["Songs"])
        #expect(book["rating"] as? Int == 5 && book["publisher"] as? String == "Legacy", "\(book)")
        #expect(book["tags"] as? [String] == ["folk"], "\(book)")
    }

    /// A book imported without a date added gets the day of the import; a newer export that
    /// gives one is not a conflict with it (the reader cannot edit the date added), it is
    /// taken.
    @Test func aDateAddedTheFirstFileLackedIsTakenFromANewerOne() throws {
        let sandbox = try BooksSandbox()
        let header = "Book Id,Title,Author,My Rating,Date Added,Exclusive Shelf\r\n"
        let first = sandbox.directory.appendingPathComponent("first.csv")
        try Data((header + "1001,Dune,Frank Herbert,4,,read\r\n").utf8).write(to: first)
        #expect(try sandbox.run(["import", first.path]).status == 0)
        let newer = sandbox.directory.appendingPathComponent("newer.csv")
        try Data((header + "1001,Dune,Frank Herbert,4,2019/01/05,read\r\n").utf8).write(to: newer)
        let run = try sandbox.run(["import", newer.path])
        #expect(run.stdout == "Imported 1 book (Goodreads CSV): 0 added, 1 updated, 0 unchanged.\n", "\(run)")
        let dune = try #require(try Self.books(sandbox)["Dune"])
        #expect((dune["dateAdded"] as? String)?.hasPrefix("2019-01-05") == true, "\(dune)")
    }

    /// A conflict's values are shown on its one line: a line break escaped, a long text cut.
    @Test func aConflictShowsLongAndMultiLineValuesOnOneLine() throws {
        let sandbox = try BooksSandbox()
        let uuid = "0B1C2D3E-4F50-4617-8899-AABBCCDDEEFF"
        func write(_ name: String, notes: String) throws -> String {
            let entry: [String: Any] = ["uuid": uuid, "title": "T", "authors": ["A"], "notes": notes]
            let url = sandbox.directory.appendingPathComponent(name)
            try JSONSerialization.data(withJSONObject: [entry]).write(to: url)
            return url.path
        }
        #expect(try sandbox.run(["import", try write("first.json", notes: "short")]).status == 0)
        #expect(try sandbox.run(["edit", "0b1c2d3e", "--notes", "mine"]).status == 0)
        let long = "Line one\nline two " + String(repeating: "x", count: 80)
        let run = try sandbox.run(["import", try write("newer.json", notes: long)])
        let cut = String(long.prefix(59)).replacingOccurrences(of: "\n", with: "\\n")
        #expect(
            run.stdoutLines.dropFirst().first
                == "Conflict: 0B1C2D3E \"T\", notes: kept yours (mine); the file changed it from short to \"\(cut)…\".",
            "\(run)")
    }

    @Test func preferFileTakesTheFilesValueOnlyWhereBothChanged() throws {
        let (sandbox, newer, _, kindred) = try Self.editedAfterImport()
        let run = try sandbox.run(["import", "--prefer-file", newer])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(
            run.stdoutLines == [
                "Imported 2 books (Goodreads CSV): 0 added, 2 updated, 0 unchanged; 2 conflicts took the file's.",
                "Conflict: \(kindred) \"Kindred\", rating: took the file's (5); yours was 3, the last import gave none.",
                "Conflict: \(kindred) \"Kindred\", status: took the file's (read); yours was reading, the last import gave to-read.",
                "",
            ], "\(run)")
        let books = try Self.books(sandbox)
        #expect(books["Kindred"]?["rating"] as? Int == 5 && books["Kindred"]?["status"] as? String == "read")
        // A field the file did not change keeps the reader's value even so.
        #expect(books["Dune"]?["rating"] as? Int == 5 && books["Dune"]?["status"] as? String == "reading")
        #expect(books["Dune"]?["tags"] as? [String] == ["classics", "mine", "space"])
    }

    /// The store's files (the database and any journal beside it), by name.
    private static func storeFiles(_ sandbox: BooksSandbox) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        where name.hasPrefix(sandbox.store.lastPathComponent) {
            files[name] = try Data(contentsOf: sandbox.directory.appendingPathComponent(name))
        }
        return files
    }

    @Test func dryRunShowsWhatWouldChangeAndWritesNothing() throws {
        let (sandbox, newer, dune, kindred) = try Self.editedAfterImport()
        let before = try Self.storeFiles(sandbox)
        let history = try sandbox.run(["history"]).stdout
        let run = try sandbox.run(["import", "--dry-run", newer])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(
            run.stdoutLines == [
                "Would import 2 books (Goodreads CSV): 0 added, 2 updated, 0 unchanged; "
                    + "2 conflicts would keep yours (--prefer-file takes the file's). Nothing was written (--dry-run).",
                "Would update  \(dune)  Dune: tags, pages",
                "Would update  \(kindred)  Kindred: notes",
                "Conflict: \(kindred) \"Kindred\", rating: would keep yours (3); the file changed it from none to 5.",
                "Conflict: \(kindred) \"Kindred\", status: would keep yours (reading); the file changed it from to-read to read.",
                "",
            ], "\(run)")
        #expect(try Self.storeFiles(sandbox) == before)
        #expect(try sandbox.run(["history"]).stdout == history)
        // With --prefer-file, what it would take.
        let prefer = try sandbox.run(["import", "--dry-run", "--prefer-file", newer])
        #expect(prefer.stdoutLines.dropFirst().first == "Would update  \(dune)  Dune: tags, pages", "\(prefer)")
        #expect(prefer.stdoutLines.dropFirst(2).first == "Would update  \(kindred)  Kindred: rating, status, notes", "\(prefer)")
        #expect(try Self.storeFiles(sandbox) == before)

        // Into no catalogue at all: every book would be added, and no store is made.
        let empty = try BooksSandbox()
        let fresh = try empty.run(["import", "--dry-run", newer])
        #expect(fresh.status == 0, "\(fresh)")
        #expect(fresh.stdoutLines.first == "Would import 2 books (Goodreads CSV): 2 added, 0 updated, 0 unchanged. Nothing was written (--dry-run).", "\(fresh)")
        #expect(fresh.stdoutLines.dropFirst().allSatisfy { $0.isEmpty || $0.hasPrefix("Would add     ") }, "\(fresh)")
        #expect(!FileManager.default.fileExists(atPath: empty.store.path))

        // A bad file is refused as without --dry-run: exit 65, nothing written.
        let bad = sandbox.directory.appendingPathComponent("bad.csv")
        try Data((Self.header + "1003,Bad,Someone,,9,,,,,read\r\n").utf8).write(to: bad)
        let refused = try sandbox.run(["import", "--dry-run", bad.path])
        #expect(refused.status == 65 && refused.stdout.isEmpty && refused.stderr.contains("My Rating"), "\(refused)")
        #expect(try Self.storeFiles(sandbox) == before)
    }

    /// A newer file whose only change is one the reader also made, differently: no book
    /// changes, the conflict is named once, and the history and undo still see the import
    /// (it changed what the catalogue knows of the file).
    @Test func aReimportThatOnlyFindsConflictsIsNamedInTheHistoryAndUndone() throws {
        let (sandbox, _, _, kindred) = try Self.editedAfterImport()
        let rated = sandbox.directory.appendingPathComponent("rated.csv")
        try Data(Self.firstExport.replacingOccurrences(of: "\",0,1979", with: "\",5,1979").utf8).write(to: rated)
        let run = try sandbox.run(["import", rated.path])
        #expect(
            run.stdoutLines == [
                "Imported 2 books (Goodreads CSV): 0 added, 0 updated, 2 unchanged; "
                    + "1 conflict kept yours (--prefer-file takes the file's).",
                "Conflict: \(kindred) \"Kindred\", rating: kept yours (3); the file changed it from none to 5.",
                "",
            ], "\(run)")
        #expect(HistoryCommandTests.lines(try sandbox.run(["history", "--limit", "1"])) == ["#4  books import: changed no book"])
        // Named once: the same file again has nothing new.
        let again = try sandbox.run(["import", rated.path])
        #expect(again.stdout == "Imported 2 books (Goodreads CSV): 0 added, 0 updated, 2 unchanged.\n", "\(again)")
        // That import changed nothing, so it is not in the history; undone, the import
        // before it takes back what it kept of the file, and the conflict is new again.
        #expect(HistoryCommandTests.lines(try sandbox.run(["history", "--limit", "1"])) == ["#4  books import: changed no book"])
        #expect(try sandbox.run(["undo"]).stdout == "Undid books import (#4).\n")
        #expect(try sandbox.run(["import", rated.path]).stdout == run.stdout)
    }

    /// The help, the manual page and every shell's completions name both options (the bash
    /// completions of `books import -` are checked word for word in BashFileCompletionTests).
    @Test func helpManualAndCompletionsNameTheNewOptions() throws {
        let sandbox = try BooksSandbox()
        for arguments in [["help", "import"], ["import", "--help"], ["man"], ["completions", "bash"], ["completions", "zsh"],
            ["completions", "fish"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            // The manual page writes a dash as `\-`; fish names a long option without its dashes.
            let text = run.stdout.replacingOccurrences(of: "\\-", with: "-")
            #expect(text.contains("prefer-file") && text.contains("dry-run"), "\(arguments): \(run)")
        }
    }

    @Test func undoOfAReimportPutsBackWhatTheLastImportGave() throws {
        let (sandbox, newer, _, _) = try Self.editedAfterImport()
        let edited = try Self.books(sandbox)
        let first = try sandbox.run(["import", newer])
        #expect(first.status == 0, "\(first)")
        let undo = try sandbox.run(["undo"])
        #expect(undo.stdout == "Undid books import (#4): set back 2 books.\n", "\(undo)")
        #expect(NSDictionary(dictionary: try Self.books(sandbox)) == NSDictionary(dictionary: edited))
        // The values the first import gave are back too: the newer file finds the same
        // conflicts and makes the same changes again.
        let again = try sandbox.run(["import", newer])
        #expect(again.stdout == first.stdout, "\(again)")
        // Undone and redone, the import is back with what it kept: the file has nothing new.
        #expect(try sandbox.run(["undo"]).status == 0)
        let redo = try sandbox.run(["redo"])
        #expect(redo.stdout == "Redid books import (#6): changed 2 books.\n", "\(redo)")
        let after = try sandbox.run(["import", newer])
        #expect(after.stdout == "Imported 2 books (Goodreads CSV): 0 added, 0 updated, 2 unchanged.\n", "\(after)")
    }

    /// A seed, a delete, its undo, a re-import of the catalogue's own export with one rating
    /// changed, and its undo: `books history` names each, exactly.
    @Test func historyOfSeedDeleteUndoReimportUndoReadsRight() throws {
        let sandbox = try BooksSandbox.seeded()
        let exported = try sandbox.run(["export", "--format", "json"])
        #expect(exported.status == 0)
        var books = try exported.jsonObjects()
        let index = try #require(books.firstIndex { $0["uuid"] as? String == "A9EF420F-038E-4072-AE51-5CF9E8D16E6A" })
        let rating = books[index]["rating"] as? Int
        books[index]["rating"] = rating == 2 ? 3 : 2
        let file = sandbox.directory.appendingPathComponent("books.json")
        try JSONSerialization.data(withJSONObject: books).write(to: file)

        #expect(try sandbox.run(["delete", "a9ef420f", "--yes"]).status == 0)
        #expect(try sandbox.run(["undo"]).stdout == "Undid books delete (#2): brought back 1 book.\n")
        let imported = try sandbox.run(["import", file.path])
        #expect(imported.stdout == "Imported 459 books (JSON): 0 added, 1 updated, 458 unchanged.\n", "\(imported)")
        #expect(try sandbox.run(["undo"]).stdout == "Undid books import (#4): set back 1 book.\n")

        let history = try sandbox.run(["history"])
        #expect(history.status == 0 && history.stderr.isEmpty, "\(history)")
        // The seed's second and third books, as HistoryCommandTests leaves them.
        let seedBooks = Array(HistoryCommandTests.lines(history).dropFirst(10).prefix(2))
        #expect(
            HistoryCommandTests.lines(history) == [
                "#5  books undo of #4: updated 1 book",
                "    updated  A9EF420F  Solaris: rating",
                "#4  books import: updated 1 book",
                "    updated  A9EF420F  Solaris: rating",
                "#3  books undo of #2: added 1 book",
                "    added    A9EF420F  Solaris",
                "#2  books delete: deleted 1 book",
                "    deleted  A9EF420F  Solaris",
                "#1  books seed: added 459 books",
                "    added    DAD1D83A  Tirant lo Blanch",
            ] + seedBooks + ["    … and 456 books more"], "\(history)")
        #expect(seedBooks.count == 2 && seedBooks.allSatisfy { $0.hasPrefix("    added    ") })
        // The rating is the seed's again.
        #expect(try Self.books(sandbox)["Solaris"]?["rating"] as? Int == rating)
    }
}
