import Foundation
import Testing

import Persistence

/// Validating, resolving and mapping a model grows with its size, not with its square: a
/// model of N entities and one of 4N (flat, and as one inheritance chain) are timed, and
/// 4N may take at most 8 times as long (a square would take 16). Each side is the best of
/// three runs, so a busy machine rarely decides.
@Suite(.serialized) struct ModelScaleTests {
    /// `count` entities, each with an attribute and a to-one pair to its neighbours.
    static func flatModel(_ count: Int) -> ManagedObjectModel {
        ManagedObjectModel(entities: (0..<count).map { i in
            EntityDescription(
                name: "E\(i)",
                attributes: [AttributeDescription(name: "a\(i)", type: .string, isIndexed: i % 2 == 0)],
                relationships: [
                    RelationshipDescription(name: "next", destination: "E\((i + 1) % count)", inverse: "previous"),
                    RelationshipDescription(name: "previous", destination: "E\((i + count - 1) % count)", inverse: "next"),
                ])
        })
    }

    /// An inheritance chain `count` entities deep, each adding one attribute.
    static func chainModel(_ count: Int) -> ManagedObjectModel {
        ManagedObjectModel(entities: (0..<count).map { i in
            EntityDescription(
                name: "C\(i)", parent: i == 0 ? nil : "C\(i - 1)",
                attributes: [AttributeDescription(name: "a\(i)", type: .string)])
        })
    }

    /// The best of `runs` timings of `work`, in seconds of this thread's CPU time (so that
    /// tests running beside it on other threads do not count).
    static func seconds(runs: Int = 3, _ work: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        var best = Double.infinity
        for _ in 0..<runs {
            let start = now()
            try work()
            best = min(best, now() - start)
        }
        return best
    }

    static func expectLinear(_ name: String, small: Double, large: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(large / max(small, 1e-4) < 8, "\(name): \(small) s for N, \(large) s for 4N", sourceLocation: sourceLocation)
    }

    @Test func validatingGrowsLinearlyWithEntities() {
        let (small, large) = (Self.flatModel(300), Self.flatModel(1_200))
        Self.expectLinear(
            "validate, flat",
            small: Self.seconds { #expect(ModelValidator(small).errors.isEmpty) },
            large: Self.seconds { #expect(ModelValidator(large).errors.isEmpty) })
    }

    @Test func validatingGrowsLinearlyWithInheritanceDepth() {
        let (small, large) = (Self.chainModel(400), Self.chainModel(1_600))
        Self.expectLinear(
            "validate, chain",
            small: Self.seconds { #expect(ModelValidator(small).errors.isEmpty) },
            large: Self.seconds { #expect(ModelValidator(large).errors.isEmpty) })
    }

    @Test func resolvingAndMappingGrowLinearlyWithEntities() throws {
        let (small, large) = (Self.flatModel(300), Self.flatModel(1_200))
        func map(_ model: ManagedObjectModel) throws {
            let schemas = try EntitySchema.resolve(model.entities)
            #expect(schemas.count == model.entities.count)
        }
        Self.expectLinear("resolve, flat", small: try Self.seconds { try map(small) }, large: try Self.seconds { try map(large) })
        try small.freeze()
        try large.freeze()
        Self.expectLinear(
            "store schema, flat",
            small: Self.seconds { _ = StoreSchema(model: small).createStatements },
            large: Self.seconds { _ = StoreSchema(model: large).createStatements })
    }

    @Test func resolvingAChainTakesTheTimeOfWhatItBuilds() throws {
        // A chain's entities inherit every attribute above them: N(N+1)/2 properties in all,
        // so 4N may take 16 times as long as N (more with the larger one's cache misses).
        // The bound is 40, well under the 64 of the cubic walk this guards against; the small
        // side, quick and so the noisier, is the best of seven runs.
        let (small, large) = (Self.chainModel(100), Self.chainModel(400))
        let a = try Self.seconds(runs: 7) { _ = try EntitySchema.resolve(small.entities) }
        let b = try Self.seconds { _ = try EntitySchema.resolve(large.entities) }
        #expect(b / max(a, 1e-4) < 40, "\(a) s for 100, \(b) s for 400")
    }

    @Test func aStoreOfAFiveHundredLevelChainIsCreatedAndUsed() throws {
        let model = Self.chainModel(500)
        let container = try PersistentContainer(model: model, storeURL: nil)
        let leaf = try container.viewContext.insertObject(forEntityName: "C499")
        try leaf.setValue("deep", forKey: "a0")
        try container.viewContext.save()
        let fetched = try container.viewContext.fetch(FetchRequest(entityName: "C0"))
        #expect(fetched.count == 1)
    }
}
