import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Object-trump merging asks the store once per batch of inserted objects whether any
/// matches an existing row, and looks objects up one by one only in a batch with a match.
@Suite struct ObjectTrumpBatchTests {
    /// 100 saved items, then 1,000 new ones (two probe batches: 900 and 100) of which three
    /// reuse saved codes: positions 5 and 50 in the first batch, 950 in the second.
    @Test func onlyObjectsWithExistingUniqueValuesAdoptRowsAcrossBatches() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let context = container.viewContext
        var saved: [String: ObjectID] = [:]
        var existing: [ManagedObject] = []
        for i in 0..<100 {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "c\(i)"
            item["str"] = "old"
            existing.append(item)
        }
        try context.save()
        for item in existing { saved[item.value(forKey: "code", default: "")] = item.objectID }

        context.mergePolicy = .mergeByPropertyObjectTrump
        let reused = [5: "c7", 50: "c42", 950: "c99"]
        var inserted: [ManagedObject] = []
        for i in 0..<1000 {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = reused[i] ?? "n\(i)"
            item["str"] = "new \(i)"
            inserted.append(item)
        }
        try context.save()

        #expect(try store.count("Item", everyTypeModel()) == 100 + 1000 - 3)
        for (position, code) in reused {
            #expect(inserted[position].objectID == saved[code])
            #expect(try store.strings(["str"], of: "Item", everyTypeModel(), where: "code == '\(code)'") == [["new \(position)"]])
        }
        #expect(try store.strings(["str"], of: "Item", everyTypeModel(), where: "code == 'c8'") == [["old"]])
        let newKeys = Set(inserted.enumerated().filter { reused[$0.offset] == nil }.compactMap { $0.element.objectID.primaryKey })
        #expect(newKeys.count == 997)
        #expect(newKeys.isDisjoint(with: Set(saved.values.compactMap(\.primaryKey))))
    }

    @Test func storeProbeAnswersWhetherAnyTupleMatches() throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let item = try container.viewContext.insertObject(forEntityName: "Item")
        item["code"] = "x"
        try container.viewContext.save()
        let sqlite = container.viewContext.sqliteStore
        let mapping = try #require(sqlite.schema.entities["Item"])
        #expect(try sqlite.hasRow(in: mapping, matching: ["code"], anyOf: [[.text("a")], [.text("x")]]))
        #expect(try !sqlite.hasRow(in: mapping, matching: ["code"], anyOf: [[.text("a")], [.text("b")]]))
        #expect(try !sqlite.hasRow(in: mapping, matching: ["code"], anyOf: [[.null]]))
        #expect(try !sqlite.hasRow(in: mapping, matching: ["code"], anyOf: []))
    }
}
