import Dispatch
import Foundation
import PersistenceTestSupport
import Synchronization
import Testing

import Persistence

/// Every `@unchecked Sendable` type and unsafe cast of the library, used from several threads
/// at once, sized to run in seconds: CI runs this suite under ThreadSanitizer and
/// AddressSanitizer (`.ci/run`), which report a race or a bad access that the assertions
/// here could not see.
///
/// - `ManagedObjectContext` and `StoreConnections`: contexts on their own queues saving,
///   fetching and merging on one coordinator (its writer and pooled readers).
/// - `ManagedObjectModel` and `ValueTransformers` (their `Locked` state): a frozen model read from
///   many threads while another is edited and a third frozen; transformers registered and
///   looked up at once.
/// - `AttributeValue.transformable`: app values crossing contexts through merges.
/// - `SlotErasure` and `SlotStorage` (the slots' unsafe casts): objects of generated-style
///   subclasses written and read by position on several queues at once.
/// - `BackgroundCheck`: the first write of several coordinators on one file, each checked
///   beside itself on a thread of its own.
@Suite struct ConcurrencyStressTests {
    /// A transformable value of the app's own: Sendable, Codable (stored as JSON).
    struct Shade: Sendable, Codable, Hashable {
        var name: String
        var level: Int
    }

    // MARK: - Contexts and connections

    @Test func contextsOnSeveralQueuesSaveFetchAndMergeTransformablesOnOneCoordinator() async throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
        let view = container.viewContext
        await view.perform { view.automaticallyMergesChangesFromParent = true }
        let writers = 4, perWriter = 60, batch = 15
        // Inserts with app values (typed setter) and plain ones (untyped), while readers fetch.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let context = container.newBackgroundContext(name: "writer \(writer)")
                    try await context.perform {
                        for start in stride(from: 0, to: perWriter, by: batch) {
                            for number in start..<start + batch {
                                let item = try context.insertObject(forEntityName: "Item")
                                try item.setValue("w\(writer)-\(number)", forKey: "code")
                                try item.setValue(Int64(writer), forKey: "i64")
                                try item.setTransformableValue(Shade(name: "w\(writer)", level: number), forKey: "payload")
                            }
                            try context.save()
                        }
                    }
                }
            }
            for reader in 0..<2 {
                group.addTask {
                    let context = container.newBackgroundContext(name: "reader \(reader)")
                    var last = 0
                    for _ in 0..<10 {
                        let count = try await context.perform {
                            try context.count(for: FetchRequest(entityName: "Item"))
                        }
                        // Each read sees whole saves, and saves only add.
                        #expect(count % batch == 0 && count >= last)
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        // The view context holds every item; then each writer changes its items' payloads,
        // which reach the view context by merges.
        let held = try await view.perform {
            try view.fetch(FetchRequest(entityName: "Item")).map(\.objectID)
        }
        #expect(held.count == writers * perWriter)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        let request = FetchRequest(entityName: "Item", predicate: try FetchPredicate("i64 == %@", Int64(writer)))
                        for item in try context.fetch(request) {
                            let old = try #require(item.decodedValue(forKey: "payload", as: Shade.self))
                            try item.setTransformableValue(Shade(name: old.name, level: old.level + 1000), forKey: "payload")
                        }
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let levels = try await view.perform {
            try held.map { id in try view.existingObject(with: id).decodedValue(forKey: "payload", as: Shade.self)?.level ?? -1 }
        }
        #expect(levels.allSatisfy { $0 >= 1000 }, "a merge left an old payload")
        #expect(Set(levels).count == perWriter)
    }

    // MARK: - Models and transformers

    @Test func aFrozenModelIsReadFromManyThreadsWhileAnotherIsEditedAndAThirdFrozen() throws {
        let frozen = everyTypeModel()
        try frozen.freeze()
        let edited = everyTypeModel()
        let freezing = everyTypeModel()
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<1500 {
                switch thread % 4 {
                case 0:
                    edited.modifyEntity(named: "Item") { item in
                        if round % 2 == 0 {
                            item.attributes.append(AttributeDescription(name: "extra\(thread)", type: .string))
                        } else {
                            item.attributes.removeAll { $0.name == "extra\(thread)" }
                        }
                    }
                case 1:
                    if round == 750 { try? freezing.freeze() }
                    if round > 750, !freezing.isFrozen { mismatches.add(1, ordering: .relaxed) }
                    _ = freezing.entity(named: "Book")
                default:
                    if frozen.entities.count != 4 || frozen.entity(named: "Ebook")?.parentEntityName != "Book"
                        || !frozen.isFrozen || frozen.copy() != frozen
                    {
                        mismatches.add(1, ordering: .relaxed)
                    }
                    _ = edited.entity(named: "Item")?.attributes.count
                }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(edited.entity(named: "Item")?.attributes.count == frozen.entity(named: "Item")?.attributes.count)
    }

    @Test func transformersAreRegisteredAndLookedUpFromManyThreads() {
        struct Tagged: ValueTransforming {
            let tag: Int
            func transformedValue(_ value: any Sendable) throws -> Data { Data([UInt8(tag)]) }
            func reverseTransformedValue(_ data: Data) throws -> any Sendable { Int(data.first ?? 0) }
        }
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let name = "ConcurrencyStressTests.\(thread)"
            for round in 0..<500 {
                ValueTransformers.register(Tagged(tag: thread), forName: name)
                let found = ValueTransformers.transformer(forName: name)
                if (try? found?.transformedValue(round)) != Data([UInt8(thread)]) { wrong.add(1, ordering: .relaxed) }
                _ = ValueTransformers.transformer(forName: "ConcurrencyStressTests.\((thread + 1) % 8)")
                ValueTransformers.unregister(name: name)
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }

    // MARK: - Slots of generated-style subclasses

    @Test func objectsOfGeneratedSubclassesAreWrittenAndReadByPositionOnSeveralQueues() async throws {
        let store = TemporaryStore()
        let container = try PersistentContainer(
            model: everyTypeModel(), storeURL: store.url,
            classes: ["Book": StressBook.self, "Ebook": StressEbook.self, "Item": StressItem.self])
        let perQueue = 80
        try await withThrowingTaskGroup(of: Int.self) { group in
            for queue in 0..<4 {
                group.addTask {
                    try await container.performBackgroundTask { context in
                        for number in 0..<perQueue {
                            let entity = number % 2 == 0 ? "Book" : "Ebook"
                            let book = try #require(try context.insertObject(forEntityName: entity) as? StressBook)
                            book.title = "q\(queue)-\(number)"
                            book.price = Decimal(number)
                            (book as? StressEbook)?.megabytes = Double(number) / 4
                            let item = try #require(try context.insertObject(forEntityName: "Item") as? StressItem)
                            item.code = "q\(queue)-\(number)"
                            item.payload = Shade(name: book.title, level: number)
                            item.payload = number % 3 == 0 ? nil : item.payload  // slots replaced in place
                        }
                        try context.save()
                        context.reset()
                        // Read back as faults fire: every slot through the erased storage.
                        var sum = 0
                        for book in try context.fetch(FetchRequest(entityName: "Book")) {
                            guard let book = book as? StressBook, book.title.hasPrefix("q\(queue)-") else { continue }
                            sum += NSDecimalNumber(decimal: book.price ?? 0).intValue
                            if let ebook = book as? StressEbook { sum += Int(ebook.megabytes * 4) }
                        }
                        for item in try context.fetch(FetchRequest(entityName: "Item")) {
                            guard let item = item as? StressItem, item.code.hasPrefix("q\(queue)-") else { continue }
                            sum += item.payload?.level ?? 0
                        }
                        return sum
                    }
                }
            }
            // Each queue: prices 0..<perQueue, ebooks' megabytes ×4 (odd numbers), payloads
            // not divisible by 3.
            let prices = (0..<perQueue).reduce(0, +)
            let ebooks = (0..<perQueue).filter { $0 % 2 == 1 }.reduce(0, +)
            let payloads = (0..<perQueue).filter { $0 % 3 != 0 }.reduce(0, +)
            for try await sum in group { #expect(sum == prices + ebooks + payloads) }
        }
    }

    // MARK: - Background store verification

    @Test func firstWritesOfSeveralCoordinatorsAreVerifiedBesideThemselvesAtOnce() async throws {
        let store = TemporaryStore()
        do {
            // The file, made once.
            let container = try PersistentContainer(model: everyTypeModel(), storeURL: store.url)
            _ = container.viewContext
        }
        let model = everyTypeModel()
        try model.freeze()
        let url = store.url
        let rounds = 3, coordinators = 4
        for round in 0..<rounds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<coordinators {
                    group.addTask {
                        // A new coordinator: its first write runs `PRAGMA quick_check` beside it.
                        let container = try PersistentContainer(model: model, storeURL: url)
                        try await container.performBackgroundTask { context in
                            let item = try context.insertObject(forEntityName: "Item")
                            try item.setValue("r\(round)-c\(index)", forKey: "code")
                            try context.save()
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let container = try PersistentContainer(model: model, storeURL: store.url)
        let count = try await container.performBackgroundTask { context in
            try context.count(for: FetchRequest(entityName: "Item"))
        }
        #expect(count == rounds * coordinators)
    }
}

// MARK: - Classes as the code generator writes them

/// `Book`, as generated: typed accessors by position.
class StressBook: ManagedObject {
    var title: String {
        get { value(at: 0, forKey: "title", default: "") }
        set { setAttribute(newValue, forKey: "title", at: 0) }
    }
    var price: Decimal? {
        get { value(at: 1, forKey: "price") }
        set { setAttribute(newValue, forKey: "price", at: 1) }
    }
}

/// `Ebook`, a generated subclass of a generated class.
final class StressEbook: StressBook {
    var megabytes: Double {
        get { value(at: 5, forKey: "megabytes", default: 0) }
        set { setAttribute(newValue, forKey: "megabytes", at: 5) }
    }
}

/// `Item`, as generated, with its transformable typed by its custom class.
final class StressItem: ManagedObject {
    var code: String {
        get { value(at: 14, forKey: "code", default: "") }
        set { setAttribute(newValue, forKey: "code", at: 14) }
    }
    var payload: ConcurrencyStressTests.Shade? {
        // The app value as set, or decoded from the JSON a fetch reads (no named transformer).
        get { transformedValue(at: 12, forKey: "payload") ?? decodedValue(forKey: "payload") }
        set { setTransformableAttribute(newValue, forKey: "payload", at: 12) }
    }
}
