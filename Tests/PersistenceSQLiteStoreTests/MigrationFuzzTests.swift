import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Random model changes on random data (seeded): every value that has a place in the new
/// version is kept, exactly; removed ones are reported as data loss; added ones get their
/// default or nil.
@Suite struct MigrationFuzzTests {
    static let types: [(AttributeType, String?)] = [
        (.string, "none"), (.integer64, "-7"), (.double, "2.5"), (.decimal, "19.99"), (.boolean, "YES"), (.date, "0"),
    ]

    static func randomValue(_ type: AttributeType, _ random: inout SplitMix64) -> Any? {
        if Int.random(in: 0..<5, using: &random) == 0 { return nil }
        switch type {
        case .string: return ["Łódź", "año", "", "x\u{0}y", "ελληνικά"][Int.random(in: 0..<5, using: &random)]
        case .integer64: return Int64.random(in: Int64.min...Int64.max, using: &random)
        case .double: return Double.random(in: -1e12...1e12, using: &random)
        case .decimal: return Decimal(string: "\(Int.random(in: -99999...99999, using: &random)).\(Int.random(in: 0...99, using: &random))")
        case .boolean: return Bool.random(using: &random)
        default: return Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)))
        }
    }

    static func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a as String, let b as String): return a == b
        case (let a as Int64, let b as Int64): return a == b
        case (let a as Double, let b as Double): return a == b
        case (let a as Decimal, let b as Decimal): return a == b
        case (let a as Bool, let b as Bool): return a == b
        case (let a as Date, let b as Date): return a == b
        default: return false
        }
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func randomChangesKeepEveryValueThatHasAPlace(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 3...7, using: &random)
        var old: [AttributeDescription] = [AttributeDescription(name: "key", type: .integer64)]
        var new: [AttributeDescription] = [AttributeDescription(name: "key", type: .integer64)]
        var fate: [String: String?] = [:]  // old name → new name, or nil when removed
        for i in 0..<count {
            let type = Self.types[Int.random(in: 0..<Self.types.count, using: &random)].0
            old.append(AttributeDescription(name: "a\(i)", type: type))
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                new.append(AttributeDescription(name: "a\(i)", type: type))
                fate["a\(i)"] = "a\(i)"
            case 1:
                new.append(AttributeDescription(name: "r\(i)", type: type, renamingIdentifier: "a\(i)"))
                fate["a\(i)"] = "r\(i)"
            default:
                fate["a\(i)"] = .some(nil)
            }
        }
        var added: [String: AttributeDescription] = [:]
        for i in 0..<Int.random(in: 0...3, using: &random) {
            let (type, text) = Self.types[Int.random(in: 0..<Self.types.count, using: &random)]
            let attribute = Bool.random(using: &random)
                ? AttributeDescription(name: "n\(i)", type: type, isOptional: false, defaultValueString: text)
                : AttributeDescription(name: "n\(i)", type: type)
            new.append(attribute)
            added[attribute.name] = attribute
        }
        let v1 = ManagedObjectModel(entities: [EntityDescription(name: "Item", attributes: old)], versionIdentifier: "1")
        let v2 = ManagedObjectModel(entities: [EntityDescription(name: "Item", attributes: new)], versionIdentifier: "2")
        let store = TemporaryStore()
        var rows: [[String: Any?]] = []
        do {
            let container = try PersistentContainer(model: v1, storeURL: store.url)
            for key in 0..<25 {
                var row: [String: Any?] = ["key": Int64(key)]
                for attribute in old.dropFirst() { row[attribute.name] = Self.randomValue(attribute.type, &random) }
                let item = try container.viewContext.insertObject(forEntityName: "Item")
                for (name, value) in row { item[name] = value }
                rows.append(row)
            }
            try container.viewContext.save()
        }
        let removed = fate.filter { $0.value == nil }.keys.sorted()
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.filter(\.losesData).compactMap(\.property).sorted() == removed, "seed \(seed)")
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let items = try container.viewContext.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("key")]))
        #expect(items.count == rows.count)
        for (item, row) in zip(items, rows) {
            for (oldName, newName) in fate {
                guard let newName else { continue }
                #expect(Self.same(item[newName], row[oldName] ?? nil), "seed \(seed): \(oldName) → \(newName)")
            }
            for (name, attribute) in added {
                let expected = attribute.isOptional ? nil : attribute.defaultValue?.anyValue
                #expect(Self.same(item[name], expected), "seed \(seed): new \(name)")
            }
        }
    }
}
