import Foundation
import Testing
import Persistence

// MARK: - Fixture: a small book graph

final class PredicateFixtureAuthor: PredicateEvaluable, @unchecked Sendable {
    let name: String
    let born: Date?
    var books: [PredicateFixtureBook] = []

    init(name: String, born: Date?) {
        self.name = name
        self.born = born
    }

    func predicateValue(forKey key: String) throws -> PredicateValue {
        switch key {
        case "name": .string(name)
        case "born": born.map { .date($0) } ?? .null
        case "books": .collection(books.map { .object($0) })
        default: throw FetchPredicateError.unknownKey(key, on: "Author")
        }
    }
}

final class PredicateFixtureBook: PredicateEvaluable, @unchecked Sendable {
    var title = ""
    var subtitle: String?
    var price: Decimal?
    var publishDate: Date?
    var pages: Int?
    var rating: Double?
    var isRead = false
    var author: PredicateFixtureAuthor?
    var id = UUID()
    var link: URL?
    var cover: Data?
    var tags: [String] = []

    func predicateValue(forKey key: String) throws -> PredicateValue {
        switch key {
        case "title": .string(title)
        case "subtitle": subtitle.map { .string($0) } ?? .null
        case "price": price.map { .decimal($0) } ?? .null
        case "publishDate": publishDate.map { .date($0) } ?? .null
        case "pages": pages.map { .integer(Int64($0)) } ?? .null
        case "rating": rating.map { .double($0) } ?? .null
        case "isRead": .bool(isRead)
        case "author": author.map { .object($0) } ?? .null
        case "id": .uuid(id)
        case "link": link.map { .url($0) } ?? .null
        case "cover": cover.map { .data($0) } ?? .null
        case "tags": .collection(tags.map { .string($0) })
        default: throw FetchPredicateError.unknownKey(key, on: "Book")
        }
    }
}

/// The fixture: three authors and four books, looked up by name.
enum PredicateFixture {
    static func day(_ iso: String) -> Date {
        ISO8601DateFormatter().date(from: iso + "T00:00:00Z") ?? Date(timeIntervalSince1970: 0)
    }

    static let cienID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    static let objects: [String: any PredicateEvaluable & Sendable] = {
        let gabo = PredicateFixtureAuthor(name: "Gabriel García Márquez", born: day("1927-03-06"))
        let tolkien = PredicateFixtureAuthor(name: "J. R. R. Tolkien", born: day("1892-01-03"))
        let nobody = PredicateFixtureAuthor(name: "Nobody", born: nil)
        let cien = PredicateFixtureBook()
        cien.title = "Cien años de soledad"
        cien.price = Decimal(string: "19.99")
        cien.publishDate = PredicateFixture.day("1967-05-30")
        cien.pages = 417
        cien.rating = 4.5
        cien.isRead = true
        cien.author = gabo
        cien.id = cienID
        cien.tags = ["novel", "classic"]
        let amor = PredicateFixtureBook()
        amor.title = "El amor en los tiempos del cólera"
        amor.price = Decimal(string: "15.50")
        amor.publishDate = PredicateFixture.day("1985-01-01")
        amor.pages = 368
        amor.rating = 4.0
        amor.author = gabo
        amor.tags = ["novel"]
        let hobbit = PredicateFixtureBook()
        hobbit.title = "The Hobbit"
        hobbit.subtitle = "There and Back Again"
        hobbit.price = 10
        hobbit.publishDate = PredicateFixture.day("1937-09-21")
        hobbit.pages = 310
        hobbit.isRead = true
        hobbit.author = tolkien
        hobbit.link = URL(string: "https://example.com/hobbit")
        hobbit.cover = Data([1, 2, 3])
        let lodz = PredicateFixtureBook()
        lodz.title = "Łódź Stories"
        gabo.books = [cien, amor]
        tolkien.books = [hobbit]
        return [
            "cien": cien, "amor": amor, "hobbit": hobbit, "lodz": lodz,
            "gabo": gabo, "tolkien": tolkien, "nobody": nobody,
        ]
    }()
}

/// One evaluation case: a format and arguments, the fixture object's name, the answer.
struct PredicateEvaluationCase: CustomTestStringConvertible, @unchecked Sendable {
    let object: String
    let format: String
    let arguments: [Any?]
    let expected: Bool
    init(_ object: String, _ format: String, _ arguments: Any?..., is expected: Bool) {
        self.object = object
        self.format = format
        self.arguments = arguments
        self.expected = expected
    }
    var testDescription: String { "\(object): \(format)" }
}

private let evaluationCases: [PredicateEvaluationCase] = [
    // Strings and the [c]/[d]/[cd] modifiers.
    .init("cien", "title == \"Cien años de soledad\"", is: true),
    .init("cien", "title == \"cien años de soledad\"", is: false),
    .init("cien", "title ==[c] \"cien AÑOS de soledad\"", is: true),
    .init("cien", "title ==[d] \"Cien anos de soledad\"", is: true),
    .init("cien", "title ==[cd] \"CIEN ANOS DE SOLEDAD\"", is: true),
    .init("cien", "title CONTAINS[cd] \"anos\"", is: true),
    .init("cien", "title CONTAINS \"anos\"", is: false),
    .init("cien", "title CONTAINS[c] \"anos\"", is: false),
    .init("cien", "title CONTAINS[d] \"Anos\"", is: false),
    .init("cien", "title != \"Dune\"", is: true),
    .init("cien", "title BEGINSWITH \"Cien\" AND title BEGINSWITH[c] \"cIEN\"", is: true),
    .init("cien", "title ENDSWITH \"soledad\"", is: true),
    .init("cien", "title ENDSWITH \"Soledad\"", is: false),
    .init(
        "cien", "title LIKE \"Cien*\" AND title LIKE \"*años*\" AND title LIKE \"C?en*\"", is: true),
    .init("cien", "title LIKE \"Cien\"", is: false),
    .init("cien", "title LIKE[cd] \"*ANOS*\"", is: true),
    .init("cien", "title LIKE[cd] \"CIEN * DE *\" AND title LIKE[cd] \"* AÑOS  DE*\"", is: true),
    .init("cien", "title LIKE[cd] \"*AÑOSDE*\"", is: false),
    .init("lodz", "title BEGINSWITH[cd] \"lodz\" AND title ==[cd] \"LODZ STORIES\"", is: true),
    .init("cien", "\"a*b\" LIKE \"a\\\\*b\" AND NOT \"axb\" LIKE \"a\\\\*b\"", is: true),
    .init("cien", "title MATCHES \"Cien.*\"", is: true),
    .init("cien", "title MATCHES \"Cien\"", is: false),
    .init("cien", "title MATCHES \"(Cien|Cien años) de soledad\"", is: true),
    .init("cien", "title MATCHES[c] \"cien.*SOLEDAD\"", is: true),
    .init("cien", "title MATCHES[cd] \"cien anos.*\"", is: true),
    .init("hobbit", "title IN {\"The Hobbit\", \"Dune\"}", is: true),
    .init("hobbit", "title IN %@", ["Dune"], is: false),
    .init("hobbit", "\"Hob\" IN title", is: true),
    .init("hobbit", "title IN[c] {\"the hobbit\"}", is: true),
    .init("cien", "title < \"D\" AND title > \"Cien\" AND title <[c] \"d\"", is: true),
    .init("cien", "\"É\" > \"Z\" AND \"é\" != \"e\\u0301\"", is: true),
    .init("lodz", "title CONTAINS[cd] \"ODZ\"", is: true),
    .init("hobbit", "subtitle LIKE[c] \"there*again\"", is: true),
    .init("cien", "subtitle LIKE \"*\"", is: false),
    // Numbers: decimal, integer, double, boolean.
    .init("cien", "price == 19.99", is: true),
    .init("cien", "price == %@", Decimal(string: "19.99"), is: true),
    .init("cien", "price == %@", 19.99, is: true),
    .init("cien", "price == %@", Decimal(string: "19.990000000000000001"), is: false),
    .init("cien", "price > 19.98 AND price < 20 AND price >= 19.99", is: true),
    .init("cien", "price <= 19.989", is: false),
    .init("cien", "price BETWEEN {19, 20}", is: true),
    .init("cien", "price BETWEEN {19.995, 30}", is: false),
    .init("hobbit", "price == 10 AND price == 10.0 AND price == %f", 10.0, is: true),
    .init("cien", "pages > 400 AND pages == 417.0 AND pages == %f", 417.0, is: true),
    .init("cien", "pages IN {368, 417}", is: true),
    .init("hobbit", "pages BETWEEN %@", [300, 400], is: true),
    .init("cien", "rating > 4.25 AND rating == %@", 4.5, is: true),
    .init("cien", "rating < %@ OR rating == %@", Double.nan, Double.nan, is: false),
    .init("cien", "rating != %@", Double.nan, is: true),
    .init("cien", "isRead == YES AND isRead == 1 AND isRead > 0", is: true),
    .init("amor", "isRead == NO", is: true),
    // nil, as Core Data's in-memory NSPredicate.
    .init("lodz", "price == nil", is: true),
    .init("lodz", "price != nil", is: false),
    .init("lodz", "price < 5 OR price > 5 OR price <= 5 OR price >= 5", is: false),
    .init("lodz", "price != 5", is: true),
    .init("lodz", "NOT price < 5", is: true),
    .init("lodz", "price BETWEEN {0, 100}", is: false),
    .init("lodz", "price IN {nil, 1}", is: true),
    .init("lodz", "price IN {1, 2}", is: false),
    // Dates.
    .init("cien", "publishDate < %@", PredicateFixture.day("1970-01-01"), is: true),
    .init("cien", "publishDate > %@", PredicateFixture.day("1970-01-01"), is: false),
    .init("cien", "publishDate == %@", PredicateFixture.day("1967-05-30"), is: true),
    .init(
        "cien", "publishDate BETWEEN %@",
        [PredicateFixture.day("1960-01-01"), PredicateFixture.day("1970-01-01")], is: true),
    .init("lodz", "publishDate < %@", PredicateFixture.day("2100-01-01"), is: false),
    // To-one key paths.
    .init("cien", "author.name == \"Gabriel García Márquez\"", is: true),
    .init("cien", "author.name CONTAINS[cd] \"marquez\"", is: true),
    .init(
        "cien", "author.born < %@ AND author != nil", PredicateFixture.day("1930-01-01"), is: true),
    .init("lodz", "author == nil AND author.name == nil", is: true),
    .init("lodz", "author.name != \"Nobody\"", is: true),
    // To-many: collection operators, quantifiers, membership.
    .init("gabo", "books.@count == 2", is: true),
    .init("nobody", "books.@count == 0", is: true),
    .init("gabo", "books.@sum.price == 35.49", is: true),
    .init("gabo", "books.@sum.pages == 785", is: true),
    .init("gabo", "books.@avg.price == 17.745", is: true),
    .init("gabo", "books.@avg.pages == 392.5", is: true),
    .init(
        "gabo", "books.@min.price == 15.5 AND books.@max.publishDate == %@",
        PredicateFixture.day("1985-01-01"),
        is: true),
    .init(
        "nobody", "books.@sum.price == 0 AND books.@avg.price == nil AND books.@max.price == nil",
        is: true),
    .init("gabo", "ANY books.title BEGINSWITH \"El\"", is: true),
    .init("tolkien", "ANY books.title BEGINSWITH \"El\"", is: false),
    .init("gabo", "ALL books.price > 15", is: true),
    .init("gabo", "ALL books.price > 16", is: false),
    .init("nobody", "ALL books.price > 1000", is: true),
    .init("gabo", "NONE books.isRead == YES", is: false),
    .init("nobody", "NONE books.isRead == YES", is: true),
    .init("gabo", "SOME books.pages > 400", is: true),
    .init("gabo", "books.title CONTAINS \"Cien años de soledad\"", is: true),
    .init("gabo", "books.title CONTAINS \"Cien\"", is: false),
    .init(
        "cien", "author.books.@count == 2 AND ANY author.books.title ENDSWITH \"cólera\"",
        is: true),
    .init("lodz", "author.books.@count == 0", is: true),
    .init("lodz", "ANY author.books.title == \"x\"", is: false),
    .init("lodz", "ALL author.books.title == \"x\"", is: true),
    .init("cien", "tags CONTAINS \"classic\" AND \"novel\" IN tags", is: true),
    .init("cien", "ANY tags ==[c] \"NOVEL\"", is: true),
    .init("gabo", "ANY books.author.name == \"Gabriel García Márquez\"", is: true),
    // SELF, compounds, other types.
    .init("cien", "SELF == SELF AND SELF.title == \"Cien años de soledad\"", is: true),
    .init("cien", "price < 20 AND author.name BEGINSWITH \"G\"", is: true),
    .init("cien", "price > 20 OR pages > 400", is: true),
    .init("cien", "NOT (price > 20 OR pages > 400)", is: false),
    .init("cien", "TRUEPREDICATE", is: true),
    .init("cien", "FALSEPREDICATE OR FALSEPREDICATE", is: false),
    .init("cien", "id == %@", PredicateFixture.cienID, is: true),
    .init("hobbit", "id == %@", PredicateFixture.cienID, is: false),
    .init("hobbit", "link == %@", URL(string: "https://example.com/hobbit"), is: true),
    .init(
        "hobbit", "cover == %@ AND cover < %@ AND cover > %@", Data([1, 2, 3]), Data([1, 2, 4]),
        Data([1, 2]), is: true),
    .init("cien", "{1, 2} == {1, 2} AND {1, 2} != {2, 1}", is: true),
]

@Suite struct PredicateEvaluatorTests {
    @Test(arguments: evaluationCases)
    func evaluatesAgainstTheFixture(_ testCase: PredicateEvaluationCase) throws {
        let predicate = try FetchPredicate(
            format: testCase.format, argumentArray: testCase.arguments)
        let object = try #require(PredicateFixture.objects[testCase.object])
        #expect(try predicate.evaluate(with: object) == testCase.expected)
        // The normalized description means the same thing.
        #expect(
            try FetchPredicate(predicate.description).evaluate(with: object) == testCase.expected)
    }

    @Test func tableHasAtLeastSixtyCases() {
        #expect(evaluationCases.count >= 60)
    }

    @Test func substitutedTemplatesEvaluate() throws {
        let template = try FetchPredicate("title CONTAINS[cd] $Q AND price BETWEEN $RANGE")
        let cien = try #require(PredicateFixture.objects["cien"])
        let filled = try template.substituting(["Q": "ANOS", "RANGE": [Decimal(19), Decimal(20)]])
        #expect(try filled.evaluate(with: cien))
        #expect(try !template.substituting(["Q": "x", "RANGE": [1, 2]]).evaluate(with: cien))
    }

    @Test func oneEvaluatorFiltersManyObjects() throws {
        let evaluator = PredicateEvaluator(
            try FetchPredicate("title MATCHES[c] %@", ".*(hobbit|años).*"))
        let names = ["cien", "amor", "hobbit", "lodz"]
        let matching = try names.filter { try evaluator.evaluate(PredicateFixture.objects[$0]!) }
        #expect(matching == ["cien", "hobbit"])
    }

    @Test func builtPredicatesEvaluateLikeParsedOnes() throws {
        let cien = try #require(PredicateFixture.objects["cien"])
        let built: FetchPredicate =
            .key("price") < Decimal(20) && .key("title").contains("anos", .cd)
            && !(.key("author") == nil)
        #expect(try built.evaluate(with: cien))
    }

    // MARK: Errors

    @Test(arguments: [
        (
            "cien", "publishDate < 5", FetchPredicateError.Kind.typeMismatch,
            "Unable to evaluate predicate \"publishDate < 5\": cannot compare publishDate (a date) "
                + "with 5 (an integer) using '<'; a date compares only with a date"
        ),
        (
            "cien", "title == 5", .typeMismatch,
            "Unable to evaluate predicate \"title == 5\": cannot compare title (a string) with 5 "
                + "(an integer) using '=='"
        ),
        (
            "gabo", "books.title == \"x\"", .typeMismatch,
            "Unable to evaluate predicate \"books.title == \"x\"\": books.title is a collection: "
                + "use ANY, ALL or NONE to compare its elements, or @count for its size"
        ),
        (
            "cien", "title == $T", .unboundVariable,
            "Unable to evaluate predicate \"title == $T\": variable $T has no value; call "
                + "substituting(_:) first"
        ),
        (
            "cien", "title MATCHES \"(\"", .invalidValue,
            "Unable to evaluate predicate \"title MATCHES \"(\"\": MATCHES pattern \"(\" is not "
                + "a valid regular expression"
        ),
        (
            "cien", "nope == 1", .unknownKey,
            "Unable to evaluate predicate \"nope == 1\": Book has no key 'nope'"
        ),
        (
            "cien", "ANY title == \"x\"", .typeMismatch,
            "Unable to evaluate predicate \"ANY title == \"x\"\": ANY needs a to-many key path, "
                + "but title is a string"
        ),
        (
            "cien", "title.length == 3", .typeMismatch,
            "Unable to evaluate predicate \"title.length == 3\": cannot read key 'length' of "
                + "title, which is a string"
        ),
        (
            "gabo", "books.@sum.title == 0", .typeMismatch,
            "Unable to evaluate predicate \"books.@sum.title == 0\": @sum needs numbers, but "
                + "books.@sum.title has a string"
        ),
        (
            "cien", "ANY author.books.publishDate > 3", .typeMismatch,
            "Unable to evaluate predicate \"ANY author.books.publishDate > 3\": cannot compare an "
                + "element of author.books.publishDate (a date) with 3 (an integer) using '>'; a "
                + "date compares only with a date"
        ),
    ])
    func evaluationErrorsNameKeysAndTypes(
        object: String, format: String, kind: FetchPredicateError.Kind, message: String
    ) throws {
        let predicate = try FetchPredicate(format)
        let target = try #require(PredicateFixture.objects[object])
        do {
            _ = try predicate.evaluate(with: target)
            Issue.record("expected \(format) to throw")
        } catch let error as FetchPredicateError {
            #expect(error.kind == kind)
            #expect(error.description == message)
        }
    }
}
