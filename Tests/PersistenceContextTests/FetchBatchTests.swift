import Foundation
import Testing

import Persistence

@testable import PersistenceContext

/// `fetchBatchSize`, `includesPropertyValues` and `returnsObjectsAsFaults`: a fetch that
/// reads IDs only and returns faults, which load a batch (or one row) at a time as the
/// result is used, and mean what a plain fetch means.
@Suite struct FetchBatchTests {
    @Test func aBatchedFetchReadsIDsAndEachBatchLoadsInOneRead() throws {
        let (store, context) = try LargeFetchFixture.make(count: 100)
        var request = LargeFetchFixture.byTitle
        request.fetchBatchSize = 10
        let books = try context.fetch(request)
        #expect(books.count == 100)
        #expect(books.allSatisfy { $0.isFault })
        #expect(store.reads == ["objectIDs(for:)": 1])
        // The first use loads the first batch, and only it.
        #expect(books[0]["title"] as? String == "Book 000")
        #expect(store["rows(for:)"] == 1)
        #expect(books[0..<10].allSatisfy { !$0.isFault })
        #expect(books[10...].allSatisfy { $0.isFault })
        // Walking the rest reads once per batch, never one row at a time.
        let titles = books.map { $0["title"] as? String }
        #expect(titles == (0..<100).map { String(format: "Book %03d", $0) })
        #expect(store["rows(for:)"] == 10)
        #expect(store["row(for:)"] == 0)
        #expect(context.faultBatches.isEmpty)
    }

    @Test func aResultUsedInPartReadsOnlyTheBatchesUsed() throws {
        let (store, context) = try LargeFetchFixture.make(count: 100)
        var request = LargeFetchFixture.byTitle
        request.fetchBatchSize = 20
        let books = try context.fetch(request)
        _ = books[95]["title"]
        _ = books[3]["title"]
        #expect(store["rows(for:)"] == 2)
        #expect(books.filter { !$0.isFault }.count == 40)
    }

    @Test func objectsAlreadyLoadedComeBackAsTheyAreAndTheRestBatchUp() throws {
        let (store, context) = try LargeFetchFixture.make(count: 30)
        let cheap = try context.fetch(FetchRequest(entityName: "Book", predicate: try FetchPredicate("pages < 150")))
        #expect(!cheap.isEmpty)
        store.resetCounts()
        var request = LargeFetchFixture.byTitle
        request.fetchBatchSize = 8
        let books = try context.fetch(request)
        #expect(books.filter { !$0.isFault }.count == cheap.count)
        for book in cheap { #expect(books.contains { $0 === book }) }
        _ = books.map { $0["pages"] }
        let faults = 30 - cheap.count
        #expect(store["rows(for:)"] == (faults + 7) / 8)
        #expect(store["row(for:)"] == 0)
    }

    @Test func unsavedChangesCountAsInAPlainFetch() throws {
        let (_, context) = try LargeFetchFixture.make(count: 30)
        var request = LargeFetchFixture.byTitle
        request.predicate = try FetchPredicate("pages > 200")
        let plain = try context.fetch(request)
        let added = try context.insertObject(forEntityName: "Book")
        added["title"] = "Book 000a"
        added["pages"] = Int64(999)
        context.delete(plain[0])
        plain[1]["pages"] = Int64(1)
        let expected = try context.fetch(request)
        request.fetchBatchSize = 5
        #expect(try context.fetch(request).map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
        request.fetchBatchSize = 0
        request.includesPropertyValues = false
        #expect(try context.fetch(request).map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
        #expect(expected.contains { $0 === added })
    }

    @Test func withoutPropertyValuesEachFaultReadsItsOwnRow() throws {
        let (store, context) = try LargeFetchFixture.make(count: 20)
        for setting in [(includes: false, faults: false), (includes: true, faults: true)] {
            context.reset()
            store.resetCounts()
            var request = LargeFetchFixture.byTitle
            request.includesPropertyValues = setting.includes
            request.returnsObjectsAsFaults = setting.faults
            let books = try context.fetch(request)
            #expect(books.count == 20 && books.allSatisfy { $0.isFault })
            #expect(store.reads == ["objectIDs(for:)": 1])
            #expect(books[4]["title"] as? String == "Book 004")
            #expect(store["row(for:)"] == 1)
            #expect(books.filter { !$0.isFault }.count == 1)
        }
    }

    @Test func aBatchMemberDeletedElsewhereReadsAsGoneAndTheRestLoad() throws {
        let (_, context) = try LargeFetchFixture.make(count: 12)
        var request = LargeFetchFixture.byTitle
        request.fetchBatchSize = 12
        let books = try context.fetch(request)
        // Another context deletes a book the batch has not loaded yet.
        let other = ManagedObjectContext(coordinator: context.persistentStoreCoordinator, classes: [:])
        other.delete(try other.existingObject(with: books[5].objectID))
        try other.save()
        #expect(books[0]["title"] as? String == "Book 000")
        #expect(books.enumerated().allSatisfy { $0.offset == 5 || !$0.element.isFault })
        #expect(books[5]["title"] == nil)
        #expect(books[5].managedObjectContext == nil)
        #expect(books[11]["title"] as? String == "Book 011")
    }

    @Test func batchesOfObjectsNoLongerHeldAreForgotten() throws {
        let (_, context) = try LargeFetchFixture.make(count: 50)
        var request = LargeFetchFixture.byTitle
        request.fetchBatchSize = 10
        do {
            let books = try context.fetch(request)
            #expect(context.faultBatches.count == 50)
            _ = books[0]["title"]
            #expect(context.faultBatches.count == 40)
        }
        #expect(context.faultBatches.isEmpty)
        #expect(context.registry.isEmpty)
    }

    @Test func defaultStoreReadsGiveTheSameObjects() throws {
        let (store, context) = try LargeFetchFixture.make(count: 25, usesDefaultReads: true)
        var request = LargeFetchFixture.byTitle
        request.fetchBatchSize = 10
        let titles = try context.fetch(request).map { $0["title"] as? String }
        #expect(titles == (0..<25).map { String(format: "Book %03d", $0) })
        // One row at a time: what a store without a read by many keys costs.
        #expect(store["row(for:)"] == 25)
    }
}
