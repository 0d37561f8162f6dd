import Foundation
import Testing
@testable import PersistenceContext
import PersistenceModel
@testable import PersistenceStore

/// The announcement `performAtomicSaves` holds until its commit (`HeldAnnouncement`, keys in
/// runs by table and entity) says exactly what the saves' own announcements folded one into
/// the next (`ContextDidSave.append(_:)`) say, and holds a large command's keys in a few runs.
@Suite struct HeldAnnouncementTests {
    private static let book = ObjectID.Scope(entityName: "Book", rootName: "Book", storeIdentifier: "S")
    private static let ebook = ObjectID.Scope(entityName: "Ebook", rootName: "Book", storeIdentifier: "S")
    private static let author = ObjectID.Scope(entityName: "Author", rootName: "Author", storeIdentifier: "S")
    private static let otherStore = ObjectID.Scope(entityName: "Book", rootName: "Book", storeIdentifier: "T")

    private static func randomID(_ random: inout SplitMix64) -> ObjectID {
        let scopes = [book, ebook, author, otherStore]
        let scope = scopes[Int(random.next() % UInt64(scopes.count))]
        let roll = random.next() % 100
        // Mostly keys near each other (runs that grow, split and merge), a few far away, a
        // few temporary.
        let key: ObjectID.Key =
            roll < 3 ? .temporary(random.next() % 20) : .permanent(roll < 10 ? Int64(bitPattern: random.next()) : Int64(random.next() % 120))
        return ObjectID(scope: scope, key: key)
    }

    private static func randomSave(_ random: inout SplitMix64) -> ContextDidSave {
        func ids() -> Set<ObjectID> { Set((0..<Int(random.next() % 40)).map { _ in randomID(&random) }) }
        let inserted = ids()
        let updated = ids()
        let deleted = ids()
        return ContextDidSave(
            insertedObjectIDs: inserted, updatedObjectIDs: updated, deletedObjectIDs: deleted,
            contextName: random.next() % 2 == 0 ? nil : "name \(random.next() % 3)")
    }

    @Test(arguments: 0..<40)
    func aHeldGroupAnnouncesWhatItsSavesFoldedTogetherWould(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let origin = ObjectIdentifier(HeldAnnouncementTests.Marker.self)
        var folded = ContextDidSave(
            insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: [], contextName: "group", origin: origin)
        var held = HeldAnnouncement(contextName: "group", origin: origin)
        for _ in 0..<Int(random.next() % 30) {
            let save = Self.randomSave(&random)
            folded.append(save)
            held.append(save)
        }
        let announced = ContextDidSave(held: held)
        #expect(announced.insertedObjectIDs == folded.insertedObjectIDs)
        #expect(announced.updatedObjectIDs == folded.updatedObjectIDs)
        #expect(announced.deletedObjectIDs == folded.deletedObjectIDs)
        #expect(announced.contextName == folded.contextName)
        #expect(announced.isEmpty == folded.isEmpty)
        #expect(announced == folded)
        // The IDs keep their entity: a subentity's object is announced as the subentity's.
        for id in announced.insertedObjectIDs {
            let original = folded.insertedObjectIDs.first { $0 == id }
            #expect(original?.entityName == id.entityName)
        }
    }

    @Test func aHeldAnnouncementReadsAsAnyOtherAndChangesLikeOne() {
        var held = HeldAnnouncement(contextName: "group", origin: nil)
        let ids = (1...10).map { ObjectID(scope: Self.book, key: .permanent($0)) }
        held.append(ContextDidSave(insertedObjectIDs: Set(ids)))
        var announced = ContextDidSave(held: held)
        let copy = announced
        announced.insertedObjectIDs.remove(ids[0])
        announced.deletedObjectIDs.insert(ids[0])
        #expect(announced.insertedObjectIDs == Set(ids.dropFirst()))
        #expect(announced.deletedObjectIDs == [ids[0]])
        #expect(copy.insertedObjectIDs == Set(ids), "a copy changed with the original")
        #expect(copy.deletedObjectIDs.isEmpty)
    }

    @Test func keysOfALargeCommandTakeAFewRuns() {
        var keys = PrimaryKeyRuns()
        // A redo's saves: 200 chunks of 1,000 consecutive keys, each in hash order.
        for chunk in 0..<200 {
            for key in (Int64(chunk * 1_000)..<Int64(chunk * 1_000 + 1_000)).shuffled() { keys.insert(key) }
        }
        #expect(keys.count == 200_000)
        #expect(keys.runCount == 1, "keys that touch are one run, whatever their order")
        var sorted = PrimaryKeyRuns()
        for key in Int64(0)..<200_000 { sorted.insert(key) }
        #expect(sorted.runCount == 1)
        let removed = sorted.remove(100_000)
        #expect(removed && !sorted.contains(100_000) && sorted.runCount == 2)
        let removedAgain = sorted.remove(100_000)
        #expect(!removedAgain)
        let putBack = sorted.insert(100_000)
        #expect(putBack && sorted.runCount == 1)
        let ends = sorted.insert(Int64.max) && sorted.insert(Int64.min)
        #expect(ends && sorted.count == 200_002)
        var all: [Int64] = []
        sorted.forEach { all.append($0) }
        #expect(all.count == 200_002 && Set(all).count == 200_002)
    }

    private enum Marker {}
}
