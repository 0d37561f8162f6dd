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
    @Test func compiledPredicatesAnswerAsMemoryDoes() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try EdgeSamples.seed(context)
        let everything = try context.fetch(FetchRequest(entityName: "Sample"))
        let compiled = EdgeSamples.compiled() + EdgeSamples.compiledBeyondSQLite()
        for (format, arguments) in compiled + EdgeSamples.inMemory() + EdgeSamples.inMemoryBeyondSQLite() {
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
        try EdgeSamples.seed(context)
        let everything = try context.fetch(FetchRequest(entityName: "Sample"))
        for sort in EdgeSamples.sorts {
            var request = FetchRequest(entityName: "Sample")
            request.sortDescriptors = sort
            #expect(try store.fetchStatement(for: request)?.isAnsweredByServer == true)
            let expected = try EdgeSamples.sorted(everything, by: sort) {
                $0.objectID.primaryKey! < $1.objectID.primaryKey!
            }.map(\.objectID.primaryKey)
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(sort)")
        }
    }

    @Test func aLimitedFetchReadsOnlyItsRowsAndACountReadsNone() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try EdgeSamples.seed(context)
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
        // A sort the server cannot make (a transformable value) leaves the order to memory,
        // but a count needs no order.
        request.sortDescriptors = [SortKey("payload")]
        request.fetchLimit = 5
        #expect(try store.fetchStatement(for: request)?.isAnsweredByServer == false)
        #expect(try store.count(for: request) == 5)
        #expect(store.rowsRead == countedBefore, "a count reads no rows")
    }

    /// To-many terms (`ANY`, `ALL`, `NONE`, `@count`, through a to-one or another to-many),
    /// alone and beside simple terms, are answered on the server as subqueries, with the
    /// answers memory gives.
    @Test func toManyTermsAreAnsweredOnTheServer() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try ToManyLibrary.seed(context)
        let cases: [(entity: String, format: String)] = [
            ("Author", "ANY samples.n == 3 AND n >= 1"), ("Author", "samples.@count > 9 AND name != nil"),
            ("Author", "ALL samples.dbl > 1"), ("Author", "NONE samples.str BEGINSWITH \"a\""),
            ("Author", "books.@count == 0 OR n == 1"),
            ("Author", "NOT (ANY books.rating > 2)"), ("Author", "ANY books.price >= 1.5 AND ANY samples.flag == YES"),
            ("Author", "ANY books.canonicalTitle CONTAINS \"title 1\""), ("Author", "ANY samples.i64 > 2.5"),
            ("Sample", "owner.books.@count > 2 AND n < 20"), ("Sample", "ANY owner.samples.n == 3"),
            ("Book", "ANY tags.name ==[cd] nil"), ("Book", "ANY tags.name IN {\"Prose\", \"poetry\"} AND year > 1920"),
            ("Book", "tags.@count >= 2"), ("Book", "ALL shelves.n > 1"), ("Tag", "ANY books.rating == %@"),
        ]
        for (entity, format) in cases {
            let predicate = try FetchPredicate(format: format, argumentArray: format.contains("%@") ? [Double.nan] : [])
            let request = FetchRequest(entityName: entity, predicate: predicate)
            let statement = try #require(try store.fetchStatement(for: request))
            #expect(statement.isAnsweredByServer, "\(format): \(statement.sql)")
            #expect(statement.sql.contains("EXISTS") || statement.sql.contains("count(*)") || format.contains("%@"), "\(format)")
            let evaluator = PredicateEvaluator(predicate)
            let expected = try context.fetch(FetchRequest(entityName: entity)).filter { try evaluator.evaluate($0) }
                .map(\.objectID.primaryKey).sorted { $0! < $1! }
            let before = store.rowsRead
            let fellBack = store.fetchTermsLeftToMemory
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(format)")
            #expect(store.rowsRead - before == expected.count, "\(format): the server sends only the rows fetched")
            #expect(store.fetchTermsLeftToMemory == fellBack, "\(format): no term left to memory")
            #expect(try store.count(for: request) == expected.count, "\(format)")
        }
    }

    /// A term the server cannot answer (`MATCHES`, a key path compared with another) is left
    /// to memory alone: the other terms still narrow the rows on the server, so a fetch reads
    /// only the rows they keep, and the answers, window and count are memory's.
    @Test func aTermLeftToMemoryLeavesTheOthersOnTheServer() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try ToManyLibrary.seed(context)
        let samples = try context.fetch(FetchRequest(entityName: "Sample"))
        let cases: [(format: String, narrowed: Int)] = [
            ("n < 3 AND str MATCHES \".*p.*\"", 3), ("str MATCHES \"[a-z]+\" AND n >= 30", 10),
            ("n < i16 AND ANY owner.samples.n == 1", 8), ("n BETWEEN {10, 14} AND (str MATCHES \".*\" OR n == 1)", 5),
        ]
        for (format, narrowed) in cases {
            let predicate = try FetchPredicate(format)
            var request = FetchRequest(entityName: "Sample", predicate: predicate)
            let statement = try #require(try store.fetchStatement(for: request))
            #expect(!statement.isAnsweredByServer, "\(format)")
            #expect(statement.sql.contains("WHERE"), "\(format): \(statement.sql)")
            let evaluator = PredicateEvaluator(predicate)
            let expected = try samples.filter { try evaluator.evaluate($0) }.map(\.objectID.primaryKey).sorted { $0! < $1! }
            var before = store.rowsRead
            let fellBack = store.fetchTermsLeftToMemory
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(format)")
            #expect(store.rowsRead - before == narrowed, "\(format): only the rows the compiled terms keep are read")
            #expect(store.fetchTermsLeftToMemory - fellBack == 1, "\(format): one term evaluated in memory")
            #expect(try store.count(for: request) == expected.count, "\(format)")
            request.sortDescriptors = [SortKey("n", ascending: false)]
            request.fetchLimit = 2
            request.fetchOffset = 1
            let windowed = try EdgeSamples.sorted(samples.filter { try evaluator.evaluate($0) }, by: request.sortDescriptors) {
                $0.objectID.primaryKey! < $1.objectID.primaryKey!
            }.dropFirst().prefix(2).map(\.objectID.primaryKey)
            before = store.rowsRead
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == Array(windowed), "\(format), sorted and windowed")
            #expect(store.rowsRead - before == narrowed, "\(format)")
        }
    }

    /// A long `IN` list is bound as one array (`= ANY($n)`), for each type the server
    /// compares exactly, with the answers memory gives; a list too long to bind term by term
    /// is left to memory rather than refused by the server.
    @Test func longInListsAreOneParameter() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(ConformanceModel.make())
        try EdgeSamples.seed(context)
        let everything = try context.fetch(FetchRequest(entityName: "Sample"))
        let uuids: [UUID] = (0..<12).map { UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", ($0 * 7 * 7919) % 97))! }
        let doubles: [Double] = [2.5, 3.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, Double.nan, 0.0]
        let texts: [String] = ["apple", "a\u{0}b", "\u{1}984", "Straße", "it's", "x", "y", "z", "back\\slash"]
        let decimals: [Decimal] = ["0.1", "2.5", "3", "4", "5", "6", "7", "-7"].compactMap { Decimal(string: $0) }
        let reals: [Double] = [1.5, 0.1, 2, 3, 4, 5, 6, 7, -0.0]
        let links: [URL] = (0..<9).compactMap { URL(string: "https://example.com/\($0 * 2)") }
        var blobs: [Data] = []
        for i in 0..<20_001 {
            let bytes: [UInt8] = [UInt8(i % 3), UInt8(i % 7), UInt8((i / 256) % 256)]
            blobs.append(Data(bytes))
        }
        let every: [Int64] = Array(0..<20_001)
        let some: [Int64] = (0..<20).map { Int64($0 * 3) }
        let cases: [(String, [Any?], compiled: Bool)] = [
            ("n IN %@", [every], true), ("n IN %@ AND str != nil", [some], true), ("i64 IN %@", [doubles], true),
            ("str IN %@", [texts], true), ("dec IN %@", [decimals], true), ("dbl IN %@", [reals], true), ("id IN %@", [uuids], true),
            ("link IN %@", [links], true), ("bytes IN %@", [blobs], false),
        ]
        for (format, arguments, compiled) in cases {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let request = FetchRequest(entityName: "Sample", predicate: predicate)
            let statement = try #require(try store.fetchStatement(for: request))
            #expect(statement.isAnsweredByServer == compiled, "\(format)")
            #expect(!compiled || statement.sql.contains("= ANY($") && statement.parameters.count <= 3, "\(format): \(statement.sql)")
            let evaluator = PredicateEvaluator(predicate)
            let expected = try everything.filter { try evaluator.evaluate($0) }.map(\.objectID.primaryKey).sorted { $0! < $1! }
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(format)")
            #expect(try store.count(for: request) == expected.count, "\(format)")
        }
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
