import Foundation
import Testing
@testable import BookCatalog
import Persistence

/// The fields version 2 of the model added, as a user types them and as the seed file
/// gives them.
@Suite struct BookDetailsInputTests {
    @Test(arguments: [
        ("0-306-40615-2", "9780306406157"),
        ("978-0-306-40615-7", "9780306406157"),
        ("080442957X", "9780804429573"),
        ("0 8044 2957 x", "9780804429573"),
        ("979-10-90636-07-1", "9791090636071"),
    ])
    func isbnsAreStoredAsISBN13(text: String, stored: String) throws {
        #expect(try BookInput.isbn(text) == stored)
    }

    @Test(arguments: ["0-306-40615-3", "978-0-306-40615-8", "977-0-306-40615-7", "12345", "97803064061５7", "abcdefghij"])
    func badISBNsAreRefusedNamingTheField(text: String) {
        #expect(throws: CatalogInputError.self) { try BookInput.isbn(text) }
        do { _ = try BookInput.isbn(text) } catch { #expect("\(error)".contains("isbn")) }
    }

    @Test func languageTagsTakeTheirConventionalCase() throws {
        #expect(try BookInput.language("ES") == "es")
        #expect(try BookInput.language("pt-br") == "pt-BR")
        #expect(try BookInput.language("zh-hant-tw") == "zh-Hant-TW")
        #expect(throws: CatalogInputError.self) { try BookInput.language("e") }
        #expect(throws: CatalogInputError.self) { try BookInput.language("es_ES") }
        #expect(throws: CatalogInputError.self) { try BookInput.language("es-") }
    }

    @Test func ratingsStatusesAndNotes() throws {
        #expect(try BookInput.rating("0") == 0 && BookInput.rating("5") == 5)
        for bad in ["6", "-1", "", "4.5", "٣"] {
            #expect(throws: CatalogInputError.self) { try BookInput.rating(bad) }
        }
        #expect(try BookInput.status("to-read") == .toRead)
        #expect(throws: CatalogInputError.self) { try BookInput.status("done") }
        #expect(try BookInput.notes("  ") == nil)
        #expect(try BookInput.notes(" Two\nlines ") == "Two\nlines")
        #expect(throws: CatalogInputError.self) { try BookInput.notes("bell\u{7}") }
    }

    @Test func theSeedFileGivesLanguagesAndDatePrecisions() throws {
        let books = try Catalog.bundledSeedBooks()
        #expect(books.allSatisfy { $0.language != nil })
        #expect(books.filter { $0.datePrecision == .year }.count == 387)
        #expect(books.filter { $0.datePrecision == .month }.count == 22)
        let solaris = try #require(books.first { $0.title == "Solaris" })
        #expect(solaris.language == "pl" && solaris.datePrecision == .year)
    }

    @Test func aDateIsShownAsFarAsItIsKnown() throws {
        let formatter = CatalogFormatter(environment: UserEnvironment(environment: ["LANG": "en_US.UTF-8", "TZ": "America/New_York"]))
        let date = try #require(ISO8601DateFormatter().date(from: "1925-04-01T00:00:00Z"))
        #expect(formatter.day(date, precision: .day) == "Apr 1, 1925")
        #expect(formatter.day(date, precision: .month) == "April 1925")
        #expect(formatter.day(date, precision: .year) == "1925")
    }

    @Test func seededBooksKeepLanguagePrecisionAndTheDayTheyWereAdded() throws {
        let catalog = try Catalog(storeURL: nil)
        let before = Date()
        try catalog.seed(Array(try Catalog.bundledSeedBooks().prefix(20)))
        var request = FetchRequest(entityName: "Book")
        request.predicate = try FetchPredicate("title == %@", "Il Principe")
        let book = try #require(try catalog.context.fetch(request).first as? Book)
        #expect(book.language == "it" && book.datePrecision == "year")
        #expect(try #require(book.dateAdded) >= before.addingTimeInterval(-1))
    }
}
