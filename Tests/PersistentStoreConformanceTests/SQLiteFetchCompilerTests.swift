import Foundation
import Persistence
import PersistenceModel
import PersistenceSQLiteStore
import PersistenceStore
import Testing

/// The SQLite store compiles its predicates on the relational core (`RelationalFetchCompiler`
/// over `SQLiteStoreRelationalLayout`), with the answers memory gives: every predicate its
/// own compiler answered in SQL stays the core's (`SQLiteStore.fetchTermsOutsideCore` does
/// not move).
@Suite struct SQLiteFetchCompilerTests {

    /// Authors with books, tags (a many-to-many) and samples, for to-many predicates.
    private static func open() throws -> (store: SQLiteStore, context: ManagedObjectContext) {
        let store = try SQLiteStore(model: ConformanceModel.make(), url: nil)
        let context = ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:])
        try ToManyLibrary.seed(context, withDecimalNaN: true)
        return (store, context)
    }

    /// The edge predicates of the conformance matrix: the core answers each one the store's
    /// compiler answered, with memory's rows and count.
    @Test func thePredicatesTheStoreAnsweredInSQLAreTheCoresWithTheSameAnswers() throws {
        let (store, context) = try Self.open()
        let everything = try context.fetch(FetchRequest(entityName: "Sample"))
        let cases =
            EdgeSamples.compiled() + EdgeSamples.inMemory() + [
                ("str MATCHES[cd] \"A.*\" OR str MATCHES \"[0-9]+|z.*\"", []), ("NOT (str MATCHES \".*e\")", []),
            ]
        for (format, arguments) in cases {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let request = FetchRequest(entityName: "Sample", predicate: predicate)
            let evaluator = PredicateEvaluator(predicate)
            let expected = try everything.filter { try evaluator.evaluate($0) }.map(\.objectID.primaryKey).sorted { $0! < $1! }
            let before = store.fetchTermsOutsideCore
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(format)")
            #expect(store.fetchTermsOutsideCore == before, "\(format): every term the core's")
            #expect(try store.count(for: request) == expected.count, "\(format)")
        }
    }

    /// To-many terms (`ANY`, `ALL`, `NONE`, `@count`, through a to-one, a many-to-many and
    /// sub-entities), alone and beside simple terms, are the core's subqueries, with the
    /// answers memory gives.
    @Test func toManyTermsAreTheCoresWithTheSameAnswers() throws {
        let cases: [(entity: String, format: String)] = [
            ("Author", "ANY samples.n == 3 AND n >= 1"), ("Author", "samples.@count > 9 AND name != nil"),
            ("Author", "ALL samples.dbl > 1"), ("Author", "NONE samples.str BEGINSWITH \"a\""),
            ("Author", "books.@count == 0 OR n == 1"), ("Author", "NOT (ANY books.rating > 2)"),
            ("Author", "ANY books.title CONTAINS[cd] \"TITLE 1\""), ("Author", "ANY samples.i64 > 2.5"),
            ("Sample", "owner.books.@count > 2 AND n < 20"), ("Sample", "ANY owner.samples.n == 3"),
            ("Book", "ANY tags.name ==[cd] nil"), ("Book", "ANY tags.name IN {\"Prose\", \"poetry\"} AND year > 1920"),
            ("Book", "tags.@count >= 2"), ("Tag", "ANY books.rating == 2.5"), ("Tag", "ALL books.year > 1950"),
            ("Author", "ANY books.price >= 1.5 AND ANY samples.flag == YES"), ("Author", "ALL books.price < 2"),
            ("Author", "NONE books.price > %@"),
        ]
        try Self.expectCoresAnswers(cases)
    }

    /// `@min` and `@max` of integers and floating-point values, and `@sum` of 16- and 32-bit
    /// integers, through a one-to-many and a many-to-many, under `NOT`, in lists and ranges,
    /// are the core's subqueries with memory's answers (NaN skipped, an empty collection's
    /// nil comparing false, an empty sum 0).
    @Test func collectionOperatorsAreTheCoresWithTheSameAnswers() throws {
        let cases: [(entity: String, format: String)] = [
            ("Author", "samples.@max.i64 > 5"), ("Author", "samples.@min.dbl < 1"), ("Author", "samples.@max.flt != 2"),
            ("Author", "samples.@sum.i16 >= 10"), ("Author", "samples.@sum.i32 == 0"), ("Author", "samples.@sum.i32 < 2.5"),
            ("Author", "NOT (samples.@min.n IN {1, 2, 3})"), ("Author", "books.@min.rating BETWEEN {1, 3}"),
            ("Author", "NOT (books.@max.rating > 2)"), ("Tag", "books.@max.year >= 1960"), ("Tag", "books.@sum.year > 3900"),
            ("Book", "tags.@min.n == nil"),
        ]
        try Self.expectCoresAnswers(cases)
    }

    /// Each `(entity, format)` (its `%@` bound to NaN) fetches and counts from the store, on
    /// the core alone, what the evaluator picks in memory from every object of `entity`.
    private static func expectCoresAnswers(
        _ cases: [(entity: String, format: String)], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (store, context) = try open()
        for (entity, format) in cases {
            let predicate = try FetchPredicate(format: format, argumentArray: format.contains("%@") ? [Double.nan] : [])
            let request = FetchRequest(entityName: entity, predicate: predicate)
            let evaluator = PredicateEvaluator(predicate)
            let expected = try context.fetch(FetchRequest(entityName: entity)).filter { try evaluator.evaluate($0) }
                .map(\.objectID.primaryKey).sorted { $0! < $1! }
            let before = store.fetchTermsOutsideCore
            #expect(try store.objectIDs(for: request).map(\.primaryKey) == expected, "\(format)", sourceLocation: sourceLocation)
            #expect(store.fetchTermsOutsideCore == before, "\(format): every term the core's", sourceLocation: sourceLocation)
            #expect(try store.count(for: request) == expected.count, "\(format)", sourceLocation: sourceLocation)
        }
    }
}
