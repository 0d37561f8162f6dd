import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
import PersistenceSQLite
@testable import PersistenceSQLiteStore

/// `Database.createAggregate` and the store's `decimal_sum` / `decimal_avg`, and the
/// promise they serve: `@sum` / `@avg` over Decimals mean the same in SQL and in memory.
@Suite struct DecimalAggregateTests {
    // MARK: - createAggregate

    /// Counts live instances, to prove that no group state outlives its statement.
    final class Tracker: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var live: Int { lock.withLock { count } }
        func change(_ delta: Int) { lock.withLock { count += delta } }
    }

    final class Token {
        let tracker: Tracker
        init(_ tracker: Tracker) {
            self.tracker = tracker
            tracker.change(1)
        }
        deinit { tracker.change(-1) }
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "joiner refuses the text 'stop'" }
    }

    /// Joins texts with '+', refusing 'stop'; holds a token to detect leaks.
    struct Joiner: DatabaseAggregate {
        let token: Token
        var parts: [String] = []
        mutating func step(_ arguments: [SQLiteValue]) throws {
            guard case .text(let text) = arguments[0] else { return }
            if text == "stop" { throw Refusal() }
            parts.append(text)
        }
        func finalize() throws -> SQLiteValue { parts.isEmpty ? .null : .text(parts.joined(separator: "+")) }
    }

    private func joinerDatabase(_ tracker: Tracker) throws -> Database {
        let db = try Database.inMemory()
        try db.createAggregate("joiner", argumentCount: 1) { Joiner(token: Token(tracker)) }
        try db.execute("CREATE TABLE t (g INTEGER, x)")
        try db.execute("INSERT INTO t VALUES (1, 'a'), (1, 'b'), (2, 'c'), (2, NULL), (3, NULL)")
        return db
    }

    @Test func swiftAggregateFoldsEachGroupSeparately() throws {
        let tracker = Tracker()
        do {
            let db = try joinerDatabase(tracker)
            let rows = try db.query("SELECT g, joiner(x) FROM t GROUP BY g ORDER BY g")
            #expect(rows.map { $0[1] } == [.text("a+b"), .text("c"), .null])
            // No rows at all: the aggregate is finalized fresh, without a step.
            #expect(try db.scalar("SELECT joiner(x) FROM t WHERE 0") == .null)
        }
        #expect(tracker.live == 0)
    }

    @Test func aThrowingStepFailsTheStatementWithItsMessageAndLeaksNothing() throws {
        let tracker = Tracker()
        do {
            let db = try joinerDatabase(tracker)
            try db.execute("INSERT INTO t VALUES (1, 'stop')")
            let sql = "SELECT g, joiner(x) FROM t GROUP BY g"
            let error = try #require(throws: SQLiteError.self) { try db.query(sql) }
            #expect(error.message == "joiner refuses the text 'stop'")
            #expect(error.sql == sql)
            // The connection is still usable afterwards.
            #expect(try db.scalar("SELECT joiner(x) FROM t WHERE g = 2") == .text("c"))
        }
        #expect(tracker.live == 0)
    }

    @Test func aStatementStoppedHalfWayReleasesItsGroup() throws {
        let tracker = Tracker()
        do {
            let db = try joinerDatabase(tracker)
            try db.createFunction("boom", argumentCount: 1) { arguments in
                if arguments[0] == .integer(3) { throw Refusal() }
                return .integer(1)
            }
            // joiner has taken four rows when boom stops the statement at the fifth.
            #expect(throws: SQLiteError.self) { try db.query("SELECT joiner(x) FROM t WHERE boom(g)") }
            #expect(tracker.live == 0)
            // A statement reset after its first group runs again from the start.
            let statement = try db.prepare("SELECT g, joiner(x) FROM t GROUP BY g")
            #expect(try statement.step())
            statement.reset()
            #expect(try statement.step())
        }
        #expect(tracker.live == 0)
    }

    // MARK: - decimal_sum / decimal_avg

    private func decimalDatabase(_ values: [SQLiteValue]) throws -> Database {
        let db = try Database.inMemory()
        try DecimalAggregate.register(on: db)
        try db.createCollation("DECIMAL") { DecimalText.compare($0, $1) }
        try db.execute("CREATE TABLE p (price TEXT)")
        for value in values { try db.execute("INSERT INTO p VALUES (?)", [value]) }
        return db
    }

    private func sumAndAverage(_ values: [SQLiteValue]) throws -> (SQLiteValue, SQLiteValue) {
        let db = try decimalDatabase(values)
        let row = try #require(try db.query("SELECT decimal_sum(price), decimal_avg(price) FROM p").first)
        return (row[0], row[1])
    }

    @Test func decimalSumIsExactWhereDoubleIsNot() throws {
        #expect(try sumAndAverage(["0.1", "0.2"]) == (.text("0.3"), .text("0.15")))
        // Through Double this is 0.30000000000000004.
        let db = try decimalDatabase(["0.1", "0.2"])
        #expect(try db.scalar("SELECT total(CAST(price AS REAL)) = 0.3 FROM p") == .integer(0))
        #expect(try db.scalar("SELECT decimal_sum(price) = '0.30' COLLATE DECIMAL FROM p") == .integer(1))
    }

    @Test func decimalSumKeepsThirtyEightDigitsAndSigns() throws {
        let big = "12345678901234567890.123456789012345678"
        #expect(
            try sumAndAverage([.text(big), "0.000000000000000001"]).0
                == .text("12345678901234567890.123456789012345679"))
        #expect(try sumAndAverage(["-1.5", "0.25", nil, "-0.75"]) == (.text("-2"), .text("-0.66666666666666666666666666666666666666")))
        #expect(try sumAndAverage([.integer(3), "0.5", .real(0.25)]) == (.text("3.75"), .text("1.25")))
        // A sum that needs more than 38 digits is rounded to 38, as Decimal rounds.
        let rounded = try sumAndAverage(["1E+30", "1E-30"]).0
        #expect(rounded == .text("1000000000000000000000000000000"))
    }

    @Test func emptyAndAllNullGroupsSumToZeroAndAverageToNull() throws {
        #expect(try sumAndAverage([]) == (.text("0"), .null))
        #expect(try sumAndAverage([nil, nil]) == (.text("0"), .null))
    }

    @Test func aValueThatIsNotADecimalFailsWithItsText() throws {
        let db = try decimalDatabase(["1", "12,5", "2"])
        let error = try #require(throws: SQLiteError.self) { try db.query("SELECT decimal_sum(price) FROM p") }
        #expect(
            error.message
                == "decimal_sum cannot add the value '12,5': '12,5' is not a decimal number: unexpected ',' at position 3")
        let blob = try decimalDatabase([.blob(Data([1, 2]))])
        let blobError = try #require(throws: SQLiteError.self) { try blob.query("SELECT decimal_avg(price) FROM p") }
        #expect(blobError.message == "decimal_avg cannot add the value a 2-byte blob: a blob is not a decimal number")
    }

    @Test func aSumBeyondDecimalsRangeIsAnErrorNotNaN() throws {
        let huge = "99999999999999999999999999999999999999E+127"
        // Two still fit (a 128-bit significand holds 39 digits); four do not.
        let db = try decimalDatabase([.text(huge), .text(huge), .text(huge), .text(huge)])
        let error = try #require(throws: SQLiteError.self) { try db.query("SELECT decimal_sum(price) FROM p") }
        #expect(error.message.hasPrefix("decimal_sum cannot add the value '\(huge)': the sum of decimals overflows"))
        var sum = DecimalSum()
        for _ in 0..<3 { try sum.add(try DecimalText.parse(huge)) }
        let total = sum.total
        #expect(throws: DecimalSumError.self) { try sum.add(try DecimalText.parse(huge)) }
        #expect(sum.count == 3 && sum.total == total)
    }

    // MARK: - SQL and memory agree

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("price", .decimal)
                Relationship("author", to: "Author", inverse: "books")
            }
        }
    }

    /// Authors and their books' prices (nil: a book without a price).
    static let authors: [(String, [String?])] = [
        ("tenths", ["0.1", "0.2"]),
        ("long", ["12345678901234567890.123456789012345678", "0.000000000000000001"]),
        ("negative", ["-1.5", nil, "0.25"]),
        ("thirds", ["1", "0", "0"]),
        ("none", []),
        ("nulls", [nil, nil]),
    ]

    static let cases: [(format: String, expected: [String])] = [
        ("books.@sum.price == 0.3", ["tenths"]),
        ("books.@avg.price == 0.15", ["tenths"]),
        ("books.@sum.price == 12345678901234567890.123456789012345679", ["long"]),
        ("books.@sum.price > 12345678901234567890.123456789012345678", ["long"]),
        ("books.@avg.price == 6172839450617283945.0617283945061728395", ["long"]),
        ("books.@sum.price == -1.25", ["negative"]),
        ("books.@avg.price == -0.625", ["negative"]),
        ("books.@sum.price < 0", ["negative"]),
        ("books.@avg.price == 0.33333333333333333333333333333333333333", ["thirds"]),
        ("books.@sum.price == 0", ["none", "nulls"]),
        ("books.@avg.price == nil", ["none", "nulls"]),
        ("books.@avg.price != nil AND books.@avg.price <= 0.15", ["negative", "tenths"]),
        ("books.@sum.price == 1", ["thirds"]),
        ("books.@sum.price BETWEEN {0.3, 1}", ["tenths", "thirds"]),
    ]

    @Test func sqlAndTheEvaluatorAgreeOnDecimalSumsAndAverages() throws {
        let container = try PersistentContainer(model: Self.model(), storeURL: nil)
        let context = container.viewContext
        for (name, prices) in Self.authors {
            let author = try context.make("Author", name)
            for (index, price) in prices.enumerated() {
                let book = try context.make("Book", "\(name) \(index)")
                if let price { try book.setValue(try DecimalText.parse(price), forKey: "price") }
                book.setObject(author, forKey: "author")
            }
        }
        try context.save()
        let all = try context.fetch(FetchRequest(entityName: "Author"))
        for (format, expected) in Self.cases {
            let predicate = try FetchPredicate(format)
            let sql = names(try context.fetch(FetchRequest(entityName: "Author", predicate: predicate))).sorted()
            let memory = names(try all.filter { try predicate.evaluate(with: $0) }).sorted()
            #expect(sql == expected, "\(format) in SQL")
            #expect(memory == expected, "\(format) in memory")
        }
    }
}
