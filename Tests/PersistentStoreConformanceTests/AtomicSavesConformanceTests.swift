import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Synchronization
import Testing

/// `ManagedObjectContext.performAtomicSaves` (the store's `performWriteGroup`): several saves
/// of a context are one transaction of the store, all of them or none, on every store of the
/// build; a store that cannot group them refuses before anything is written.
@Suite struct AtomicSavesConformanceTests {
    /// Whether the factory's store groups writes (the Core Data layout's store refuses).
    private static func groupsWrites(_ factory: StoreFactory) -> Bool {
        !factory.name.hasPrefix("CoreDataStore")
    }

    private static func names(_ subject: StoreUnderTest) throws -> [String] {
        try subject.context.fetch(FetchRequest(entityName: "Tag")).compactMap { $0.value(forKey: "name") as? String }
            .sorted()
    }

    @Test(arguments: StoreFactories.all)
    func savesInAGroupLandTogether(_ factory: StoreFactory) throws {
        guard Self.groupsWrites(factory) else { return }
        let subject = try factory.make(ConformanceModel.make())
        try subject.insert("Tag", ["n": Int64(1), "name": "before"])
        try subject.context.save()
        let saved = try subject.context.performAtomicSaves {
            for n in 2...4 {
                try subject.insert("Tag", ["n": Int64(n), "name": "group \(n)"])
                try subject.context.save()
                subject.context.reset()
            }
            return 3
        }
        #expect(saved == 3)
        #expect(try Self.names(subject) == ["before", "group 2", "group 3", "group 4"])
        if factory.keepsObjectsWhenReopened {
            try subject.reopen()
            #expect(try Self.names(subject) == ["before", "group 2", "group 3", "group 4"])
        }
    }

    @Test(arguments: StoreFactories.all)
    func aThrowInTheMiddleLeavesTheStoreAsItWas(_ factory: StoreFactory) throws {
        struct Stop: Error {}
        let subject = try factory.make(ConformanceModel.make())
        try subject.insert("Tag", ["n": Int64(1), "name": "before"])
        try subject.context.save()
        var ranBody = false
        #expect(throws: (any Error).self) {
            try subject.context.performAtomicSaves {
                ranBody = true
                try subject.insert("Tag", ["n": Int64(2), "name": "first save"])
                try subject.context.save()
                let before = try subject.context.fetch(FetchRequest(entityName: "Tag")).first { $0.value(forKey: "n") as? Int64 == 1 }
                if let before { subject.context.delete(before) }
                try subject.context.save()
                // Its own saves are visible to the context that made them.
                #expect(try Self.names(subject) == ["first save"])
                try subject.insert("Tag", ["n": Int64(3), "name": "unsaved"])
                throw Stop()
            }
        }
        #expect(ranBody == Self.groupsWrites(factory))
        // The context was reset: nothing of the group is left in it, nor in the store.
        #expect(!subject.context.hasChanges)
        #expect(try Self.names(subject) == ["before"])
        if factory.keepsObjectsWhenReopened {
            try subject.reopen()
            #expect(try Self.names(subject) == ["before"])
        }
        // The store still takes saves, in a group and outside one.
        if Self.groupsWrites(factory) {
            try subject.context.performAtomicSaves {
                try subject.insert("Tag", ["n": Int64(4), "name": "after"])
                try subject.context.save()
            }
        } else {
            try subject.insert("Tag", ["n": Int64(4), "name": "after"])
            try subject.context.save()
        }
        #expect(try Self.names(subject) == ["after", "before"])
    }

    /// A save the store refuses inside a group (a unique value already stored) is rolled
    /// back alone: the group's other saves, before and after it, commit together.
    @Test(arguments: StoreFactories.all)
    func aSaveRefusedInsideAGroupIsRolledBackAloneAndTheGroupGoesOn(_ factory: StoreFactory) throws {
        guard Self.groupsWrites(factory) else { return }
        let model = ManagedObjectModel {
            Entity("Code") {
                Attribute("code", .string)
                UniquenessConstraint("code")
            }
        }
        let subject = try factory.make(model)
        try subject.insert("Code", ["code": "taken"])
        try subject.context.save()
        subject.context.reset()
        try subject.context.performAtomicSaves {
            try subject.insert("Code", ["code": "a"])
            try subject.context.save()
            try subject.insert("Code", ["code": "taken"])
            #expect(throws: ConstraintConflictError.self) { try subject.context.save() }
            subject.context.rollback()
            try subject.insert("Code", ["code": "b"])
            try subject.context.save()
        }
        let codes = try subject.context.fetch(FetchRequest(entityName: "Code")).compactMap { $0.value(forKey: "code") as? String }
        #expect(codes.sorted() == ["a", "b", "taken"])
        if factory.keepsObjectsWhenReopened {
            try subject.reopen()
            let reopened = try subject.context.fetch(FetchRequest(entityName: "Code")).compactMap { $0.value(forKey: "code") as? String }
            #expect(reopened.sorted() == ["a", "b", "taken"])
        }
    }

    @Test(arguments: StoreFactories.all)
    func aStoreThatCannotGroupSavesRefusesBeforeWriting(_ factory: StoreFactory) throws {
        guard !Self.groupsWrites(factory) else { return }
        let subject = try factory.make(ConformanceModel.make())
        #expect(throws: PersistentStoreWriteGroupError.self) {
            try subject.context.performAtomicSaves { Issue.record("the body ran") }
        }
    }

    @Test(arguments: StoreFactories.all.filter(\.keepsObjectsWhenReopened))
    func anotherConnectionSeesNothingUntilTheGroupCommits(_ factory: StoreFactory) throws {
        guard Self.groupsWrites(factory) else { return }
        let subject = try factory.make(ConformanceModel.make())
        try subject.insert("Tag", ["n": Int64(1), "name": "before"])
        try subject.context.save()
        let other = try subject.openAnotherConnection()
        defer { try? other.store.close() }
        func othersCount() throws -> Int { try other.store.count(for: FetchRequest(entityName: "Tag")) }
        try subject.context.performAtomicSaves {
            try subject.insert("Tag", ["n": Int64(2), "name": "first"])
            try subject.context.save()
            try subject.insert("Tag", ["n": Int64(3), "name": "second"])
            try subject.context.save()
            #expect(try othersCount() == 1)
        }
        #expect(try othersCount() == 3)
    }

    @Test(arguments: StoreFactories.trackingHistory)
    func eachSaveOfAGroupIsATransactionOfTheHistoryAndARolledBackGroupLeavesNone(_ factory: StoreFactory) throws {
        struct Stop: Error {}
        guard Self.groupsWrites(factory), let make = factory.makeTrackingHistory else { return }
        let subject = try make(ConformanceModel.make())
        subject.context.transactionAuthor = "group"
        try subject.context.performAtomicSaves {
            for n in 1...3 {
                try subject.insert("Tag", ["n": Int64(n), "name": "tag \(n)"])
                try subject.context.save()
            }
        }
        #expect(throws: Stop.self) {
            try subject.context.performAtomicSaves {
                try subject.insert("Tag", ["n": Int64(9), "name": "rolled back"])
                try subject.context.save()
                throw Stop()
            }
        }
        let history = try subject.context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(history.map(\.author) == ["group", "group", "group"])
        #expect(history.map(\.changes.count) == [1, 1, 1])
        // Read in pieces: the transactions alone, then one at a time with its changes.
        let alone = try subject.context.fetchHistory(after: nil, resultType: .transactionsOnly, fetchLimit: 0)
        #expect(alone.map(\.transactionNumber) == history.map(\.transactionNumber))
        #expect(alone.allSatisfy { $0.changes.isEmpty })
        let second = try subject.context.fetchHistory(
            after: history[0].token, resultType: .transactionsAndChanges, fetchLimit: 1)
        #expect(second == [history[1]])
        let lastTwo = try subject.context.fetchHistory(after: history[0].token, resultType: .transactionsOnly, fetchLimit: 5)
        #expect(lastTwo.map(\.transactionNumber) == history.dropFirst().map(\.transactionNumber))
    }

    @Test(arguments: StoreFactories.all)
    func otherContextsHearOfTheSavesOnceAsOneWhenTheGroupCommitsAndNeverWhenItRollsBack(_ factory: StoreFactory) throws {
        struct Stop: Error {}
        guard Self.groupsWrites(factory) else { return }
        let subject = try factory.make(ConformanceModel.make())
        let heard = Mutex<[ContextDidSave]>([])
        let subscription = subject.context.persistentStoreCoordinator.saves.subscribe { save in
            heard.withLock { $0.append(save) }
        }
        defer { subscription.cancel() }
        let kept = try subject.insert("Tag", ["n": Int64(1), "name": "kept"])
        try subject.context.save()
        let keptID = kept.objectID
        heard.withLock { $0.removeAll() }
        try subject.context.performAtomicSaves {
            let gone = try subject.insert("Tag", ["n": Int64(2), "name": "gone"])
            try subject.context.save()
            subject.context.delete(gone)
            try subject.insert("Tag", ["n": Int64(3), "name": "new"])
            try subject.context.save()
            let again = try subject.context.existingObject(with: keptID)
            try again.setValue("kept, renamed", forKey: "name")
            try subject.context.save()
            #expect(heard.withLock { $0.isEmpty }, "a save was announced before the group committed")
        }
        let saves = heard.withLock { $0 }
        #expect(saves.count == 1)
        #expect(saves.first?.insertedObjectIDs.count == 1)
        #expect(saves.first?.updatedObjectIDs == [keptID])
        #expect(saves.first?.deletedObjectIDs.isEmpty == true)
        heard.withLock { $0.removeAll() }
        #expect(throws: Stop.self) {
            try subject.context.performAtomicSaves {
                try subject.insert("Tag", ["n": Int64(4), "name": "rolled back"])
                try subject.context.save()
                throw Stop()
            }
        }
        #expect(heard.withLock { $0.isEmpty }, "a rolled-back save was announced")
    }

    /// A group large enough that its announcement is held by table and key, in saves whose
    /// keys come in hash order: another context that merges it sees every insert, update
    /// and delete, and the announcement names exactly the objects the group changed.
    @Test(arguments: StoreFactories.all)
    func anotherContextMergesEveryChangeOfALargeGroup(_ factory: StoreFactory) throws {
        guard Self.groupsWrites(factory) else { return }
        let subject = try factory.make(ConformanceModel.make())
        for n in 1...300 { try subject.insert("Tag", ["n": Int64(n), "name": "old \(n)"]) }
        try subject.context.save()
        let other = ManagedObjectContext(
            coordinator: subject.context.persistentStoreCoordinator, classes: [:], concurrencyType: .privateQueue)
        let loaded = try other.performAndWait {
            try other.fetch(FetchRequest(entityName: "Tag")).map { ($0.objectID, $0["name"] as? String) }
        }
        #expect(loaded.count == 300)
        let heard = Mutex<[ContextDidSave]>([])
        let subscription = subject.context.persistentStoreCoordinator.saves.subscribe { save in
            heard.withLock { $0.append(save) }
        }
        defer { subscription.cancel() }
        var insertedIDs = Set<ObjectID>()
        var updatedIDs = Set<ObjectID>()
        var deletedIDs = Set<ObjectID>()
        try subject.context.performAtomicSaves {
            for chunk in 0..<4 {
                var made: [ManagedObject] = []
                for n in 0..<750 { made.append(try subject.insert("Tag", ["n": Int64(1_000 + chunk * 750 + n), "name": "new"])) }
                try subject.context.save()
                insertedIDs.formUnion(made.map(\.objectID))
                subject.context.reset()
            }
            // Every third old tag renamed, every other one of the rest deleted, over two saves.
            let old = try subject.context.fetch(FetchRequest(entityName: "Tag")).filter { ($0["n"] as? Int64 ?? 0) <= 300 }
            for (index, tag) in old.enumerated() {
                if index % 3 == 0 {
                    tag["name"] = "renamed"
                    updatedIDs.insert(tag.objectID)
                } else if index % 2 == 0 {
                    subject.context.delete(tag)
                    deletedIDs.insert(tag.objectID)
                }
                if index == 150 { try subject.context.save() }
            }
            try subject.context.save()
            // One of the new ones deleted again: the group inserted nothing of it.
            let dropped = try subject.context.existingObject(with: try #require(insertedIDs.first))
            subject.context.delete(dropped)
            try subject.context.save()
            insertedIDs.remove(dropped.objectID)
        }
        let saves = heard.withLock { $0 }
        #expect(saves.count == 1)
        let save = try #require(saves.first)
        #expect(save.insertedObjectIDs == insertedIDs)
        #expect(save.updatedObjectIDs == updatedIDs)
        #expect(save.deletedObjectIDs == deletedIDs)
        #expect(!save.isEmpty)
        var copy = save
        copy.contextName = save.contextName
        #expect(copy == save)
        other.mergeChanges(fromContextDidSave: save)
        let (names, count) = try other.performAndWait {
            let tags = try other.fetch(FetchRequest(entityName: "Tag"))
            let names = loaded.map { id, _ in (try? other.existingObject(with: id))?["name"] as? String }
            return (names, tags.count)
        }
        #expect(count == 300 - deletedIDs.count + insertedIDs.count)
        for ((id, _), name) in zip(loaded, names) {
            if updatedIDs.contains(id) {
                #expect(name == "renamed", "\(id) not merged")
            } else if deletedIDs.contains(id) {
                #expect(name == nil, "\(id) still reads as \(name ?? "")")
            } else {
                #expect(name?.hasPrefix("old ") == true, "\(id) changed")
            }
        }
    }
}
