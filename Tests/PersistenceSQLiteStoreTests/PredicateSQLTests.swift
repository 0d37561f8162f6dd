import Foundation
import PersistenceTestSupport
import Testing

import Persistence

@Suite struct PredicateSQLTests {
    /// Format → expected number of matching books (of 12).
    static var table: [(String, [Any?], Int)] { [
        ("title == %@", ["The Hobbit"], 1), ("title == nil", [], 1), ("title != nil", [], 11),
        ("title != %@", ["The Hobbit"], 11), ("NOT (title == %@)", ["The Hobbit"], 11),
        ("title < %@", ["The"], 2), ("title >= %@", ["a"], 7), ("title > %@", ["Z"], 8),
        ("title BEGINSWITH %@", ["Th"], 1), ("title BEGINSWITH[c] %@", ["th"], 1),
        ("title BEGINSWITH %@", ["th"], 0), ("title CONTAINS %@", ["o"], 4), ("title CONTAINS %@", [""], 11),
        ("title CONTAINS[c] %@", ["É"], 3), ("title CONTAINS[d] %@", ["ete"], 1), ("title CONTAINS[d] %@", ["ET"], 1),
        ("title CONTAINS[cd] %@", ["ete"], 2), ("title CONTAINS[cd] %@", ["lodz"], 1), ("title CONTAINS[cd] %@", ["ANOS"], 1),
        ("title CONTAINS[cd] %@", ["orsted"], 1), ("title CONTAINS[cd] %@", ["slovanske"], 1),
        ("title ENDSWITH %@", ["tance"], 1), ("title ENDSWITH %@", [""], 11), ("title ENDSWITH[c] %@", ["TANCE"], 1),
        ("title ENDSWITH %@", ["a very long suffix longer than titles"], 0),
        ("title LIKE %@", ["*o*"], 4), ("title LIKE %@", ["a_b%c"], 1), ("title LIKE %@", ["a?b%c"], 1),
        ("title LIKE %@", ["a_b*"], 1), ("title LIKE %@", ["star\\*wars\\?"], 1), ("title LIKE %@", ["star?wars*"], 1),
        ("title LIKE[c] %@", ["the*"], 1), ("title LIKE[cd] %@", ["*ods*"], 0), ("title LIKE %@", ["?"], 0),
        ("title LIKE %@", ["*"], 11), ("title MATCHES %@", ["The.*"], 1), ("title MATCHES %@", ["T|The Hobbit"], 1),
        ("title MATCHES[c] %@", ["the hobbit"], 1), ("title MATCHES %@", [".*[0-9].*"], 0),
        ("title IN %@", [["The Hobbit", "Zebra", "nope"]], 2), ("title IN %@", [[String]()], 0),
        ("title IN %@", ["Zebra and apple"], 2), ("title IN[c] %@", ["ZEBRA"], 1),
        ("price == 9.5", [], 2), ("price == %@", [Decimal(string: "10.25")!], 2), ("price < 10", [], 5),
        ("price > 9.5", [], 5), ("price >= 9.5", [], 7), ("price == nil", [], 2), ("price != nil", [], 10),
        ("price BETWEEN {9, 11}", [], 4), ("NOT (price < 10)", [], 7), ("price <= %@", [9.5], 5),
        ("price > %d", [10], 5), ("price IN {3, 100}", [], 2),
        ("pages > 100", [], 8), ("pages == 0", [], 1), ("pages < 100", [], 3), ("pages == nil", [], 1),
        ("NOT (pages < 100)", [], 9), ("pages BETWEEN {50, 300}", [], 6), ("pages > 99.5", [], 8), ("pages != 37", [], 11),
        ("rating > 2", [], 5), ("rating < 2", [], 4), ("rating != 3.5", [], 12), ("rating == nil", [], 1),
        ("NOT (rating > 2)", [], 7), ("rating >= 0", [], 10), ("rating == %@", [Double.nan], 0),
        ("rating != %@", [Double.nan], 12),
        ("available == YES", [], 8), ("available == NO", [], 4), ("available == 1", [], 8), ("available != TRUE", [], 4),
        ("publishDate > %@", [Date(timeIntervalSince1970: 86_400 * 200)], 6),
        ("publishDate == %@", [Date(timeIntervalSince1970: 86_400 * 40)], 1), ("publishDate == nil", [], 1),
        ("publishDate <= %@", [Date(timeIntervalSince1970: 0)], 1),
        ("uuid == %@", [UUID(uuidString: "00001EEF-0000-0000-0000-000000000000")!], 1),
        ("uuid > %@", [UUID(uuidString: "00004000-0000-0000-0000-000000000000")!], 9),
        ("author.name == %@", ["J. R. R. Tolkien"], 5), ("author.name BEGINSWITH[cd] %@", ["gabriel garcia"], 6),
        ("author == nil", [], 1), ("author != nil", [], 11), ("author.name != %@", ["J. R. R. Tolkien"], 7),
        ("TRUEPREDICATE", [], 12), ("FALSEPREDICATE", [], 0),
        ("pages > 100 AND price < 20", [], 6), ("pages > 100 OR price == nil", [], 8),
        ("NOT (pages > 100 OR title == nil)", [], 4), ("(title == nil) OR (rating > 4 AND available == NO)", [], 2),
        ("%@ < price", [10], 5), ("5 >= pages", [], 1),
    ] }

    static var authorTable: [(String, Int)] { [
        ("ANY books.pages > 300", 2), ("ALL books.pages > 100", 1), ("NONE books.pages > 300", 1),
        ("books.@count == 0", 1), ("books.@count > 5", 1), ("books.@count == 5", 1), ("books.@sum.pages > 1000", 1), ("books.@max.price > 50", 1), ("books.@min.price < 1", 1),
        ("books.@avg.pages > 184", 2), ("ANY books.title CONTAINS[cd] 'hobbit'", 1),
        ("ALL books.title != nil", 2), ("ANY books.price == nil", 1), ("books.@max.price == nil", 1),
    ] }

    @Test func sqlMatchesTableAndEvaluator() throws {
        let (_, context) = try BookFixture.make()
        #expect(Self.table.count >= 80)
        for (format, arguments, expected) in Self.table {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let (sql, memory) = try BookFixture.both(context, predicate)
            #expect(sql == memory, "\(format)")
            #expect(sql.count == expected, "\(format): \(sql)")
        }
    }

    @Test func toManyPredicatesMatchEvaluator() throws {
        let (_, context) = try BookFixture.make()
        let all = try context.fetch(FetchRequest(entityName: "Author"))
        for (format, expected) in Self.authorTable {
            let predicate = try FetchPredicate(format)
            let sql = try context.fetch(FetchRequest(entityName: "Author", predicate: predicate)).map { $0["name"] as? String ?? "" }.sorted()
            let memory = try all.filter { try predicate.evaluate(with: $0) }.map { $0["name"] as? String ?? "" }.sorted()
            #expect(sql == memory, "\(format)")
            #expect(sql.count == expected, "\(format): \(sql)")
        }
    }

    @Test func randomPredicatesAgreeWithEvaluator() throws {
        let (_, context) = try BookFixture.make()
        var generator = SplitMix64(seed: 0x5EED)
        let leaves: [(String, [Any?])] = [
            ("title CONTAINS[cd] %@", ["e"]), ("title BEGINSWITH %@", ["T"]), ("title < %@", ["M"]),
            ("title == nil", []), ("title LIKE[c] %@", ["*a*"]), ("price > %@", [Decimal(10)]),
            ("price == nil", []), ("price <= 9.5", []), ("pages > %d", [150]), ("pages == nil", []),
            ("rating < %@", [2.5]), ("rating == nil", []), ("available == YES", []),
            ("publishDate > %@", [Date(timeIntervalSince1970: 86_400 * 150)]), ("publishDate == nil", []),
            ("author.name CONTAINS %@", ["Tolkien"]), ("author == nil", []), ("price BETWEEN {5, 15}", []),
            ("pages IN {0, 37, 74, 999}", []), ("title ENDSWITH[d] %@", ["e"]),
        ]
        func random(_ depth: Int, _ arguments: inout [Any?]) -> String {
            let choice = depth > 2 ? 0 : Int.random(in: 0..<4, using: &generator)
            switch choice {
            case 1: return "(\(random(depth + 1, &arguments)) AND \(random(depth + 1, &arguments)))"
            case 2: return "(\(random(depth + 1, &arguments)) OR \(random(depth + 1, &arguments)))"
            case 3: return "NOT (\(random(depth + 1, &arguments)))"
            default:
                let leaf = leaves[Int.random(in: 0..<leaves.count, using: &generator)]
                arguments += leaf.1
                return leaf.0
            }
        }
        for _ in 0..<500 {
            var arguments: [Any?] = []
            let format = random(0, &arguments)
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let (sql, memory) = try BookFixture.both(context, predicate)
            #expect(sql == memory, "\(format)")
        }
    }

    @Test func transientUnknownAndMismatchedKeysAreRefused() throws {
        let (_, context) = try BookFixture.make()
        let cases: [(FetchPredicate, String)] = [
            (try FetchPredicate("monthID == %@", "2024-01"), "monthID is transient: it is not stored"),
            (try FetchPredicate("subtitle == %@", "x"), "Book has no property named 'subtitle'"),
            (try FetchPredicate("author.age > 3"), "Author has no property named 'age'"),
            // Text compares with a date when it is one (`"2020"` is the year); this is not.
            (try FetchPredicate("publishDate > %@", "soon"), "publishDate > \"soon\": 'soon' is not a date"),
            (try FetchPredicate("publishDate > %@", 2020), "cannot compare publishDate (a date) with"),
            (try FetchPredicate("title > 3"), "title (a string)"),
            (try FetchPredicate("pages CONTAINS %@", "3"), "pages (an integer)"),
            (try FetchPredicate("author.name == $NAME"), "variable $NAME has no value"),
            (try FetchPredicate("books.@count > 1"), "Book has no property named 'books'"),
            (try FetchPredicate("author.books.pages > 1"), "is a collection"),
            (try FetchPredicate("title MATCHES %@", "a)|(b"), "not a valid regular expression"),
        ]
        for (predicate, message) in cases {
            let error = #expect(throws: FetchError.self) {
                try context.fetch(FetchRequest(entityName: "Book", predicate: predicate))
            }
            #expect(error?.description.contains(message) == true, "\(error.map { "\($0)" } ?? "no error")")
        }
    }

    @Test func injectionAttemptIsBoundNotSpliced() throws {
        let (_, context) = try BookFixture.make()
        let predicate = try FetchPredicate("title == %@", "'); DROP TABLE Book; --")
        #expect(try context.fetch(FetchRequest(entityName: "Book", predicate: predicate)).isEmpty)
        #expect(try context.count(for: FetchRequest(entityName: "Book")) == 12)
    }

    @Test func compiledConditionBindsEveryLiteral() throws {
        let (container, _) = try BookFixture.make()
        _ = container
        let schema = StoreSchema(model: container.model)
        var compiler = PredicateSQLCompiler(fetch: try FetchCompiler(schema: schema, entityName: "Book"))
        let predicate = try FetchPredicate("title CONTAINS[cd] %@ AND price > 9.5", "x'y")
        let sql = try compiler.condition(for: predicate.expression)
        #expect(!sql.contains("x'y"))
        #expect(sql.contains("canonical("))
        #expect(sql.contains("COLLATE DECIMAL"))
        #expect(compiler.arguments.count == 2)
    }
}
