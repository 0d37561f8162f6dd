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
