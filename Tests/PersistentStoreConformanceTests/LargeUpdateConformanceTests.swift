import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// A save that updates more stored rows than a store writes in one statement, on every
/// store: each row gets exactly its own new values (rows changing different columns in one
/// save included), its version moves on once (a context that read it before conflicts), the
/// history records each update with its properties, and a row refused deep in the save is
/// named while nothing of the save is written.
@Suite struct LargeUpdateConformanceTests {
    /// More than one statement's rows on every store that writes many per statement.
    static let count = 2_500

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("code", .string)
                Attribute("title", .string)
                Attribute("price", .decimal)
                Attribute("flag", .boolean)
                Attribute("when", .date)
                UniquenessConstraint("code")
            }
        }
    }

    /// `count` saved items: code `c<i>`, title `t<i>`, price i, flag false.
    private static func stocked(_ subject: StoreUnderTest) throws -> [ManagedObject] {
        let items = try (0..<count).map { index in
            try subject.insert("Item", ["code": "c\(index)", "title": "t\(index)", "price": Decimal(index), "flag": false])
        }
        try subject.context.save()
        return items
    }

    /// The stored items by code, as a new context reads them: title, price, flag, date.
    private static func stored(_ subject: StoreUnderTest) throws -> [String: String] {
        let context = ManagedObjectContext(coordinator: subject.context.persistentStoreCoordinator, classes: [:])
        var result: [String: String] = [:]
        for item in try context.fetch(FetchRequest(entityName: "Item")) {
            let when = (item["when"] as? Date).map { "\($0.timeIntervalSinceReferenceDate)" } ?? "-"
            result[item["code"] as? String ?? "?"] =
                "\(item["title"] as? String ?? "-") \(item["price"] as? Decimal ?? -1) \(item["flag"] as? Bool ?? false) \(when)"
        }
        return result
    }

    /// Three kinds of change in one save: titles (every third item), price and flag (the
    /// next), a date and a title set to nil (the third).
    private static func change(_ items: [ManagedObject]) {
        for (index, item) in items.enumerated() {
            switch index % 3 {
            case 0: item["title"] = "new \(index)"
            case 1:
                item["price"] = Decimal(string: "\(index).25")
                item["flag"] = true
            default:
                item["when"] = Date(timeIntervalSinceReferenceDate: Double(index))
                item["title"] = nil
            }
        }
    }

    @Test(arguments: StoreFactories.all)
    func eachRowOfALargeUpdateGetsItsOwnValuesAndANewVersion(_ factory: StoreFactory) throws {
        let subject = try factory.make(Self.model())
        let items = try Self.stocked(subject)
        let reader = ManagedObjectContext(coordinator: subject.context.persistentStoreCoordinator, classes: [:])
        let stale = try reader.fetch(FetchRequest(entityName: "Item", predicate: try FetchPredicate("code == 'c1800'")))
        Self.change(items)
        try subject.context.save()

        let stored = try Self.stored(subject)
        #expect(stored.count == Self.count)
        for index in 0..<Self.count {
            let expected: String
            switch index % 3 {
            case 0: expected = "new \(index) \(index) false -"
            case 1: expected = "t\(index) \(index).25 true -"
            default: expected = "- \(index) false \(Double(index))"
            }
            #expect(stored["c\(index)"] == expected, "item \(index)")
        }
        // The version moved on: a context that read the row before the save conflicts.
        try #require(stale.count == 1)
        stale[0]["title"] = "stale"
        #expect(throws: MergeConflictError.self) { try reader.save() }
    }

    @Test(arguments: StoreFactories.trackingHistory)
    func theHistoryRecordsEachUpdateWithItsProperties(_ factory: StoreFactory) throws {
        let make = try #require(factory.makeTrackingHistory)
        let subject = try make(Self.model())
        let items = try Self.stocked(subject)
        let token = try subject.store.currentHistoryToken()
        Self.change(items)
        try subject.context.save()

        let history = try subject.store.history(after: .token(token))
        #expect(history.count == 1)
        let changes = Dictionary(uniqueKeysWithValues: (history.first?.changes ?? []).map { ($0.changedObjectID, $0) })
        #expect(changes.count == Self.count)
        for (index, item) in items.enumerated() {
            let expected: Set<String> = index % 3 == 0 ? ["title"] : index % 3 == 1 ? ["price", "flag"] : ["when", "title"]
            #expect(changes[item.objectID]?.changeType == .update, "item \(index)")
            #expect(changes[item.objectID]?.updatedProperties == expected, "item \(index)")
        }
    }

    /// One item deep in the save takes the code of a stored item the save leaves alone: the
    /// conflict names it, and no row of the save changes.
    @Test(arguments: StoreFactories.all)
    func anUpdateRefusedDeepInALargeSaveIsNamedAndNothingIsWritten(_ factory: StoreFactory) throws {
        let subject = try factory.make(Self.model())
        let items = try Self.stocked(subject)
        let before = try Self.stored(subject)
        for (index, item) in items.enumerated() where index != 7 {
            item["title"] = "new \(index)"
        }
        items[2_100]["code"] = "c7"
        let error = try #require(throws: ConstraintConflictError.self) { try subject.context.save() }
        #expect(error.keys == ["code"] && error.values.count == 1 && error.values[0].contains("c7"), "\(error)")
        #expect(error.object == items[2_100].objectID.description, "the refused object is named: \(error)")
        #expect(try Self.stored(subject) == before)
        #expect(subject.context.hasChanges, "the context keeps the save's changes")
    }
}
