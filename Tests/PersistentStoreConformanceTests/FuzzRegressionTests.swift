import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// Mismatches the differential fuzz test found between a store and the in-memory evaluator,
/// each held by a test with the objects and predicate that showed it, on every store.
@Suite struct FuzzRegressionTests {
    /// People whose items have the given `dbl` and `i64` values, saved in a store of `factory`.
    private static func people(
        _ factory: StoreFactory, doubles: [[Double]] = [], integers: [[Int64]] = []
    ) throws -> StoreUnderTest {
        let subject = try factory.make(FuzzLibrary.model())
        var itemNumber: Int64 = 0
        for (n, values) in (doubles.map { $0.map { ($0 as Double?, nil as Int64?) } }
            + integers.map { $0.map { (nil as Double?, $0 as Int64?) } }).enumerated()
        {
            let person = try subject.insert("Person", ["n": Int64(n)])
            for (dbl, i64) in values {
                let item = try subject.insert("Item", ["n": itemNumber, "dbl": dbl, "i64": i64])
                item.setObject(person, forKey: "owner")
                itemNumber += 1
            }
        }
        try subject.context.save()
        return subject
    }

    /// The serial numbers of the people `format` fetches, in key order, from the store and
    /// from the same people unsaved in memory.
    private static func fetched(_ format: String, _ subject: StoreUnderTest) throws -> (store: [Int64], memory: [Int64]) {
        let request = FetchRequest(entityName: "Person", predicate: try FetchPredicate(format), sortDescriptors: [SortKey("n")])
        var stored: [Int64] = []
        try subject.store.forEachRow(request) { row in
            stored.append(row.serial)
            return true
        }
        let evaluator = PredicateEvaluator(try FetchPredicate(format))
        let people = try subject.context.fetch(FetchRequest(entityName: "Person", sortDescriptors: [SortKey("n")]))
        return (stored, try people.filter { try evaluator.evaluate($0) }.map(\.serial))
    }

    /// `@max` and `@min` of doubles skip NaN wherever it stands, as SQL's `max` and `min`
    /// skip what is unordered: a collection of NaNs alone has no greatest value (nil). The
    /// SQLite store took the NaN, stored as text, for the greatest value; the evaluator
    /// kept a NaN that came first.
    @Test(arguments: StoreFactories.all)
    func maxAndMinOfDoublesSkipNaN(_ factory: StoreFactory) throws {
        let subject = try Self.people(factory, doubles: [[.nan, 1.5], [2, .nan], [.nan], [], [-1, .nan, 3]])
        let cases: [(String, [Int64])] = [
            ("items.@max.dbl >= 0", [0, 1, 4]),
            ("items.@max.dbl == nil", [2, 3]),
            ("items.@max.dbl != 2", [0, 2, 3, 4]),
            ("items.@min.dbl < 1.5", [4]),
            ("items.@min.dbl == 1.5", [0]),
        ]
        for (format, expected) in cases {
            let (stored, memory) = try Self.fetched(format, subject)
            #expect(stored == expected, "\(factory.name): \(format)")
            #expect(memory == expected, "in memory: \(format)")
        }
    }

    /// `@sum` of 64-bit integers goes on past Int64 exactly, as in memory, where the SQLite
    /// store failed with SQL's "integer overflow".
    @Test(arguments: StoreFactories.all)
    func sumOfIntegersGoesOnPastInt64(_ factory: StoreFactory) throws {
        let subject = try Self.people(factory, integers: [[Int64.max, 1], [Int64.min, -1], [5, 6], []])
        let cases: [(String, [Int64])] = [
            ("items.@sum.i64 > 9223372036854775807", [0]),
            ("items.@sum.i64 < 0", [1]),
            ("items.@sum.i64 == 11", [2]),
            ("items.@sum.i64 == 0", [3]),
        ]
        for (format, expected) in cases {
            let (stored, memory) = try Self.fetched(format, subject)
            #expect(stored == expected, "\(factory.name): \(format)")
            #expect(memory == expected, "in memory: \(format)")
        }
    }
}
