import Foundation
import PersistenceTestSupport
import Testing

@testable import Persistence
@testable import PersistenceSQLiteStore
import PersistenceRelational

/// `IN` lists of 100,000 values and AND/OR chains of 10,000 terms: SQLite refuses
/// expressions nested more than 1,000 deep, so lists are bound as one value and chains are
/// grouped into balanced trees; the evaluator in memory agrees with SQL on every one.
@Suite struct LongPredicateTests {
    /// `key IN {…}` with `values` spelled as the parser reads them.
    static func list(_ key: String, _ values: some Sequence<String>) -> String {
        "\(key) IN {" + values.joined(separator: ", ") + "}"
    }

    @Test func aHundredThousandIntegersInAnINList() throws {
        let (_, context) = try BookFixture.make()
        let predicate = try FetchPredicate(Self.list("pages", (0..<100_000).map(String.init)))
        let (sql, memory) = try BookFixture.both(context, predicate)
        #expect(sql == memory)
        #expect(sql.count == 11)  // every book with pages
        let none = try FetchPredicate(Self.list("pages", (500..<100_500).map(String.init)))
        #expect(try context.fetch(FetchRequest(entityName: "Book", predicate: none)).isEmpty)
    }

    @Test func decimalsInALongListCompareNumerically() throws {
        let (_, context) = try BookFixture.make()
        // 1.50, 2.50, …: "9.50" and "7.50" must match the stored 9.5, 9.50 and 7.5.
        let predicate = try FetchPredicate(Self.list("price", (0..<100_000).map { "\($0).50" }))
        let (sql, memory) = try BookFixture.both(context, predicate)
        #expect(sql == memory)
        #expect(sql.count == 3, "\(sql)")
        // Integers, Doubles and exponent forms against the Decimal column, padded past the
        // threshold with values that match nothing.
        let padding = (0..<40).map { "0.0\($0 + 1)" }
        let mixed = try FetchPredicate(Self.list("price", ["3", "1.025e1", "%@", "100.000"] + padding), 19.99)
        let (mixedSQL, mixedMemory) = try BookFixture.both(context, mixed)
        #expect(mixedSQL == mixedMemory)
        #expect(mixedSQL.count == 5, "\(mixedSQL)")  // 3, 10.25 twice, 19.99, 100
    }

    @Test func longListsOfEveryKindAgreeWithTheEvaluator() throws {
        let (_, context) = try BookFixture.make()
        let padding = (0..<PredicateSQLCompiler.longListThreshold + 1).map { "pad\($0)" }
        let strings: [Any?] = ["The Hobbit", "zebra", "ÉTÉ", nil] + padding
        let dates: [Any?] = [Date(timeIntervalSince1970: 86_400 * 40), Date(timeIntervalSince1970: 0)]
            + (1...40).map { Date(timeIntervalSince1970: Double($0)) }
        let uuids: [Any?] = [UUID(uuidString: "00001EEF-0000-0000-0000-000000000000")!] + (0..<40).map { _ in UUID() }
        let doubles: [Any?] = [1.5, 2, Double.nan, Double.infinity] + (0..<40).map { Double($0) + 0.25 }
        let cases: [(String, [Any?], Int)] = [
            ("title IN %@", [strings], 3), ("title IN[c] %@", [strings], 5), ("title IN[cd] %@", [strings], 5),
            ("publishDate IN %@", [dates], 2), ("uuid IN %@", [uuids], 1), ("rating IN %@", [doubles], 2),
            ("NOT (title IN %@)", [strings], 9), ("ANY books.title IN %@", [strings], 2),
        ]
        let all = try context.fetch(FetchRequest(entityName: "Author"))
        for (format, arguments, expected) in cases {
            do { try check(format, arguments, expected) } catch { Issue.record("\(format): \(error)") }
        }
        func check(_ format: String, _ arguments: [Any?], _ expected: Int) throws {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            if format.hasPrefix("ANY") {
                let sql = try context.fetch(FetchRequest(entityName: "Author", predicate: predicate)).count
                #expect(sql == (try all.filter { try predicate.evaluate(with: $0) }.count), "\(format)")
                #expect(sql == expected, "\(format)")
                return
            }
            let (sql, memory) = try BookFixture.both(context, predicate)
            #expect(sql == memory, "\(format)")
            #expect(sql.count == expected, "\(format): \(sql)")
        }
    }

    @Test func tenThousandTermAndAndOrChains() throws {
        let (_, context) = try BookFixture.make()
        let or = try FetchPredicate((0..<10_000).map { "pages == \($0)" }.joined(separator: " OR "))
        let (orSQL, orMemory) = try BookFixture.both(context, or)
        #expect(orSQL == orMemory)
        #expect(orSQL.count == 11)
        let and = try FetchPredicate((1..<10_001).map { "pages != \($0)" }.joined(separator: " AND "))
        let (andSQL, andMemory) = try BookFixture.both(context, and)
        #expect(andSQL == andMemory)
        #expect(andSQL.count == 2)  // pages 0, and the book without pages
        // Built in code, flattened into one chain.
        var built = FetchPredicate(expression: .falsePredicate)
        for i in 0..<2_000 { built = built || FetchPredicate(expression: .comparison(.init(.keyPath(["pages"]), .equalTo, .constant(.integer(Int64(i)))))) }
        #expect(try context.fetch(FetchRequest(entityName: "Book", predicate: built)).count == 11)
    }

    @Test func chainsAreBalancedTrees() {
        let parts = (0..<100_000).map { _ in "x" }
        let sql = SQLChain.joined(parts, by: "OR")
        var depth = 0, deepest = 0
        for character in sql.utf8 {
            if character == UInt8(ascii: "(") { depth += 1; deepest = max(deepest, depth) }
            if character == UInt8(ascii: ")") { depth -= 1 }
        }
        #expect(deepest <= 20)
        #expect(sql.utf8.count(where: { $0 == UInt8(ascii: "x") }) == 100_000)
    }
}
