import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Negative zero in Double and Float attributes is stored as zero (see `RowCodec`): a
/// decision pinned here, so that changing it is a conscious choice.
@Suite struct DoubleSignedZeroTests {
    @Test func negativeZeroReadsBackAsPositiveZeroAndMatchesZero() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            let context = container.viewContext
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "z"
            item["dbl"] = -0.0
            item["flt"] = Float(-0.0)
            try context.save()
            // The saving context keeps the value it was given.
            #expect((item["dbl"] as? Double)?.sign == .minus)
        }
        #expect(try store.rows("SELECT typeof(dbl), dbl, typeof(flt) FROM Item") == [[.text("real"), .real(0), .text("real")]])
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        let item = try #require(try context.fetch(FetchRequest(entityName: "Item")).first)
        let double = try #require(item["dbl"] as? Double)
        let float = try #require(item["flt"] as? Double)
        #expect(double == 0 && double.sign == .plus)
        #expect(float == 0 && float.sign == .plus)
        for predicate in [try FetchPredicate("dbl == 0"), try FetchPredicate(format: "dbl == %@", argumentArray: [-0.0])] {
            #expect(try context.fetch(FetchRequest(entityName: "Item", predicate: predicate)).count == 1)
            #expect(try predicate.evaluate(with: item))
        }
    }

    @Test func positiveAndNegativeValuesKeepTheirSign() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            let context = container.viewContext
            for (code, value) in [("a", -1.5), ("b", -Double.leastNonzeroMagnitude), ("c", -Double.infinity)] {
                let item = try context.insertObject(forEntityName: "Item")
                item["code"] = code
                item["dbl"] = value
            }
            try context.save()
        }
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let request = FetchRequest(entityName: "Item", sortDescriptors: [SortKey("code")])
        let values = try container.viewContext.fetch(request).map { $0["dbl"] as? Double }
        #expect(values == [-1.5, -Double.leastNonzeroMagnitude, -.infinity])
    }
}
