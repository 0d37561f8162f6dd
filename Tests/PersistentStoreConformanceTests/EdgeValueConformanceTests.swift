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
}
