import Foundation
import Testing
import Persistence
import PersistenceSQLite

/// The values a change of the persistent history replaced (`previousValues`, beyond Core
/// Data's history): an update keeps the old values of what it wrote, a delete every stored
/// attribute, to-one relationship and join-table to-many, an insert none; a change that
/// wrote only the links of a to-many whose inverse is a to-one keeps an empty set.
@Suite struct PersistentHistoryPreviousValuesTests {
    @Test func updatesAndDeletesKeepTheValuesTheyReplaced() throws {
        let container = try PersistentContainer(
            model: PersistentHistoryTests.model, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        let shelf = try context.insertObject(forEntityName: "Shelf")
        shelf["name"] = "Fiction"
        let other = try context.insertObject(forEntityName: "Shelf")
        other["name"] = "Other"
        let dune = try PersistentHistoryTests.insertBook("1", title: "Dune", in: context)
        dune["pages"] = Int64(412)
        try dune.setValue(shelf, forKey: "shelf")
        try context.save()

        dune["title"] = "Dune Messiah"
        dune["pages"] = nil as Int64?
        try dune.setValue(other, forKey: "shelf")
        try context.save()
        context.delete(dune)
        try context.save()

        let history = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(history.count == 3)
        let insert = try #require(history[0].changes.first { $0.changedObjectID.entityName == "Book" })
        #expect(insert.previousValues == nil)

        let update = try #require(history[1].changes.first { $0.changedObjectID.entityName == "Book" })
        #expect(update.previousValues?["title"] == .attribute(.string("Dune")))
        #expect(update.previousValues?["pages"] == .attribute(.integer(412)))
        #expect(update.previousValues?["shelf"] == .object(shelf.objectID))
        #expect(update.previousValues?["isbn"] == nil, "isbn was not written")
        // The shelves' lists of books changed only their links: nothing to put back.
        let shelves = history[1].changes.filter { $0.changedObjectID.entityName == "Shelf" }
        #expect(shelves.allSatisfy { $0.previousValues == [:] }, "\(shelves)")

        let delete = try #require(history[2].changes.first { $0.changedObjectID.entityName == "Book" })
        #expect(delete.previousValues?["title"] == .attribute(.string("Dune Messiah")))
        #expect(delete.previousValues?["isbn"] == .attribute(.string("1")))
        #expect(delete.previousValues?["pages"] == .attribute(.null))
        #expect(delete.previousValues?["shelf"] == .object(other.objectID))
        #expect(delete.previousValues?["loud"] == nil, "a transient has no stored value")
    }

    @Test func aStoreWhoseHistoryBeganEarlierGainsTheColumnAtItsNextWrite() throws {
        let tracked = PersistentHistoryTests.TrackedStore()
        do {
            let container = try tracked.open()
            try PersistentHistoryTests.insertBook("1", title: "Dune", in: container.viewContext)
            try container.viewContext.save()
        }
        // As a release before previous values wrote it.
        let database = try Database(path: tracked.store.url.path)
        try database.execute("ALTER TABLE _historyChange DROP COLUMN previousValues")
        try database.close()

        let container = try tracked.open()
        let context = container.viewContext
        let before = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(before.count == 1 && before[0].changes.allSatisfy { $0.previousValues == nil })
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        book["title"] = "Dune Messiah"
        try context.save()
        let after = try context.fetchHistory(after: before.last?.token)
        #expect(after.first?.changes.first?.previousValues?["title"] == .attribute(.string("Dune")))
    }

    /// A many-to-many, whose links a join table keeps.
    static let linkedModel = ManagedObjectModel {
        Entity("Tag") {
            Attribute("name", .string)
            Relationship("books", to: "Book", inverse: "tags", toMany: true)
        }
        Entity("Book") {
            Attribute("title", .string)
            Relationship("tags", to: "Tag", inverse: "books", toMany: true)
        }
    }

    @Test func updatesAndDeletesKeepTheLinksAJoinTableHeld() throws {
        let container = try PersistentContainer(model: Self.linkedModel, storeURL: nil, tracksPersistentHistory: true)
        let context = container.viewContext
        let classic = try context.insertObject(forEntityName: "Tag")
        classic["name"] = "classic"
        let scifi = try context.insertObject(forEntityName: "Tag")
        scifi["name"] = "scifi"
        let dune = try context.insertObject(forEntityName: "Book")
        dune["title"] = "Dune"
        try dune.setValue([classic], forKey: "tags")
        try context.save()

        // Only the links change: the history still keeps what they were.
        try dune.setValue([scifi], forKey: "tags")
        try context.save()
        context.delete(dune)
        try context.save()

        let history = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(history.count == 3)
        let update = try #require(history[1].changes.first { $0.changedObjectID.entityName == "Book" })
        #expect(update.updatedProperties == ["tags"])
        #expect(update.previousValues == ["tags": .objects([classic.objectID])])
        // One side of a many-to-many keeps the links: a tag's list of books is not copied.
        let tags = history[1].changes.filter { $0.changedObjectID.entityName == "Tag" }
        #expect(tags.count == 2 && tags.allSatisfy { $0.previousValues == [:] }, "\(tags)")

        let delete = try #require(history[2].changes.first { $0.changedObjectID.entityName == "Book" })
        #expect(delete.previousValues?["tags"] == .objects([scifi.objectID]))
        #expect(delete.previousValues?["title"] == .attribute(.string("Dune")))
    }
}
