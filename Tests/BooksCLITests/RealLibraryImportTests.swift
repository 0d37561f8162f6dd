import Foundation
import ProcessTestSupport
import Testing

/// A reader's real library, as Goodreads exports it, imported into a new catalogue through
/// the built `books`: every column the catalogue has a field for survives the import and
/// comes back out of `books export`, blank optional cells are values nobody knows, and a
/// file with bad rows names every one of them.
@Suite struct RealLibraryImportTests {
    /// `Tests/Fixtures/exports/goodreads_library_export.csv`: ten books written as Goodreads
    /// writes its export (see the README beside it).
    private static var goodreadsExport: URL {
        BuiltProduct.repositoryRoot.appendingPathComponent("Tests/Fixtures/exports/goodreads_library_export.csv")
    }

    private static func imported() throws -> (BooksSandbox, [String: [String: Any]]) {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["import", Self.goodreadsExport.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "Imported 10 books (Goodreads CSV): 10 added, 0 updated, 0 unchanged.\n", "\(run)")
        let exported = try sandbox.run(["export", "--format", "json"])
        #expect(exported.status == 0, "\(exported)")
        let books = try exported.jsonObjects()
        return (sandbox, Dictionary(uniqueKeysWithValues: books.map { ($0["title"] as? String ?? "", $0) }))
    }

    @Test func aGoodreadsExportImportsCompletelyIntoANewCatalogue() throws {
        let (sandbox, books) = try Self.imported()
        #expect(books.count == 10)
        // The series comes out of the title; every column Goodreads has a field for is kept.
        let fellowship = try #require(books["The Fellowship of the Ring"])
        #expect(fellowship["series"] as? String == "The Lord of the Rings" && fellowship["seriesNumber"] as? String == "1")
        #expect(fellowship["authors"] as? [String] == ["J.R.R. Tolkien"])
        #expect(fellowship["publishDate"] as? String == "1954-01-01" && fellowship["datePrecision"] as? String == "year")
        #expect(fellowship["publisher"] as? String == "Houghton Mifflin Harcourt")
        #expect(fellowship["format"] as? String == "Paperback" && fellowship["pages"] as? Int == 398)
        #expect(fellowship["dateRead"] as? String == "2023-08-14" && fellowship["readCount"] as? Int == 2)
        #expect(fellowship["rating"] as? Int == 5 && fellowship["status"] as? String == "read")
        #expect(fellowship["review"] as? String == "The road goes ever on.\n\nSecond paragraph, with a comma.")
        #expect(fellowship["notes"] as? String == "Gift from Ana")
        #expect(fellowship["tags"] as? [String] == ["fantasy", "favorites"])
        #expect(fellowship["isbn"] as? String == "9780618346257" && fellowship["price"] is NSNull)

        // A to-read Kindle edition with no years at all: imported, its date unknown.
        let zevin = try #require(books["Tomorrow, and Tomorrow, and Tomorrow"])
        #expect(zevin["publishDate"] is NSNull && zevin["datePrecision"] is NSNull, "\(zevin)")
        #expect(zevin["status"] as? String == "to-read" && zevin["rating"] is NSNull && zevin["pages"] is NSNull)
        #expect(zevin["format"] as? String == "Kindle Edition" && zevin["isbn"] is NSNull)

        // Additional authors follow the author; the author named again among them is kept once.
        #expect(books["Good Omens: The Nice and Accurate Prophecies of Agnes Nutter, Witch"]?["authors"] as? [String]
            == ["Terry Pratchett", "Neil Gaiman"])
        #expect(books["1984"]?["authors"] as? [String] == ["George Orwell", "Erich Fromm"])
        #expect(books["1984"]?["review"] as? String == "Big Brother.\nStill.")
        // Of two series, the first; a range of numbers gives the series alone.
        let colour = try #require(books["The Colour of Magic"])
        #expect(colour["series"] as? String == "Discworld" && colour["seriesNumber"] as? String == "1")
        let potter = try #require(books["Harry Potter Boxed Set"])
        #expect(potter["series"] as? String == "Harry Potter" && potter["seriesNumber"] is NSNull)
        #expect(books["The Martian"]?["status"] as? String == "reading")

        // Shown as people read it, and listed by series.
        let list = try sandbox.run(["list", "--sort", "series", "--fields", "title,series,authors"])
        #expect(list.status == 0, "\(list)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Children of Time · Children of Time #1 · Adrian Tchaikovsky", "\(list)")
        #expect(lines.contains("Good Omens: The Nice and Accurate Prophecies of Agnes Nutter, Witch · — · Terry Pratchett & Neil Gaiman"))
        #expect(lines.last == "Tomorrow, and Tomorrow, and Tomorrow · — · Gabrielle Zevin", "\(list)")
        let search = try sandbox.run(["search", "series:discworld"])
        #expect(search.stdout.contains("The Colour of Magic — Terry Pratchett"), "\(search)")
        #expect(try sandbox.run(["search", "gaiman"]).stdout.contains("Good Omens"))
        // Books of unknown date are listed last, under their own heading.
        let months = try sandbox.run(["list", "--by-month"])
        #expect(months.stdout.hasSuffix("Date unknown (1)\n  " + (months.stdout.split(separator: "\n").last.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? "") + "\n"), "\(months)")
        #expect(months.stdout.contains("Tomorrow, and Tomorrow, and Tomorrow — Gabrielle Zevin · — · —"), "\(months)")
    }

    @Test func theImportedLibraryExportsAndImportsBackExactly() throws {
        let (source, _) = try Self.imported()
        for format in ["json", "csv"] {
            let first = try source.run(["export", "--format", format])
            let target = try BooksSandbox()
            let path = try target.file("library.\(format)", first.stdoutData)
            let imported = try target.run(["import", path])
            #expect(imported.status == 0, "\(imported)")
            let second = try target.run(["export", "--format", format])
            #expect(second.stdoutData == first.stdoutData, "\(format)")
        }
        // The same export again changes nothing: Goodreads' IDs find the same books.
        let again = try source.run(["import", Self.goodreadsExport.path])
        #expect(again.stdout == "Imported 10 books (Goodreads CSV): 0 added, 0 updated, 10 unchanged.\n", "\(again)")
    }

    /// Bad rows: all named, one a line, and nothing imported; with `--skip-invalid` the
    /// others are, and each skipped row is reported.
    @Test func everyBadRowIsNamedAndSkipInvalidImportsTheRest() throws {
        let header = "title,authors,publishDate,isbn,rating\n"
        var rows = ["Fine,A. Author,2001,,"]
        for index in 1...23 { rows.append("Bad \(index),A. Author,2001,9780156027602,") }
        rows.append("Nine stars,A. Author,2001,,9")
        rows.append("Bad date,A. Author,2001-13,,")
        rows.append("Blank is fine,A. Author,,,")
        let sandbox = try BooksSandbox()
        let path = try sandbox.file("books.csv", header + rows.joined(separator: "\n") + "\n")
        let refused = try sandbox.run(["import", path])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stdout.isEmpty)
        let lines = refused.stderrLines
        #expect(lines.first == "Error: Cannot import \(path): 25 of its 27 books are invalid, and nothing was imported "
            + "(--skip-invalid imports the other 2):", "\(refused)")
        #expect(lines.count == 1 + 20 + 1, "\(refused)")
        #expect(lines[1] == "  Invalid \(path) row 3: isbn '9780156027602': the ISBN-13's check digit is wrong")
        #expect(lines.last == "  and 5 more")
        #expect(try sandbox.run(["list"]).stderr == "The catalogue has no books.\n")

        let skipped = try sandbox.run(["import", "--skip-invalid", path])
        #expect(skipped.status == 0, "\(skipped)")
        let report = skipped.stdout.split(separator: "\n").map(String.init)
        #expect(report.first == "Imported 2 books (CSV): 2 added, 0 updated, 0 unchanged, 25 skipped.", "\(skipped)")
        #expect(report.count == 26)
        #expect(report.contains("Skipped Invalid \(path) row 26: rating '9': expected a whole number from 0 to 5"))
        #expect(report.contains("Skipped Invalid \(path) row 27: publishDate '2001-13': '2001-13-01' is not a valid day: there is no month 13"), "\(skipped)")
        #expect(try sandbox.bookCount() == 2)
    }
}
