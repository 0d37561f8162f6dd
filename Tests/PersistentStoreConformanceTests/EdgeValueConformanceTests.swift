import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **Fetches** clause at the edges of every value type (`EdgeSamples`):
/// whether a store answers a predicate or a sort in SQL or in memory, its rows are the ones
/// `PredicateEvaluator` picks, in `SortValueOrder`'s order, and its count is theirs.
@Suite struct EdgeValueConformanceTests {
    /// Each sample's `n`, by object ID.
    private static func serials(_ samples: [ManagedObject]) -> [ObjectID: Int64] {
        var serials: [ObjectID: Int64] = [:]
        for sample in samples { serials[sample.objectID] = sample["n"] as? Int64 }
        return serials
    }

    @Test(arguments: StoreFactories.all)
    func predicatesAtTheEdgesAnswerAsMemoryDoes(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        try EdgeSamples.seed(subject.context)
        let everything = try subject.context.fetch(FetchRequest(entityName: "Sample"))
        let serials = Self.serials(everything)
        for (format, arguments) in EdgeSamples.compiled() + EdgeSamples.inMemory() {
            let predicate = try FetchPredicate(format: format, argumentArray: arguments)
            let request = FetchRequest(entityName: "Sample", predicate: predicate)
            let evaluator = PredicateEvaluator(predicate)
            let expected = try everything.filter { try evaluator.evaluate($0) }.compactMap { serials[$0.objectID] }.sorted()
            let found = try subject.store.objectIDs(for: request).compactMap { serials[$0] }.sorted()
            #expect(found == expected, "\(factory.name): \(format)")
            #expect(try subject.store.count(for: request) == expected.count, "\(factory.name): \(format)")
        }
    }

    @Test(arguments: StoreFactories.all)
    func sortsAtTheEdgesAnswerInSortValueOrder(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        try EdgeSamples.seed(subject.context)
        let everything = try subject.context.fetch(FetchRequest(entityName: "Sample"))
        let serials = Self.serials(everything)
        for sort in EdgeSamples.sorts {
            let request = FetchRequest(entityName: "Sample", sortDescriptors: sort + [SortKey("n")])
            let expected = try EdgeSamples.sorted(everything, by: sort + [SortKey("n")]) { _, _ in false }
                .compactMap { serials[$0.objectID] }
            let found = try subject.store.objectIDs(for: request).compactMap { serials[$0] }
            #expect(found == expected, "\(factory.name): \(sort)")
        }
    }

    /// A fetch whose caller keeps every row (a fetch's array, its sections) may be read
    /// whole and ordered by the store itself (`forEachRowForArray`); it comes out in the
    /// order the store's streamed read gives, ties in key order, with or without a filter,
    /// and so does a context's fetch.
    @Test(arguments: StoreFactories.all)
    func rowsReadWholeComeInTheStreamedOrder(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        try EdgeSamples.seed(subject.context)
        let filters: [FetchPredicate?] = [nil, try FetchPredicate("n >= 7 AND n != 20")]
        for sort in EdgeSamples.sorts + [[SortKey("dec", ascending: false), SortKey("str")], [SortKey("i16"), SortKey("when")]] {
            for filter in filters {
                let request = FetchRequest(entityName: "Sample", predicate: filter, sortDescriptors: sort)
                var streamed: [Int64] = []
                try subject.store.forEachRow(request) { row in
                    streamed.append(row.primaryKey)
                    return true
                }
                var whole: [Int64] = []
                try subject.store.forEachRowForArray(request) { row in
                    whole.append(row.primaryKey)
                    return true
                }
                #expect(whole == streamed, "\(factory.name): \(sort), \(String(describing: filter))")
                #expect(
                    try subject.store.objectIDs(for: request).compactMap(\.primaryKey) == streamed,
                    "\(factory.name): \(sort)")
                #expect(try subject.context.fetch(request).compactMap(\.objectID.primaryKey) == streamed, "\(factory.name): \(sort)")
            }
        }
        // A body that stops early is handed no more rows.
        var handed = 0
        try subject.store.forEachRowForArray(FetchRequest(entityName: "Sample", sortDescriptors: [SortKey("str")])) { _ in
            handed += 1
            return handed < 3
        }
        #expect(handed == 3)
    }
}
