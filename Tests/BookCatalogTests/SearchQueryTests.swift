import Foundation
import Persistence
import Testing

@testable import BookCatalog

/// The search syntax: how a query is read into terms, what is refused and where, and what
/// reaches the store (a predicate of typed constants, ranked words as search text).
@Suite struct SearchQueryTests {
    private func terms(_ text: String) throws -> [[SearchQuery.Term]] { try SearchQuery(text).groups }
    private func term(_ condition: SearchQuery.Condition, excluded: Bool = false) -> SearchQuery.Term {
        SearchQuery.Term(condition: condition, isExcluded: excluded)
    }
    private func error(_ text: String) -> SearchQueryError? {
        do {
            _ = try SearchQuery(text)
            return nil
        } catch { return error }
    }

    @Test func plainWordsStayPlainAndAreSearchedAsTyped() throws {
        let query = try SearchQuery("marquez  cien")
        #expect(query.isPlainWords)
        #expect(query.groups == [[term(.word("marquez"))], [term(.word("cien"))]])
        #expect(query.searchText == "marquez  cien")
        #expect(query.predicate == nil)
    }

    @Test func fieldsPhrasesExclusionsAndOrAreRead() throws {
        #expect(
            try terms("solaris author:Lem title:\"cien años\" TAG:scifi isbn:978-0-306 year:1961")
                == [
                    [term(.word("solaris"))], [term(.author("Lem"))], [term(.title("cien años"))],
                    [term(.tag("scifi"))], [term(.isbnPrefix("9780306"))], [term(.year(1961))],
                ])
        #expect(try terms("-lem -author:calvino -\"a b\"") == [
            [term(.word("lem"), excluded: true)], [term(.author("calvino"), excluded: true)],
            [term(.phrase("a b"), excluded: true)],
        ])
        #expect(try terms("a OR b c OR -d OR e") == [
            [term(.word("a")), term(.word("b"))],
            [term(.word("c")), term(.word("d"), excluded: true), term(.word("e"))],
        ])
        // A whole ISBN-10 is looked for as the ISBN-13 it names, as ISBNs are stored.
        #expect(try terms("isbn:0-306-40615-2") == [[term(.isbnPrefix("9780306406157"))]])
    }

    /// A term shaped like a field that names none is an error naming the fields, never a
    /// word that silently matches nothing; quoted, it is the text.
    @Test(arguments: ["stauts:read", "note:x", "authors:lem", "Rating:5x"])
    func anUnknownFieldIsAnErrorNamingTheFields(text: String) throws {
        let error = #expect(throws: SearchQueryError.self) { try SearchQuery(text) }
        if text != "Rating:5x" {
            #expect(error?.reason.hasPrefix("unknown field '") == true, "\(String(describing: error))")
            #expect(error?.reason.contains("author, title, tag, isbn, year, series, publisher, status, rating, language, added") == true)
            #expect(error?.position == 0)
        }
        _ = try SearchQuery("\"\(text)\"")
    }

    @Test func statusRatingLanguageAndAddedTermsBecomePredicates() throws {
        #expect(try terms("status:read rating:>=4 language:PT-br added:2024-03") == [
            [term(.status(.read))], [term(.rating(.atLeast, 4))], [term(.language("pt-BR"))],
            [term(.added(
                from: try DateText.parseTypedDate("2024-03", timeZone: Catalog.calendarTimeZone).start,
                before: try DateText.parseTypedDate("2024-04", timeZone: Catalog.calendarTimeZone).start))],
        ])
        let query = try SearchQuery("rating:<3 language:pt")
        #expect(query.predicate?.description == #"rating < 3 AND (language == "pt" OR language BEGINSWITH "pt-")"#, "\(String(describing: query.predicate))")
        for bad in ["status:done", "rating:6", "rating:>=x", "language:12", "added:yesterday"] {
            #expect(throws: SearchQueryError.self, "\(bad)") { try SearchQuery(bad) }
        }
    }

    @Test(arguments: [
        "-", "--x", "a-b", "rock'n'roll", "a\"b", "{title}:", "x:y", "1984:x", "or", "Or", "ORx", "%", "_", "a\\b",
        "'; DROP TABLE Book; --", "' OR 1=1", "NEAR(a b, 2)", "x:", ":",
    ])
    func punctuationOutsideTheSyntaxIsAWord(text: String) throws {
        for group in try terms(text) {
            #expect(group.count == 1 || text.contains(" OR "), "\(text)")
        }
        let words = try terms(text).flatMap { $0 }.filter { if case .word = $0.condition { true } else { false } }
        #expect(!words.isEmpty, "\(text)")
    }

    @Test(arguments: [
        ("title:\"cien años", 6, "the quote is not closed"),
        ("\"", 0, "the quote is not closed"),
        ("a \"b c", 2, "the quote is not closed"),
        ("author:", 7, "expected a value after 'author:'"),
        ("author: lem", 7, "expected a value after 'author:'"),
        ("year:abc", 5, "expected a year such as year:1961"),
        ("year:0", 5, "expected a year such as year:1961"),
        ("year:12345", 5, "expected a year such as year:1961"),
        ("isbn:97x", 5, "expected the digits an ISBN starts with, such as isbn:978-0-306"),
        ("isbn:12345678901234", 5, "expected the digits an ISBN starts with, such as isbn:978-0-306"),
        ("OR lem", 0, "'OR' needs a term before it"),
        ("lem OR", 4, "'OR' needs a term after it"),
        ("lem OR OR calvino", 7, "'OR' needs a term before it"),
        ("\"\"", 0, "expected text between the quotes"),
        ("\"a\"b", 3, "expected a space after the closing quote"),
        ("tag:\"\u{AD}\"", 4, "expected text between the quotes"),
    ])
    func aMalformedQueryIsRefusedNamingThePosition(text: String, position: Int, reason: String) {
        let error = error(text)
        #expect(error?.position == position, "\(text)")
        #expect(error?.reason == reason, "\(text)")
        #expect(error?.description.contains("at position \(position): \(reason)") == true)
        #expect(error?.description.contains("\n") == false)
    }

    @Test func hostileTextIsQuotedOnOneShortLine() throws {
        let control = error("a \"\u{0}\n\u{1B}[2J")
        #expect(control?.description == "Unable to parse search \"a \"\\u{0}\\n\\u{1B}[2J\" at position 2: the quote is not closed")
        let long = String(repeating: "x", count: 100_000) + " year:x"
        let error = error(long)
        #expect(error?.position == 100_006)
        #expect((error?.description.count ?? .max) < 200)
        // NUL, backslashes and SQL are text: compared, never spliced into anything.
        let query = try SearchQuery("title:\"\u{0}\\\" author:%_ -\"' OR 1=1 --\"")
        #expect(query.groups.count == 3)
    }

    @Test func aQueryHasAtMost256TermsBesidesPlainWords() throws {
        _ = try SearchQuery(Array(repeating: "-a", count: 256).joined(separator: " ") + " b c")
        _ = try SearchQuery(Array(repeating: "a", count: 1_000).joined(separator: " "))
        let tooMany = error("b " + Array(repeating: "a OR -a", count: 129).joined(separator: " "))
        #expect(tooMany?.position == 2 + 128 * 8)
        #expect(tooMany?.reason == "a search has at most 256 terms besides plain words")
    }

    @Test func termsBecomeAPredicateOfFoldedConstantsAndRankedText() throws {
        let query = try SearchQuery("solaris author:Łem -\"Cień\" year:1961 isbn:978")
        #expect(query.searchText == "solaris Łem")
        let predicate = try #require(query.predicate)
        #expect(
            predicate.description
                == #"canonicalByline CONTAINS "lem" AND NOT (canonicalTitle CONTAINS "cien" OR canonicalByline CONTAINS "cien") AND publishDate >= CAST(-1262304000.0, "NSDate") AND publishDate < CAST(-1230768000.0, "NSDate") AND isbn BEGINSWITH "978""#,
            "\(predicate)")
        let either = try SearchQuery("lem OR tag:Sci-Fi")
        #expect(either.searchText == nil)
        #expect(
            either.predicate?.description
                == #"canonicalTitle CONTAINS "lem" OR canonicalByline CONTAINS "lem" OR ANY tags.canonicalName == "sci-fi""#)
    }

    // MARK: - Against the sample books

    private func titles(_ catalog: Catalog, _ query: String) throws -> [String] {
        try catalog.search(query).map(\.title)
    }

    @Test func eachFieldFindsWhatItNames() throws {
        let catalog = try Catalog(storeURL: nil)
        try catalog.seedSampleBooksIfNew()
        // Lem himself first (a whole word), then Willem Frederik Hermans and Mateo Alemán.
        #expect(
            try titles(catalog, "author:lem")
                == ["Cyberiada", "Solaris", "De donkere kamer van Damokles", "Guzmán de Alfarache"])
        #expect(try titles(catalog, "lem").contains("De donkere kamer van Damokles"))
        #expect(try titles(catalog, "title:\"CIEN AÑOS\"") == ["Cien años de soledad"])
        #expect(try titles(catalog, "\"anos de\"") == ["Cien años de soledad"])
        #expect(try titles(catalog, "\"de anos\"").isEmpty)
        #expect(try titles(catalog, "author:lem -solaris -hermans -aleman") == ["Cyberiada"])
        #expect(try titles(catalog, "author:lem year:1961") == ["Solaris"])
        #expect(try titles(catalog, "solaris OR cyberiada") == ["Cyberiada", "Solaris"])
        #expect(try titles(catalog, "author:lem year:1965 OR year:1961") == ["Cyberiada", "Solaris"])

        let solaris = try catalog.book(withID: BookIDPrefix("A9EF420F")!)
        try catalog.edit(solaris, with: try BookEdit(isbn: "0-306-40615-2").checked())
        let tag = try catalog.context.insert(Tag.self)
        tag.name = "Science Fiction"
        tag.addToBooks(solaris)
        try catalog.context.save()
        #expect(try titles(catalog, "isbn:978-0306") == ["Solaris"])
        #expect(try titles(catalog, "isbn:0306406152") == ["Solaris"])
        #expect(try titles(catalog, "isbn:979").isEmpty)
        #expect(try titles(catalog, "tag:\"science fiction\"") == ["Solaris"])
        #expect(try titles(catalog, "tag:science").isEmpty)
        #expect(try catalog.search("-tag:\"Science Fiction\"").count == 458)
    }

    @Test func plainWordsRankAsTheyAlwaysDid() throws {
        let catalog = try Catalog(storeURL: nil)
        try catalog.seedSampleBooksIfNew()
        for text in ["lem", "marquez cien", "ring", "de la"] {
            var request = FetchRequest(entityName: "Book", sortDescriptors: Catalog.searchOrder)
            request.searchText = text
            request.searchKeyPaths = Catalog.searchKeyPaths
            let expected = try catalog.context.fetch(request).compactMap { ($0 as? Book)?.title }
            #expect(try titles(catalog, text) == expected, "\(text)")
        }
        // Field values rank too: Lem himself before Willem Frederik Hermans.
        let lem = try titles(catalog, "lem year:1958 OR year:1961")
        #expect(lem.first == "Solaris")
    }
}
