#if PostgreSQL
import Foundation
import Persistence
import PersistenceModel
import PersistencePostgreSQLStore
import PersistenceStore
import Testing

/// The PostgreSQL store answers predicates, sorts, windows and counts on the server, with
/// the same answers as memory: each predicate here is compiled (the statement says the
/// server answers the whole request), and its rows are those `PredicateEvaluator` picks
/// from every object, in `SortValueOrder`'s order. Hostile values reach the server only as
/// parameters.
@Suite(.enabled(if: PostgreSQLTestServer.conninfo != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLFetchCompilerTests {
    /// Samples with every attribute type, nils, NaN, large integers, escaped and non-ASCII
    /// text, and owners (some without a name, one sample without an owner).
    static func seed(_ context: ManagedObjectContext) throws {
        let names: [String?] = ["Łódź", "anna", nil, "Zoë"]
        var owners: [ManagedObject] = []
        for (i, name) in names.enumerated() {
            let owner = try context.insertObject(forEntityName: "Author")
            owner["n"] = Int64(i)
            owner["name"] = name
            owners.append(owner)
        }
        let texts: [String?] = [
            "apple", "Apple", "ÄPFEL", nil, "", "a\u{0}b", "\u{1}984", "1984", "\u{0}42", "50% off", "under_score", "back\\slash",
            "it's", "$1; DROP TABLE \"Sample\"; --", "Straße", "zebra", "a\nb",
        ]
        let doubles: [Double?] = [1.5, .nan, nil, -0.0, 0.1, 2.5, .infinity, -.infinity, 9_007_199_254_740_993, 3]
        let decimals: [Decimal?] = [Decimal(string: "0.1"), Decimal(string: "2.50"), nil, Decimal(string: "-7"), Decimal(string: "12345678901234567890.123")]
        let integers: [Int64?] = [2, 3, nil, -1, Int64.max, 9_007_199_254_740_993, 0]
        for n in 0..<40 {
            let sample = try context.insertObject(forEntityName: "Sample")
            sample["n"] = Int64(n)
            sample["str"] = texts[n % texts.count]
            sample["dbl"] = doubles[n % doubles.count]
            sample["dec"] = decimals[n % decimals.count]
            sample["i64"] = integers[n % integers.count]
            sample["i16"] = Int64(n % 5)
            sample["flag"] = n % 3 == 2 ? nil : (n % 2 == 0)
            sample["when"] = n % 6 == 5 ? nil : Date(timeIntervalSince1970: 1_577_836_800 + Double(n) * 86_400 * 9)
            sample["id"] = n % 4 == 3 ? nil : UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", (n * 7919) % 97))
            sample["bytes"] = n % 5 == 4 ? nil : Data([UInt8(n % 3), UInt8(n % 7)])
            sample["link"] = n % 4 == 1 ? nil : URL(string: "https://example.com/\(n % 9)")
            sample.setObject(n % 5 == 4 ? nil : owners[n % owners.count], forKey: "owner")
        }
        try context.save()
    }

    /// Compiled predicates, each with its arguments.
    static func compiled() -> [(String, [Any?])] { [
        ("n < 10", []), ("10 > n", []), ("i64 == %@", [Int64.max]), ("i64 > 2.5", []), ("i64 < 2.5", []),
        ("i64 == 3.0", []), ("i64 != 2.5", []), ("i64 >= 1e19", []), ("i64 > %@", [Double(Int64.max)]), ("i64 < %@", [Decimal(string: "2.5")!]),
        ("dbl > 1", []), ("dbl == nil", []), ("dbl >= %@", [-Double.infinity]), ("dbl == %@", [Double.nan]), ("dbl != %@", [Double.nan]), ("NOT (dbl < 2)", []),
        ("dbl == %@", [Int64(9_007_199_254_740_992)]), ("dbl <= %@", [Decimal(string: "0.1")!]), ("dbl > %@", [Decimal(string: "0.1")!]),
        ("dec == 2.5", []), ("dec > 0.1", []), ("dec < %@", [Double.infinity]), ("dec >= %@", [Decimal(string: "0.10")!]),
        ("dec BETWEEN {0, 3}", []), ("dec != nil", []), ("dec == nil", []), ("NOT (dec > 1)", []),
        ("flag == YES", []), ("flag == 0", []), ("flag != YES", []), ("flag == nil", []),
        ("when > %@", [Date(timeIntervalSince1970: 1_590_000_000)]), ("when < \"2020-06\"", []),
        ("when BETWEEN {\"2020\", \"2020-12-31\"}", []),
        ("id == %@", [UUID(uuidString: "0000001D-0000-4000-8000-000000000000")!]), ("id > %@", [UUID(uuidString: "00000030-0000-4000-8000-000000000000")!]),
        ("bytes == %@", [Data([1, 1])]), ("bytes < %@", [Data([1])]),
        ("link == %@", [URL(string: "https://example.com/3")!]), ("link > %@", [URL(string: "https://example.com/5")!]),
        ("str == \"apple\"", []), ("str < \"b\"", []), ("str >= \"Z\"", []), ("str == nil", []),
        ("str != \"apple\"", []), ("NOT (str BEGINSWITH \"a\")", []), ("str CONTAINS \"1\"", []), ("str CONTAINS \"19\"", []), ("str CONTAINS \"1984\"", []), ("str CONTAINS \"042\"", []),
        ("str ENDSWITH \"042\"", []), ("str LIKE \"?42\"", []),
        ("str CONTAINS %@", ["\u{0}"]), ("str CONTAINS %@", ["\u{1}"]), ("str ENDSWITH \"84\"", []), ("str ENDSWITH \"\"", []),
        ("str BEGINSWITH %@", ["\u{1}"]), ("str LIKE \"a?b\"", []), ("str LIKE \"*e\"", []), 
        ("str LIKE \"?1984\"", []), ("str LIKE \"*%*\"", []), ("str LIKE \"*_*\"", []), ("str LIKE \"*\\\\*\"", []),
        ("str CONTAINS \"%\"", []), ("str CONTAINS \"_\"", []), ("str CONTAINS \"\\\\\"", []), ("str CONTAINS \"'\"", []),
        ("str CONTAINS \"$1\"", []), ("str CONTAINS \";\"", []), ("owner.name CONTAINS[cd] \"O\"", []),
        ("owner.name LIKE[cd] \"*DZ\"", []), ("owner.name BEGINSWITH[cd] \"zo\"", []), ("owner.name <[cd] \"b\"", []),
        ("str IN {\"apple\", nil, \"zebra\"}", []), ("n IN {}", []), ("str ==[cd] nil", []), ("str CONTAINS nil", []),
        ("owner.name == \"anna\"", []), ("owner.name ==[cd] \"lodz\"", []), ("owner.name == nil", []), ("owner == nil", []),
        ("owner != nil AND (str BEGINSWITH \"a\" OR dbl > 2)", []), ("NOT (owner.name CONTAINS[cd] \"o\")", []),
        ("owner.n >= 2 OR i16 == 4", []), ("TRUEPREDICATE", []), ("FALSEPREDICATE", []),
    ] }

    /// Predicates left to memory, answered the same.
    static func inMemory() -> [(String, [Any?])] { [
        ("str MATCHES \"a.*\"", []), ("str ==[cd] \"APPLE\"", []), ("str LIKE[cd] \"a*\"", []), ("str CONTAINS[d] \"a\"", []), ("str CONTAINS[c] \"a\"", []),
        ("owner.books.@count > 0", []), ("ANY owner.samples.n == 3", []), ("n < i16", []),
    ] }

    @Test func compiledPredicatesAnswerAsMemoryDoes() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try Self.seed(context)
        let everything = try context.fetch(FetchRequest(entityName: "Sample"))
        let compiled = Self.compiled()
        for (format, arguments) in compiled + Self.inMemory() {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let request = FetchRequest(entityName: "Sample", predicate: predicate)
            let statement = try #require(try store.fetchStatement(for: request))
            let isCompiled = compiled.contains { $0.0 == format }
            #expect(statement.isAnsweredByServer == isCompiled, "\(format): \(statement.sql)")
            let evaluator = PredicateEvaluator(predicate)
            let expected = try everything.filter { try evaluator.evaluate($0) }.map(\.objectID.primaryKey).sorted { $0! < $1! }
            let found = try store.objectIDs(for: request).map(\.primaryKey)
            #expect(found == expected, "\(format)")
            #expect(try store.count(for: request) == expected.count, "\(format)")
        }
    }

    @Test func sortsAnswerInSortValueOrder() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try Self.seed(context)
        let everything = try context.fetch(FetchRequest(entityName: "Sample"))
        let keys: [[SortKey]] = [
            [SortKey("dbl")], [SortKey("dbl", ascending: false)], [SortKey("str")], [SortKey("str", ascending: false)],
            [SortKey("dec")], [SortKey("flag"), SortKey("i64", ascending: false)], [SortKey("when", ascending: false)],
            [SortKey("id")], [SortKey("bytes")], [SortKey("link", ascending: false)], [SortKey("owner.name"), SortKey("str")],
        ]
        for sort in keys {
            var request = FetchRequest(entityName: "Sample")
            request.sortDescriptors = sort
            #expect(try store.fetchStatement(for: request)?.isAnsweredByServer == true)
            let expected = try everything.sorted { a, b in
                for key in sort {
                    let path = key.keyPath.split(separator: ".").map(String.init)
                    let left = try PredicateEvaluator(.alwaysTrue).walk(.object(a), path)
                    let right = try PredicateEvaluator(.alwaysTrue).walk(.object(b), path)
                    let order = SortValueOrder.compare(left, right)
                    if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
                }
                return a.objectID.primaryKey! < b.objectID.primaryKey!
            }.map(\.objectID.primaryKey)
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(sort)")
        }
    }

    @Test func aLimitedFetchReadsOnlyItsRowsAndACountReadsNone() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try Self.seed(context)
        var request = FetchRequest(entityName: "Sample", predicate: try FetchPredicate("n >= 10 AND str != nil"))
        request.sortDescriptors = [SortKey("n", ascending: false)]
        request.fetchLimit = 1
        request.fetchOffset = 2
        let statement = try #require(try store.fetchStatement(for: request))
        #expect(statement.isAnsweredByServer)
        #expect(statement.sql.contains(" LIMIT $") && statement.sql.contains(" OFFSET $"))
        let before = store.rowsRead
        let rows = try store.objectIDs(for: request)
        #expect(store.rowsRead - before == 1, "the server sends the one row asked for")
        #expect(rows.count == 1)
        let countedBefore = store.rowsRead
        request.fetchLimit = nil
        request.fetchOffset = 0
        #expect(try store.count(for: request) == 28)
        #expect(store.rowsRead == countedBefore, "a count reads no rows")
    }

    @Test func hostileValuesReachTheServerOnlyAsParameters() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        let hostile = [
            "'", "%", "_", "\\", "$1", ";", "'; DROP TABLE \"Sample\"; --", "\" OR 1=1 --", "a\u{0}b", "\u{1}0", "E'\\x00'",
            "$$; SELECT pg_sleep(10); $$", "[a-z]*", ".*",
        ]
        for (n, text) in hostile.enumerated() {
            let author = try context.insertObject(forEntityName: "Author")
            author["n"] = Int64(n)
            author["name"] = text
        }
        try context.save()
        for (n, text) in hostile.enumerated() {
            for op in ["==", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "==[cd]", "<="] {
                let request = FetchRequest(entityName: "Author", predicate: try FetchPredicate(format: "name \(op) %@", argumentArray: [text]))
                let statement = try #require(try store.fetchStatement(for: request))
                #expect(statement.isAnsweredByServer, "name \(op) \(text)")
                for word in ["DROP", "OR 1=1", "pg_sleep", "E'"] { #expect(!statement.sql.contains(word)) }
                let found = try store.objectIDs(for: request).map(\.primaryKey)
                let expected = try context.fetch(FetchRequest(entityName: "Author")).filter {
                    try PredicateEvaluator(request.predicate!).evaluate($0)
                }.map(\.objectID.primaryKey).sorted { $0! < $1! }
                #expect(found == expected, "name \(op) \(text)")
                if op == "==" { #expect(found.count == 1 && expected.count == 1, "\(n)") }
            }
        }
        #expect(try store.count(for: FetchRequest(entityName: "Author")) == hostile.count, "the table is still there")
    }
}
#endif
