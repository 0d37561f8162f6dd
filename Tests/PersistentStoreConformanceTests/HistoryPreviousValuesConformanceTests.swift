import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **History** clause, beyond Core Data: every store that tracks history keeps
/// the values each change replaced (`PersistentHistoryChange.previousValues`), the same on
/// every store. For an update, the old value of each stored property it wrote; for a delete,
/// every stored attribute, to-one and kept join-table to-many of the object; the expected
/// values come from what the objects held before the change, not from any store's history.
@Suite struct HistoryPreviousValuesConformanceTests {
    /// The properties whose previous values the history keeps, by entity: stored attributes,
    /// to-ones, and the join-table to-manys kept (`Book.tags`, not `Tag.books`; both sides of
    /// the shelf's ordered list). A to-many whose inverse is a to-one (`Author.books`) is
    /// put back through that to-one and not kept.
    static let kept: [String: [String]] = [
        "Author": ["n", "name", "referenceKey", "canonicalName"],
        "Book": ["n", "title", "referenceKey", "canonicalTitle", "year", "price", "rating", "author", "tags", "shelves"],
        "Ebook": ["n", "title", "referenceKey", "canonicalTitle", "year", "price", "rating", "author", "tags", "shelves", "megabytes"],
        "Tag": ["n", "name"],
        "Shelf": ["n", "name", "books"],
        "Sample": [
            "n", "i16", "i32", "i64", "dbl", "flt", "dec", "str", "flag", "when", "bytes", "id", "link", "payload", "owner",
        ],
    ]

    @Test(arguments: StoreFactories.trackingHistory)
    func updatesAndDeletesKeepTheValuesTheObjectsHeld(_ factory: StoreFactory) throws {
        let make = try #require(factory.makeTrackingHistory)
        let subject = try make(ConformanceModel.make())
        let leGuin = try subject.insert("Author", ["n": Int64(1), "name": "Le Guin"])
        let butler = try subject.insert("Author", ["n": Int64(2), "name": "Butler"])
        let novel = try subject.insert("Tag", ["n": Int64(3), "name": "novel"])
        let classic = try subject.insert("Tag", ["n": Int64(4), "name": "classic"])
        let shelf = try subject.insert("Shelf", ["n": Int64(5), "name": "Favourites"])
        let lathe = try subject.insert(
            "Ebook",
            ["n": Int64(6), "title": "Lathe", "year": Int64(1971), "price": Decimal(string: "9.99"), "rating": 4.5,
             "megabytes": 1.5])
        let kindred = try subject.insert("Book", ["n": Int64(7), "title": "Kindred \u{0}\u{1} \"quoted\"\n", "year": Int64(1979)])
        try lathe.setValue(leGuin, forKey: "author")
        try lathe.setValue([novel], forKey: "tags")
        try kindred.setValue(butler, forKey: "author")
        try kindred.setValue([novel, classic], forKey: "tags")
        try shelf.setValue([lathe, kindred], forKey: "books")
        // Every stored type at its low edge (-infinity, a 38-digit decimal, U+0000 in text).
        var given: [String: Any?] = ["n": Int64(8)]
        for (key, value) in try AttributeRoundTripTests.samples()[0] { given[key] = value.anyValue }
        let sample = try subject.insert("Sample", given)
        try sample.setValue(leGuin, forKey: "owner")
        try subject.context.save()
        let start = try subject.store.currentHistoryToken()
        let objects = [leGuin, butler, novel, classic, shelf, lathe, kindred, sample]
        let beforeUpdate = try objects.map(Self.keptValues)

        lathe["title"] = "The Lathe of Heaven"
        lathe["rating"] = nil as Double?
        try lathe.setValue(butler, forKey: "author")
        try lathe.setValue([classic], forKey: "tags")
        try shelf.setValue([kindred, lathe], forKey: "books")
        sample["str"] = "changed"
        sample["dec"] = Decimal(string: "-0.000001")
        sample["when"] = Date(timeIntervalSince1970: 1)
        sample["flag"] = true
        try sample.setValue(nil as ManagedObject?, forKey: "owner")
        try subject.context.save()
        let beforeDelete = try objects.map(Self.keptValues)
        subject.context.delete(lathe)
        subject.context.delete(sample)
        subject.context.delete(classic)
        try subject.context.save()

        let history = try subject.store.history(after: .token(start))
        try #require(history.count == 2)
        let written = ["Ebook": ["title", "rating", "author", "tags"], "Sample": ["str", "dec", "when", "flag", "owner"]]
        for change in history[0].changes {
            let index = try #require(objects.firstIndex { $0.objectID == change.changedObjectID })
            let entity = change.changedObjectID.entityName
            #expect(change.changeType == .update, "\(entity)")
            let updated = change.updatedProperties ?? []
            #expect(updated.isSuperset(of: written[entity] ?? []), "\(entity): \(updated)")
            let expected = beforeUpdate[index].filter { updated.contains($0.key) }
            #expect(try Self.normalised(change.previousValues, entity, in: subject.context.model) == expected, "\(factory) \(entity)")
        }
        #expect(Set(history[0].changes.map(\.changedObjectID)).isSuperset(of: [lathe.objectID, sample.objectID, shelf.objectID]))

        for id in [lathe.objectID, sample.objectID, classic.objectID] {
            let change = try #require(history[1].changes.first { $0.changedObjectID == id })
            let index = try #require(objects.firstIndex { $0.objectID == id })
            #expect(change.changeType == .delete)
            let kept = try Self.normalised(change.previousValues, id.entityName, in: subject.context.model)
            #expect(kept == beforeDelete[index], "\(factory) \(id): \(String(describing: kept)) against \(beforeDelete[index])")
        }
        #expect(history.flatMap(\.changes).allSatisfy { $0.changeType == .insert ? $0.previousValues == nil : true })
    }

    @Test(arguments: StoreFactories.trackingHistory)
    func anInsertKeepsNoPreviousValues(_ factory: StoreFactory) throws {
        let make = try #require(factory.makeTrackingHistory)
        let subject = try make(ConformanceModel.make())
        try subject.insert("Tag", ["n": Int64(1), "name": "novel"])
        try subject.context.save()
        let history = try subject.store.history(after: .token(nil))
        #expect(history.count == 1 && history[0].changes.count == 1)
        #expect(history[0].changes.first?.previousValues == nil)
    }

    // MARK: - Helpers

    /// The values the history keeps of `object`, as the object holds them now: unordered
    /// to-manys as sorted keys' IDs (a store keeps them in no particular order).
    static func keptValues(_ object: ManagedObject) throws -> [String: PersistentHistoryValue] {
        let entity = object.objectID.entityName
        let schema = try #require(object.managedObjectContext?.model.schema(for: entity))
        var values: [String: PersistentHistoryValue] = [:]
        for name in try #require(kept[entity]) {
            switch schema.properties[try #require(schema.propertyIndex[name])] {
            case .attribute:
                values[name] = .attribute(object.attributeValue(forKey: name))
            case .relationship(let relationship) where relationship.isToMany:
                let ids = object.objectIDs(forRelationshipNamed: name)
                values[name] = .objects(relationship.isOrdered ? ids : sorted(ids))
            case .relationship:
                values[name] = .object(object.objectIDs(forRelationshipNamed: name).first)
            }
        }
        return values
    }

    /// `values` with each unordered to-many's IDs sorted by key.
    static func normalised(_ values: [String: PersistentHistoryValue]?, _ entity: String, in model: ManagedObjectModel) throws
        -> [String: PersistentHistoryValue]?
    {
        guard var values else { return nil }
        let schema = try #require(model.schema(for: entity))
        for (name, value) in values {
            guard case .objects(let ids) = value, schema.relationship(named: name)?.isOrdered != true else { continue }
            values[name] = .objects(sorted(ids))
        }
        return values
    }

    private static func sorted(_ ids: [ObjectID]) -> [ObjectID] {
        ids.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
    }
}
