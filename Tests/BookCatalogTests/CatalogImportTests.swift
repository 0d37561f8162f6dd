import Foundation
import Testing
@testable import BookCatalog
import Persistence

/// `ImportFile` and `Catalog.importBooks`: files read whole and checked, then saved at
/// once, books found by UUID or ISBN updated rather than added again.
@Suite struct CatalogImportTests {
    private static let header = "uuid,title,author,publishDate,isbn,rating,tags\n"

    private static func file(_ text: String, name: String = "books.csv") throws -> ImportFile {
        try ImportFile(data: Data(text.utf8), name: name)
    }

    private static func refusal(_ text: String) -> String? {
        do {
            _ = try file(text)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func aCSVRowBecomesABookWithEveryFieldChecked() throws {
        let file = try Self.file(Self.header + ",Solaris,Stanisław Lem,1961,0-15-602760-7,4,\"sci-fi, Favorites\"\n")
        #expect(file.format == .csv)
        let record = try #require(file.entries.first?.record)
        #expect(record.uuid == nil && record.title == "Solaris" && record.author == "Stanisław Lem")
        #expect(record.datePrecision == .year && record.text(of: .publishDate) == "1961-01-01")
        #expect(record.isbn == "9780156027601" && record.rating == 4)
        #expect(record.tags == ["Favorites", "sci-fi"])
        #expect(!record.provided.contains(.price) && record.provided.contains(.tags))
    }

    @Test(arguments: [
        (",Solaris,Lem,1961,9780156027602,,\n", "Invalid books.csv row 2: isbn '9780156027602': the ISBN-13's check digit is wrong"),
        (",Solaris,Lem,1961,,9,\n", "Invalid books.csv row 2: rating '9': expected a whole number from 0 to 5"),
        (",Solaris,Lem,1961,9780156027601,,\n,Solaris 2,Lem,1962,0156027607,,\n",
         "Invalid books.csv row 3: isbn '9780156027601': books.csv row 2 has the same ISBN"),
        (",Solaris,Lem,1961\n", "Invalid books.csv row 2 '"),
        (",,Lem,1961,,,\n", "Invalid books.csv row 2: title '': a title can't be empty"),
    ])
    func aBadRowIsRefusedNamingItsRowAndField(rows: String, message: String) {
        let refusal = Self.refusal(Self.header + rows)
        #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "accepted")")
        #expect(refusal?.contains("nothing was imported") == true, "\(refusal ?? "accepted")")
    }

    @Test func anUnknownHeaderIsRefusedNamingIt() {
        let refusal = Self.refusal("title,author,publishDate,shelf\nSolaris,Lem,1961,x\n")
        #expect(refusal?.hasPrefix("Invalid books.csv row 1, column 4 'shelf': no such field") == true, "\(refusal ?? "")")
    }

    @Test func jsonTakesTheSeedFormatAndVersionTwosFields() throws {
        let file = try Self.file(
            """
            [{"uuid": "A9EF420F-038E-4072-AE51-5CF9E8D16E6A", "title": "Solaris", "author": "Stanisław Lem",
              "publishDate": "1961-01-01", "datePrecision": "year", "price": "12.50", "color": null,
              "rating": 5, "status": "read", "tags": ["sci-fi"], "notes": "Ocean\\nagain", "publishMonthID": "1961001"}]
            """, name: "books.json")
        #expect(file.format == .json)
        let record = try #require(file.entries.first?.record)
        #expect(record.rating == 5 && record.status == .read && record.tags == ["sci-fi"] && record.notes == "Ocean\nagain")
        #expect(record.color == nil && record.provided.contains(.color))
        #expect(Self.refusal("[{\"title\": \"T\", \"author\": \"A\", \"publishDate\": \"2020\", \"ratng\": 3}]")?
            .hasPrefix("Invalid books.csv entry 1: ratng '3': no such field") == true)
    }

    @Test func anEmptyFileOrAJSONObjectIsRefused() {
        #expect(Self.refusal(" \n")?.hasPrefix("Invalid import file 'books.csv': it is empty") == true)
        #expect(Self.refusal("{\"title\": \"T\"}")?
            .hasPrefix("Invalid import file 'books.csv': it is not valid JSON (line 1, column 1: expected a JSON array)") == true)
    }

    @Test func aBookIsUpdatedByUUIDElseByISBNAndNeverAddedTwice() throws {
        let catalog = try Catalog(storeURL: nil)
        let first = try catalog.importBooks(try Self.file(
            Self.header + "A9EF420F-038E-4072-AE51-5CF9E8D16E6A,Solaris,Stanisław Lem,1961,9780156027601,3,sci-fi\n"
                + ",Fiasko,Stanisław Lem,1986,,,\n"))
        #expect(first.added == 2 && first.updated == 0 && first.unchanged == 0)
        // By ISBN: a row without a UUID (or with one the catalogue lacks) updates the book.
        let second = try catalog.importBooks(try Self.file(
            Self.header + ",Solaris (2nd ed.),Stanisław Lem,1961,0156027607,5,SciFi\n"
                + "00000000-0000-4000-8000-000000000001,Eden,Stanisław Lem,1959,,,\n"))
        #expect(second.added == 1 && second.updated == 1 && second.unchanged == 0 && second.conflicts.isEmpty)
        #expect(try catalog.bookCount() == 3)
        let uuid = try #require(UUID(uuidString: "A9EF420F-038E-4072-AE51-5CF9E8D16E6A"))
        let solaris = try #require(try catalog.existingBook(uuid: uuid))
        #expect(solaris.title == "Solaris (2nd ed.)" && solaris.rating == 5)
        // The file's tags merge with the book's (issue #48): a tag is never taken off, so
        // "sci-fi", which this file no longer gives, stays beside the new "SciFi".
        #expect(Set(solaris.tags.map(\.name)) == ["SciFi", "sci-fi"])
        #expect(try catalog.context.count(for: FetchRequest(entityName: "Tag")) == 2)
        // By UUID, with the tag named in another case: the same book and tag, unchanged.
        let third = try catalog.importBooks(try Self.file(
            Self.header + "A9EF420F-038E-4072-AE51-5CF9E8D16E6A,Solaris (2nd ed.),Stanisław Lem,1961,9780156027601,5,scifi\n"))
        #expect(third.added == 0 && third.updated == 0 && third.unchanged == 1)
    }

    @Test func anISBNAnotherBookHasIsRefusedAndNothingIsSaved() throws {
        let catalog = try Catalog(storeURL: nil)
        try catalog.importBooks(try Self.file(Self.header + ",Solaris,Lem,1961,9780156027601,,\n,Fiasko,Lem,1986,,,\n"))
        let fiasko = try #require(try catalog.books(matching: try FetchPredicate("title == %@", "Fiasko")).first)
        let file = try Self.file(Self.header + "\(fiasko.uuid.uuidString),Fiasko,Lem,1987,9780156027601,,\n,Eden,Lem,1959,,,\n")
        #expect(throws: CatalogInputError.self) { try catalog.importBooks(file) }
        #expect(try catalog.bookCount() == 2)
        #expect(fiasko.isbn == nil)
    }

    @Test func twoEntriesThatFindTheSameBookAreRefused() throws {
        let catalog = try Catalog(storeURL: nil)
        try catalog.importBooks(try Self.file(Self.header + "A9EF420F-038E-4072-AE51-5CF9E8D16E6A,Solaris,Lem,1961,9780156027601,,\n"))
        // Row 2 by its UUID, row 3 by its ISBN: the file says two things about one book.
        let file = try Self.file(Self.header + "A9EF420F-038E-4072-AE51-5CF9E8D16E6A,Solaris,Lem,1961,,4,\n,Solaris,Lem,1962,0156027607,,\n")
        #expect {
            try catalog.importBooks(file)
        } throws: { error in
            String(describing: error).hasPrefix(
                "Invalid books.csv row 3 'Solaris': books.csv row 2 is the same book (A9EF420F-038E-4072-AE51-5CF9E8D16E6A)")
        }
        #expect(try catalog.bookCount() == 1)
    }

    @Test func goodreadsBookIDsGiveTheSameSpreadUUIDEveryTime() {
        let one = GoodreadsCSV.uuid(forBookID: 11)
        #expect(one == GoodreadsCSV.uuid(forBookID: 11))
        #expect(one != GoodreadsCSV.uuid(forBookID: 12))
        #expect(one.uuidString.dropFirst(14).first == "8")
        #expect(ShortIDs.digits(of: one).prefix(8) != ShortIDs.digits(of: GoodreadsCSV.uuid(forBookID: 12)).prefix(8))
        #expect(GoodreadsCSV.formulaText("=\"0156027607\"") == "0156027607")
        #expect(GoodreadsCSV.formulaText("=\"\"") == "")
        #expect(GoodreadsCSV.formulaText("0156027607") == "0156027607")
    }
}

extension CatalogImportTests {
    /// Goodreads keeps a review as HTML: read as text, its markup and entities gone, its
    /// line breaks kept; a review without markup is kept as it is.
    @Test func aGoodreadsReviewIsReadAsText() {
        #expect(GoodreadsCSV.reviewText("<i>Dune</i> &amp; more<br/>Next line") == "Dune & more\nNext line")
        #expect(GoodreadsCSV.reviewText("Plain, with 1 < 2 and a\nline") == "Plain, with 1 < 2 and a\nline")
    }

    /// A Goodreads title's series: the first of several, a range without a number, other
    /// parentheses kept in the title.
    @Test(arguments: [
        ("The Fellowship of the Ring (The Lord of the Rings, #1)", "The Fellowship of the Ring", "The Lord of the Rings", "1"),
        ("Guards! Guards! (Discworld, #8; City Watch, #1)", "Guards! Guards!", "Discworld", "8"),
        ("The Hobbit (Middle-earth Universe, #0.5)", "The Hobbit", "Middle-earth Universe", "0.5"),
        ("Harry Potter Boxed Set (Harry Potter, #1-7)", "Harry Potter Boxed Set", "Harry Potter", nil),
        ("Dune (40th Anniversary Edition)", "Dune (40th Anniversary Edition)", nil, nil),
        ("(#1)", "(#1)", nil, nil),
    ] as [(String, String, String?, String?)])
    func aGoodreadsTitleGivesItsSeries(text: String, title: String, series: String?, number: String?) {
        let parsed = SeriesInTitle(text)
        #expect(parsed.title == title && parsed.series == series && parsed.number == number, "\(parsed)")
    }
}
