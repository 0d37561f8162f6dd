import Foundation
import Testing

import Persistence

@testable import PersistenceContext

/// `delete(_:)` of many objects at once does what deleting them one by one does, reading
/// each relationship its delete rules walk once for all of them instead of once an object.
@Suite struct DeleteManyTests {
    /// The books with more than 150 pages, by title.
    private func doomed(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        var request = LargeFetchFixture.byTitle
        request.predicate = try FetchPredicate("pages > 150")
        return try context.fetch(request)
    }

    /// Each object of `entity` by name, with the titles of its books.
    private func books(of entity: String, in context: ManagedObjectContext) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for object in try context.fetch(FetchRequest(entityName: entity)) {
            let titles = object.objects(forKey: "books").compactMap { $0["title"] as? String }
            result[object["name"] as? String ?? ""] = titles.sorted()
        }
        return result
    }

    @Test func deletingManyAtOnceIsDeletingThemOneByOneInFewerReads() throws {
        let (oneByOneStore, oneByOne) = try LargeFetchFixture.make(count: 30)
        let (atOnceStore, atOnce) = try LargeFetchFixture.make(count: 30)
        let first = try doomed(oneByOne)
        let second = try doomed(atOnce)
        #expect(first.count == second.count && first.count > 10)
        oneByOneStore.resetCounts()
        atOnceStore.resetCounts()
        for book in first { oneByOne.delete(book) }
        atOnce.delete(second)
        let readsOneByOne = oneByOneStore.totalReads
        let readsAtOnce = atOnceStore.totalReads
        // One read a relationship: the authors, the tags, the chapters.
        #expect(readsAtOnce <= 3 && readsOneByOne >= first.count, "\(atOnceStore.reads) against \(oneByOneStore.reads)")
        // In memory, before the save: every tag and author has lost the same books.
        #expect(second.allSatisfy { $0.isDeleted })
        for entity in ["Tag", "Author"] {
            let expected = try books(of: entity, in: oneByOne)
            #expect(try books(of: entity, in: atOnce) == expected)
        }
        #expect(oneByOne.deletedObjects.count == atOnce.deletedObjects.count)
        #expect(Set(oneByOne.updatedObjects.map(\.entityName)) == Set(atOnce.updatedObjects.map(\.entityName)))
        try oneByOne.save()
        try atOnce.save()
        oneByOne.reset()
        atOnce.reset()
        for entity in ["Tag", "Author"] {
            let left = try books(of: entity, in: atOnce)
            let expected = try books(of: entity, in: oneByOne)
            #expect(left == expected)
            #expect(left.values.allSatisfy { $0.count < 30 })
        }
        #expect(try atOnce.count(for: FetchRequest(entityName: "Book")) == 30 - first.count)
    }

    @Test func deletingManyTakesMixedEntitiesDeletedObjectsAndFaults() throws {
        let (_, context) = try LargeFetchFixture.make(count: 12)
        let books = try doomed(context)
        let tags = try context.fetch(FetchRequest(entityName: "Tag"))
        context.delete(books[0])
        let fault = try context.existingObject(with: books[1].objectID)
        context.refresh(fault, mergeChanges: false)
        context.delete(Array(books) + [tags[0]])
        #expect(books.allSatisfy { $0.isDeleted } && tags[0].isDeleted && !tags[1].isDeleted)
        #expect(tags[1].objects(forKey: "books").allSatisfy { !$0.isDeleted })
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Tag")) == 3)
    }

    /// When the reads for all of them fail, each object's relationships are read on their
    /// own, as deleting one by one reads them: the same tags and authors lose the same books.
    @Test func aFailedReadForAllIsReadAgainObjectByObject() throws {
        let (_, oneByOne) = try LargeFetchFixture.make(count: 20)
        let (atOnceStore, atOnce) = try LargeFetchFixture.make(count: 20)
        for book in try doomed(oneByOne) { oneByOne.delete(book) }
        let deleted = try doomed(atOnce)
        atOnceStore.failing = ["destinationRows", "rows(for:)"]
        atOnce.delete(deleted)
        atOnceStore.failing = []
        #expect(atOnceStore["destinationRows"] >= 1 && atOnceStore["forEachDestinationRow"] >= deleted.count)
        #expect(deleted.allSatisfy { $0.isDeleted })
        for entity in ["Tag", "Author"] {
            let expected = try books(of: entity, in: oneByOne)
            #expect(try books(of: entity, in: atOnce) == expected)
        }
        try atOnce.save()
        #expect(try atOnce.count(for: FetchRequest(entityName: "Book")) == 20 - deleted.count)
    }
}
