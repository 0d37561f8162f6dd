import Foundation
import Testing

/// `books import` of the exports other catalogues write — calibre's `calibredb list
/// --for-machine` JSON and `calibredb catalog` CSV, LibraryThing's tab-delimited and CSV
/// exports — run as the built binary on the fixtures in `Tests/Fixtures/exports` (see the
/// README there for where their shapes come from): every field the catalogue has, checked
/// through `books export`; the same UUIDs at every import; a bad row named by its number.
@Suite struct ForeignExportImportTests {
    /// The fixtures' folder.
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/exports", isDirectory: true)

    private static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// Imports `data` as `name` into `sandbox`, expecting success and `summary`, and
    /// returns the exported books by title.
    private static func importAndExport(
        _ sandbox: BooksSandbox, _ name: String, _ data: Data, summary: String
    ) throws -> [String: [String: Any]] {
        let path = try sandbox.file(name, data)
        let run = try sandbox.run(["import", path])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(run.stdout == summary, "\(run)")
        let exported = try sandbox.run(["export", "--format", "json"])
        #expect(exported.status == 0, "\(exported)")
        return Dictionary(uniqueKeysWithValues: try exported.jsonObjects().map { ($0["title"] as? String ?? "", $0) })
    }

    /// How many books `books export` writes (a new catalogue's first `list` would add the
    /// sample books; an import and an export do not).
    private static func exportedCount(_ sandbox: BooksSandbox) throws -> Int {
        let run = try sandbox.run(["export", "--format", "json"])
        #expect(run.status == 0, "\(run)")
        return try run.jsonObjects().count
    }

    /// The fields of an exported book that are none (JSON null), by name.
    private static func nulls(_ book: [String: Any]) -> Set<String> {
        Set(book.filter { $0.value is NSNull }.map(\.key))
    }

    // MARK: - calibre

    /// The books both calibre fixtures describe, as the catalogue has them: calibre's JSON
    /// and its CSV catalogue of the same library give the same books.
    private static func expectCalibreLibrary(_ books: [String: [String: Any]], csv: Bool) throws {
        #expect(books.count == 5)
        let solaris = try #require(books["Solaris"])
        #expect(solaris["uuid"] as? String == "3F0C1B6E-8A4D-4F6B-9C2E-5D7A1E0B9C41")
        #expect(solaris["authors"] as? [String] == ["Stanisław Lem"])
        #expect(solaris["publishDate"] as? String == "2002-10-28" && solaris["datePrecision"] as? String == "day")
        #expect(solaris["isbn"] as? String == "9780156027601" && solaris["language"] as? String == "en")
        // 7 of calibre's 10 (3½ stars) rounds up to 4.
        #expect(solaris["rating"] as? Int == 4)
        #expect(solaris["tags"] as? [String] == ["favorites", "sci-fi"])
        #expect(solaris["publisher"] as? String == "Mariner Books" && solaris["format"] as? String == "EPUB")
        #expect(solaris["pages"] as? Int == 204)
        // calibre's `timestamp` (when the book was added to calibre), to the second, in UTC.
        #expect(solaris["dateAdded"] as? String == "2019-12-24T18:02:11Z")
        // calibre gives every book a series index; without a series it is not kept.
        #expect(solaris["series"] is NSNull && solaris["seriesNumber"] is NSNull)
        if csv {
            #expect(solaris["review"] as? String
                == "A scientist arrives at the research station above the ocean planet _Solaris_.  The ocean, it seems, is alive & thinking.")
        } else {
            // HTML comments as text: a paragraph a line, entities decoded, <br/> a line break.
            #expect(solaris["review"] as? String == """
                A scientist arrives at the research station above the ocean planet Solaris.

                The ocean, it seems, is alive & thinking.
                Or is it?
                """)
        }
        #expect(Self.nulls(solaris) == ["price", "color", "status", "notes", "series", "seriesNumber", "dateRead", "readCount"])

        // Two authors, " & "-joined; two formats; 10 of 10 is 5 stars; an ISBN-10 as ISBN-13.
        let omens = try #require(books["Good Omens"])
        #expect(omens["authors"] as? [String] == ["Terry Pratchett", "Neil Gaiman"])
        #expect(omens["format"] as? String == "EPUB, PDF" && omens["rating"] as? Int == 5)
        #expect(omens["isbn"] as? String == "9780060853983" && omens["pages"] is NSNull)

        // calibre's undefined publication date (year 101) is unknown; blank fields are none.
        let colour = try #require(books["The Colour of Magic"])
        #expect(colour["series"] as? String == "Discworld" && colour["seriesNumber"] as? String == "1")
        #expect(colour["publishDate"] is NSNull && colour["datePrecision"] is NSNull)
        #expect(colour["isbn"] is NSNull && colour["language"] is NSNull && colour["rating"] is NSNull)
        #expect(colour["review"] is NSNull && colour["format"] is NSNull && colour["publisher"] is NSNull)
        #expect(colour["tags"] as? [String] == [] && colour["pages"] is NSNull)
        #expect(colour["dateAdded"] as? String == "2021-06-12T20:00:05Z")

        // A half star (1 of 10) rounds up to one star; series number 0.5; no ISBN identifier.
        let hobbit = try #require(books["The Hobbit"])
        #expect(hobbit["rating"] as? Int == 1 && hobbit["seriesNumber"] as? String == "0.5")
        #expect(hobbit["series"] as? String == "Middle-earth" && hobbit["isbn"] is NSNull)
        #expect(hobbit["publisher"] as? String == "George Allen & Unwin" && hobbit["format"] as? String == "AZW3")
        #expect(hobbit["publishDate"] as? String == "1937-09-21")

        // ISO 639-2's bibliographic code `fre` is BCP 47's `fr`.
        let prince = try #require(books["Le Petit Prince"])
        #expect(prince["language"] as? String == "fr" && prince["authors"] as? [String] == ["Antoine de Saint-Exupéry"])
        #expect(prince["review"] as? String == "« On ne voit bien qu'avec le cœur. »")
        #expect(prince["publishDate"] as? String == "1943-04-06" && prince["rating"] is NSNull)
    }

    @Test func calibreListForMachineJSONImportsEveryField() throws {
        let sandbox = try BooksSandbox()
        let data = try Self.fixture("calibredb_list_for_machine.json")
        let books = try Self.importAndExport(
            sandbox, "calibre.json", data, summary: "Imported 5 books (calibre JSON): 5 added, 0 updated, 0 unchanged.\n")
        try Self.expectCalibreLibrary(books, csv: false)
        // Importing it again finds every book by its calibre UUID and changes nothing.
        let again = try sandbox.run(["import", try sandbox.file("again.json", data)])
        #expect(again.stdout == "Imported 5 books (calibre JSON): 0 added, 0 updated, 5 unchanged.\n", "\(again)")
    }

    @Test func calibreCatalogCSVImportsEveryFieldAndMatchesTheJSON() throws {
        let sandbox = try BooksSandbox()
        let data = try Self.fixture("calibre_catalog.csv")
        let books = try Self.importAndExport(
            sandbox, "calibre.csv", data, summary: "Imported 5 books (calibre CSV): 5 added, 0 updated, 0 unchanged.\n")
        try Self.expectCalibreLibrary(books, csv: true)
        let again = try sandbox.run(["import", try sandbox.file("again.csv", data)])
        #expect(again.stdout == "Imported 5 books (calibre CSV): 0 added, 0 updated, 5 unchanged.\n", "\(again)")
        // The JSON of the same library then updates the same books (the same UUIDs): only
        // the reviews differ (HTML as text rather than calibre's Markdown).
        let json = try sandbox.run(["import", try sandbox.file("calibre.json", try Self.fixture("calibredb_list_for_machine.json"))])
        #expect(json.stdout == "Imported 5 books (calibre JSON): 0 added, 2 updated, 3 unchanged.\n", "\(json)")
    }

    /// calibre's authors as an array, and an `&` doubled inside a name.
    @Test func calibreAuthorsAreReadAsTextWithDoubledAmpersandsOrAsAnArray() throws {
        let sandbox = try BooksSandbox()
        let json = """
            [{"authors": "Simon && Garfunkel & Paul Simon", "id": 1, "title": "Songs", "uuid": "11111111-2222-4333-8444-555555555555"},
             {"authors": ["Ann Leckie", "Someone Else"], "id": 2, "title": "Ancillary", "languages": ["haw"], "rating": 0}]
            """
        let books = try Self.importAndExport(
            sandbox, "calibre.json", Data(json.utf8), summary: "Imported 2 books (calibre JSON): 2 added, 0 updated, 0 unchanged.\n")
        #expect(books["Songs"]?["authors"] as? [String] == ["Simon & Garfunkel", "Paul Simon"])
        let ancillary = try #require(books["Ancillary"])
        #expect(ancillary["authors"] as? [String] == ["Ann Leckie", "Someone Else"])
        // Hawaiian has no two-letter code: its three-letter one is the tag. 0 is unrated.
        #expect(ancillary["language"] as? String == "haw" && ancillary["rating"] is NSNull)
        // Without a uuid key, the book's UUID comes from its calibre id: the same again.
        let again = try sandbox.run(["import", try sandbox.file("again.json", json)])
        #expect(again.stdout == "Imported 2 books (calibre JSON): 0 added, 0 updated, 2 unchanged.\n", "\(again)")
    }

    /// Really wrong values refuse their row, named by its number and calibre's key, and
    /// nothing is imported; `--skip-invalid` imports the rest.
    @Test(arguments: [
        ("\"isbn\": \"9780156027602\"", "calibre.json entry 2: isbn", "check digit"),
        ("\"rating\": 11", "calibre.json entry 2: rating", "0 to 10"),
        ("\"rating\": 4.5", "calibre.json entry 2: rating", "0 to 10"),
        ("\"pubdate\": \"2002-13-01T00:00:00+00:00\"", "calibre.json entry 2: pubdate", "ISO 8601"),
        ("\"timestamp\": \"yesterday\"", "calibre.json entry 2: timestamp", "ISO 8601"),
        ("\"languages\": [\"english\"]", "calibre.json entry 2: languages", "ISO 639-2"),
        ("\"tags\": 3", "calibre.json entry 2: tags", "array of strings"),
    ])
    func aBadCalibreValueRefusesItsEntry(member: String, field: String, reason: String) throws {
        let sandbox = try BooksSandbox()
        let json = """
            [{"authors": "Stanisław Lem", "id": 1, "title": "Solaris", "uuid": "3f0c1b6e-8a4d-4f6b-9c2e-5d7a1e0b9c41"},
             {"authors": "Stanisław Lem", "id": 2, "title": "Fiasco", \(member)}]
            """
        let path = try sandbox.file("calibre.json", json)
        let run = try sandbox.run(["import", path])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("(nothing was imported; --skip-invalid imports the other 1 book)"), "\(run)")
        #expect(run.stderr.contains("/\(field) '"), "\(run)")
        #expect(run.stderr.contains(reason), "\(run)")
        #expect(run.stdout.isEmpty)
        #expect(try Self.exportedCount(sandbox) == 0, "nothing was imported, and no sample book was seeded")
        let skipping = try sandbox.run(["import", "--skip-invalid", path])
        #expect(skipping.status == 0, "\(skipping)")
        #expect(skipping.stdout.contains("1 added, 0 updated, 0 unchanged, 1 skipped."), "\(skipping)")
        #expect(try Self.exportedCount(sandbox) == 1)
    }

    @Test func aBadCalibreCSVRowIsNamedByItsRowNumber() throws {
        let sandbox = try BooksSandbox()
        var text = String(decoding: try Self.fixture("calibre_catalog.csv"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"0.5\",\"Middle-earth\"", with: "\"7\",\"Middle-earth\"")
        let run = try sandbox.run(["import", try sandbox.file("calibre.csv", text)])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("/calibre.csv row 5: rating '7': expected a rating from 0 to 5 stars"), "\(run)")
        #expect(try Self.exportedCount(sandbox) == 0, "nothing was imported, and no sample book was seeded")
    }

    // MARK: - LibraryThing

    private static func expectLibraryThingLibrary(_ books: [String: [String: Any]]) throws {
        #expect(books.count == 4)
        let leGuin = try #require(books["The Left Hand of Darkness"])
        // "Last, First" turned round.
        #expect(leGuin["authors"] as? [String] == ["Ursula K. Le Guin"])
        #expect(leGuin["publishDate"] as? String == "1969-01-01" && leGuin["datePrecision"] as? String == "year")
        #expect(leGuin["publisher"] as? String == "Ace" && leGuin["format"] as? String == "Paperback")
        // The ISBN in brackets, as ISBN-13; 4½ stars rounds up to 5.
        #expect(leGuin["isbn"] as? String == "9780441478125" && leGuin["rating"] as? Int == 5)
        #expect(leGuin["pages"] as? Int == 304 && leGuin["language"] as? String == "en")
        #expect(leGuin["dateRead"] as? String == "2021-01-15" && leGuin["status"] as? String == "read")
        #expect(leGuin["dateAdded"] as? String == "2020-12-24T00:00:00Z")
        // Tags, and the collections that are not a status or "Your library".
        #expect(leGuin["tags"] as? [String] == ["classics", "Favorites", "sci-fi"])
        #expect(leGuin["review"] as? String == "A winter planet, and an envoy who learns to trust.\n\nStill the best of the Hainish books.")
        #expect(leGuin["notes"] as? String == "Book club pick")
        #expect(Self.nulls(leGuin) == ["price", "color", "series", "seriesNumber", "readCount"])

        // Secondary authors, "|"-separated; the original language; "Currently reading".
        let solaris = try #require(books["Solaris"])
        #expect(solaris["authors"] as? [String] == ["Stanisław Lem", "Joanna Kilmartin", "Steve Cox"])
        #expect(solaris["language"] as? String == "pl" && solaris["status"] as? String == "reading")
        #expect(solaris["rating"] as? Int == 4 && solaris["notes"] as? String == "Lent to Ana in 2023")
        #expect(solaris["publisher"] as? String == "Mariner Books" && solaris["dateRead"] is NSNull)

        // Blank fields are unknown: no date, no rating, no ISBN; 0 pages is unknown.
        let odyssey = try #require(books["The Odyssey"])
        #expect(odyssey["authors"] as? [String] == ["Homer", "Robert Fagles", "Bernard Knox"])
        #expect(odyssey["publishDate"] is NSNull && odyssey["rating"] is NSNull && odyssey["isbn"] is NSNull)
        #expect(odyssey["pages"] is NSNull && odyssey["status"] as? String == "to-read" && odyssey["tags"] as? [String] == [])
        #expect(odyssey["language"] as? String == "grc" && odyssey["format"] as? String == "Ebook")
        #expect(odyssey["publisher"] as? String == "Penguin Classics")

        let prince = try #require(books["Le Petit Prince"])
        #expect(prince["authors"] as? [String] == ["Antoine de Saint-Exupéry"])
        #expect(prince["publishDate"] as? String == "1999-05-01" && prince["datePrecision"] as? String == "month")
        #expect(prince["publisher"] as? String == "Gallimard" && prince["language"] as? String == "fr")
        #expect(prince["status"] as? String == "read" && prince["review"] as? String == "Relu cet été.\nToujours aussi beau.")
        #expect(prince["isbn"] as? String == "9782070612758" && prince["rating"] as? Int == 5)

        // Each book's UUID is its own (a hash of LibraryThing's Book Id).
        #expect(Set(books.values.compactMap { $0["uuid"] as? String }).count == 4)
    }

    @Test func aLibraryThingTabDelimitedExportImportsEveryField() throws {
        let sandbox = try BooksSandbox()
        let data = try Self.fixture("librarything_export.tsv")
        let books = try Self.importAndExport(
            sandbox, "librarything.tsv", data, summary: "Imported 4 books (LibraryThing TSV): 4 added, 0 updated, 0 unchanged.\n")
        try Self.expectLibraryThingLibrary(books)
        let again = try sandbox.run(["import", try sandbox.file("again.tsv", data)])
        #expect(again.stdout == "Imported 4 books (LibraryThing TSV): 0 added, 0 updated, 4 unchanged.\n", "\(again)")
        // CRLF line breaks and a byte order mark change nothing.
        let windows = Data([0xEF, 0xBB, 0xBF]) + Data(String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let crlf = try sandbox.run(["import", try sandbox.file("windows.tsv", windows)])
        #expect(crlf.stdout == "Imported 4 books (LibraryThing TSV): 0 added, 0 updated, 4 unchanged.\n", "\(crlf)")
        // So does UTF-16 with its byte order mark, as a spreadsheet saves "Unicode Text".
        var utf16 = Data([0xFF, 0xFE])
        for unit in String(decoding: data, as: UTF8.self).utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let unicodeText = try sandbox.run(["import", try sandbox.file("unicode.txt", utf16)])
        #expect(unicodeText.stdout == "Imported 4 books (LibraryThing TSV): 0 added, 0 updated, 4 unchanged.\n", "\(unicodeText)")
    }

    @Test func aLibraryThingCSVExportIsTheSameBooksAsItsTabDelimitedOne() throws {
        let tsv = String(decoding: try Self.fixture("librarything_export.tsv"), as: UTF8.self)
        let csv = tsv.split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
                .joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        let sandbox = try BooksSandbox()
        let books = try Self.importAndExport(
            sandbox, "librarything.csv", Data(csv.utf8), summary: "Imported 4 books (LibraryThing CSV): 4 added, 0 updated, 0 unchanged.\n")
        try Self.expectLibraryThingLibrary(books)
        let again = try sandbox.run(["import", try sandbox.file("librarything.tsv", Data(tsv.utf8))])
        #expect(again.stdout == "Imported 4 books (LibraryThing TSV): 0 added, 0 updated, 4 unchanged.\n", "\(again)")
    }

    /// The CSV LibraryThing exported before its 54-column export: names in capitals and
    /// single quotes, no Book Id, `?` for an unknown date, "Publisher Unknown", entry dates
    /// with a time.
    @Test func anOlderLibraryThingCSVExportIsRecognisedToo() throws {
        let sandbox = try BooksSandbox()
        let data = try Self.fixture("librarything_export_legacy.csv")
        let books = try Self.importAndExport(
            sandbox, "librarything.csv", data, summary: "Imported 2 books (LibraryThing CSV): 2 added, 0 updated, 0 unchanged.\n")
        let leGuin = try #require(books["The Left Hand of Darkness"])
        #expect(leGuin["authors"] as? [String] == ["Ursula K. Le Guin"] && leGuin["rating"] as? Int == 5)
        #expect(leGuin["isbn"] as? String == "9780441478125" && leGuin["publisher"] as? String == "Ace")
        #expect(leGuin["publishDate"] as? String == "1969-01-01" && leGuin["notes"] as? String == "Book club pick")
        #expect(leGuin["dateAdded"] as? String == "2014-01-21T18:49:25Z")
        #expect(leGuin["tags"] as? [String] == ["classics", "RECOMMENDER:Ana", "sci-fi"])
        let hours = try #require(books["Book of Hours"])
        #expect(hours["authors"] as? [String] == ["Anonymous"] && hours["tags"] as? [String] == ["medieval"])
        #expect(hours["publishDate"] is NSNull && hours["publisher"] is NSNull)
        #expect(hours["isbn"] is NSNull && hours["rating"] is NSNull)
        // Without Book Ids the books are found again by their titles and authors.
        let again = try sandbox.run(["import", try sandbox.file("again.csv", data)])
        #expect(again.stdout == "Imported 2 books (LibraryThing CSV): 0 added, 0 updated, 2 unchanged.\n", "\(again)")
        // A bad value is named by the file's own column name.
        let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: ",4.5,", with: ",9,")
        let refused = try sandbox.run(["import", try sandbox.file("bad.csv", bad)])
        #expect(refused.status == 65 && refused.stderr.contains("/bad.csv row 2: 'RATINGS' '9'"), "\(refused)")
    }

    @Test(arguments: [
        ("[0441478123]", "[0441478124]", "librarything.tsv row 2: ISBN", "check digit"),
        ("\t4.5\t", "\t4.25\t", "librarything.tsv row 2: Rating", "half stars"),
        ("\t1969\t", "\t1969/70\t", "librarything.tsv row 2: Date", "'1969/70'"),
        ("\t2021-01-15\t", "\t15/01/2021\t", "librarything.tsv row 2: Date Read", "'15"),
        ("\tEnglish\tEnglish\t", "\tEnglish\tElvish\t", "librarything.tsv row 2: Original Languages", "English name"),
        ("\t304\t", "\t-304\t", "librarything.tsv row 2: Page Count", "pages"),
    ])
    func aBadLibraryThingValueRefusesItsRow(original: String, replacement: String, field: String, reason: String) throws {
        let sandbox = try BooksSandbox()
        let tsv = String(decoding: try Self.fixture("librarything_export.tsv"), as: UTF8.self)
        let bad = tsv.replacingOccurrences(of: original, with: replacement)
        #expect(bad != tsv)
        let path = try sandbox.file("librarything.tsv", bad)
        let run = try sandbox.run(["import", path])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("(nothing was imported; --skip-invalid imports the other 3 books)"), "\(run)")
        #expect(run.stderr.contains("/\(field) '"), "\(run)")
        #expect(run.stderr.contains(reason), "\(run)")
        #expect(try Self.exportedCount(sandbox) == 0, "nothing was imported, and no sample book was seeded")
        let skipping = try sandbox.run(["import", "--skip-invalid", path])
        #expect(skipping.status == 0, "\(skipping)")
        #expect(try Self.exportedCount(sandbox) == 3, "\(skipping)")
    }

    @Test func aLibraryThingRowWithTooFewFieldsIsNamed() throws {
        let sandbox = try BooksSandbox()
        let tsv = String(decoding: try Self.fixture("librarything_export.tsv"), as: UTF8.self)
        let lines = tsv.split(separator: "\n", omittingEmptySubsequences: false)
        let text = (lines.prefix(3) + ["189447599\tCut short\t0\tSomeone, A."] + lines.dropFirst(3)).joined(separator: "\n")
        let run = try sandbox.run(["import", try sandbox.file("librarything.tsv", text)])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("/librarything.tsv row 4 '"), "\(run)")
        #expect(run.stderr.contains("the row has 4 fields but the header has 54"), "\(run)")
        #expect(try Self.exportedCount(sandbox) == 0, "nothing was imported, and no sample book was seeded")
    }
}
