import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **History** clause: a store that tracks history records each write
/// transaction's changes under the IDs its reads make, and refuses what it cannot answer.
@Suite struct HistoryConformanceTests {
    @Test(arguments: StoreFactories.trackingHistory)
    func eachSaveIsRecordedUnderTheIDsTheStoreReads(_ factory: StoreFactory) throws {
        let make = try #require(factory.makeTrackingHistory)
        let subject = try make(ConformanceModel.make())
        #expect(subject.store.tracksHistory)
        let author = try subject.insert("Author", ["n": Int64(1), "name": "Le Guin"])
        let ebook = try subject.insert("Ebook", ["n": Int64(2), "title": "Lathe", "megabytes": 1.5])
        let tag = try subject.insert("Tag", ["n": Int64(3), "name": "novel"])
        try ebook.setValue(author, forKey: "author")
        try subject.context.save()
        ebook["title"] = "The Lathe of Heaven"
        subject.context.delete(tag)
        try subject.context.save()

        let history = try subject.store.history(after: .token(nil))
        #expect(history.count == 2)
        let stored = Set(try ["Author", "Book", "Tag"].flatMap { try subject.store.objectIDs(for: FetchRequest(entityName: $0)) })
        #expect(Set(history[0].changes.map(\.changedObjectID)) == stored.union([tag.objectID]))
        #expect(history[0].changes.first { $0.changedObjectID == ebook.objectID }?.changedObjectID.entityName == "Ebook")
        let second = Dictionary(uniqueKeysWithValues: history[1].changes.map { ($0.changedObjectID, $0) })
        #expect(second[ebook.objectID]?.changeType == .update)
        #expect(second[ebook.objectID]?.updatedProperties?.contains("title") == true)
        #expect(second[tag.objectID]?.changeType == .delete)
        #expect(try subject.store.currentHistoryToken() == history[1].token)
        #expect(try subject.store.history(after: .token(history[1].token)).isEmpty)
    }

    @Test(arguments: StoreFactories.all)
    func aStoreWithoutHistoryRefusesHistoryRequests(_ factory: StoreFactory) throws {
        let subject = try factory.make(ConformanceModel.make())
        #expect(!subject.store.tracksHistory)
        #expect(throws: PersistentHistoryError.self) { try subject.store.history(after: .token(nil)) }
        #expect(throws: PersistentHistoryError.self) { try subject.store.currentHistoryToken() }
    }

    @Test(arguments: StoreFactories.trackingHistory)
    func aTokenOfAnotherStoreOrAFutureDateIsRefused(_ factory: StoreFactory) throws {
        let make = try #require(factory.makeTrackingHistory)
        let mine = try make(ConformanceModel.make())
        let theirs = try make(ConformanceModel.make())
        let token = try theirs.store.currentHistoryToken()
        #expect(throws: PersistentHistoryError.tokenFromAnotherStore(tokenStore: token.storeIdentifier, store: mine.store.identifier)) {
            try mine.store.history(after: .token(token))
        }
        let tomorrow = Date().addingTimeInterval(86_400)
        #expect(throws: PersistentHistoryError.dateInTheFuture(tomorrow)) { try mine.store.history(after: .date(tomorrow)) }
    }
}
