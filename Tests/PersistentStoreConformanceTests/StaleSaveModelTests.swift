import Foundation
import Persistence
import PersistenceModel
import Testing

/// Model-based: seeded random sequences of inserts, batch inserts, edits (by the context or
/// pushed from a child context), deletes, saves under each merge policy, refreshes and
/// fetches by three contexts on separate connections to one store (as
/// three processes would be), run against the store and against `StaleSaveOracle`, written
/// from Apple's documentation of snapshots and merge policies. After every save, whether it
/// threw a `MergeConflictError` and every row of the store must be the oracle's.
///
/// `swift test` runs 120 sequences of 40 steps per store; `STALE_SAVE_SEQUENCES=N` runs N
/// (the long form: thousands), and `STALE_SAVE_SEED` starts elsewhere.
@Suite struct StaleSaveModelTests {
    static let sequences = ProcessInfo.processInfo.environment["STALE_SAVE_SEQUENCES"].flatMap { Int($0) } ?? 120
    static let firstSeed = ProcessInfo.processInfo.environment["STALE_SAVE_SEED"].flatMap { UInt64($0) } ?? 0x5A1E
    static let steps = 40
    static let contextCount = 3

    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Book",
            attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "price", type: .integer32),
                AttributeDescription(name: "notes", type: .string),
            ])
    ])

    @Test(arguments: StoreFactories.reopenable)
    func everyStaleSaveEndsAsCoreDataDocumentsIt(factory: StoreFactory) throws {
        for sequence in 0..<Self.sequences {
            let seed = Self.firstSeed &+ UInt64(sequence)
            var run = try Run(factory: factory, seed: seed)
            try run.play(steps: Self.steps)
            if run.failed { break }  // one failing sequence says enough; its seed reproduces it
        }
    }

    /// One sequence: the store, its contexts, the oracle, and the log that names a failure.
    struct Run {
        let subject: StoreUnderTest
        var contexts: [ManagedObjectContext] = []
        /// The objects each context holds (a context keeps no unchanged object alive).
        var held: [[Int: ManagedObject]]
        var oracle = StaleSaveOracle(contexts: StaleSaveModelTests.contextCount, attributes: ["title", "price", "notes"])
        /// Saved objects' IDs by number, and numbers by ID.
        var ids: [Int: ObjectID] = [:]
        var numbers: [ObjectID: Int] = [:]
        var random: SplitMix
        var nextNumber = 0
        var nextValue: Int32 = 1
        var log: [String] = []
        let seed: UInt64
        var failed = false
        /// Each context's last save as `ContextDidSave` announced it.
        var lastSave: [(context: Int, save: ContextDidSave)] = []
        let readerStore: any PersistentStore
        let reader: PersistentStoreCoordinator

        init(factory: StoreFactory, seed: UInt64) throws {
            self.seed = seed
            random = SplitMix(seed: seed)
            subject = try factory.make(StaleSaveModelTests.model)
            held = Array(repeating: [:], count: StaleSaveModelTests.contextCount)
            for _ in 0..<StaleSaveModelTests.contextCount {
                contexts.append(try subject.openAnotherConnection().context)
            }
            let (store, context) = try subject.openAnotherConnection()
            readerStore = store
            reader = context.persistentStoreCoordinator
        }

        mutating func play(steps: Int) throws {
            for _ in 0..<steps {
                try step()
                if failed { return }
            }
        }

        mutating func fresh() -> Int32 {
            defer { nextValue += 1 }
            return nextValue
        }

        mutating func step() throws {
            let c = Int(random.next(below: UInt64(contexts.count)))
            let context = contexts[c]
            let heldNumbers = held[c].keys.filter { oracle.holds($0, in: c) }.sorted()
            // Few objects (at most four), so that contexts often hold the same ones.
            switch random.next(below: 100) {
            case 0..<8 where nextNumber < 4:
                let number = nextNumber
                nextNumber += 1
                let value = fresh()
                let values: [String: StaleSaveOracle.Value] = ["title": .text("t\(value)"), "price": .number(value), "notes": .none]
                let object = try context.insertObject(forEntityName: "Book")
                object["title"] = "t\(value)"
                object["price"] = value
                held[c][number] = object
                oracle.insert(number, values: values, in: c)
                log.append("c\(c) insert #\(number)")
            case 8..<46 where !heldNumbers.isEmpty:
                let number = heldNumbers[Int(random.next(below: UInt64(heldNumbers.count)))]
                let attribute = oracle.attributes[Int(random.next(below: 3))]
                let value = fresh()
                let oracleValue: StaleSaveOracle.Value = attribute == "price" ? .number(value) : .text("\(attribute.prefix(1))\(value)")
                held[c][number]?[attribute] = attribute == "price" ? value as Any : "\(attribute.prefix(1))\(value)"
                oracle.set(oracleValue, for: attribute, of: number, in: c)
                log.append("c\(c) set #\(number).\(attribute) = \(oracleValue)")
            case 46..<50 where !heldNumbers.isEmpty:
                let number = heldNumbers[Int(random.next(below: UInt64(heldNumbers.count)))]
                if let object = held[c][number] { context.delete(object) }
                oracle.delete(number, in: c)
                log.append("c\(c) delete #\(number)")
            case 50..<58 where !heldNumbers.isEmpty:
                let number = heldNumbers[Int(random.next(below: UInt64(heldNumbers.count)))]
                let merge = random.next(below: 2) == 0
                guard let object = held[c][number], !object.isInserted else { return }
                context.refresh(object, mergeChanges: merge)
                _ = object["title"]  // loads a fault now, as the oracle does
                if object.managedObjectContext == nil { held[c][number] = nil }
                oracle.refresh(number, mergeChanges: merge, in: c)
                log.append("c\(c) refresh #\(number) mergeChanges: \(merge)")
            case 58..<62 where nextNumber < 4:
                // A batch insert writes a row with no object: a later fetch gives it one.
                let number = nextNumber
                nextNumber += 1
                let value = fresh()
                // Through a context of its own on this connection: `save(inserting:)` also
                // saves the context's pending changes.
                let batch = ManagedObjectContext(coordinator: context.persistentStoreCoordinator, classes: [:])
                try batch.save(inserting: [
                    BatchInsertRequest(entityName: "Book", objects: [["title": "t\(value)", "price": value]])
                ])
                let found = try ManagedObjectContext(coordinator: reader, classes: [:]).fetch(
                    FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == %@", "t\(value)")))
                guard let id = found.first?.objectID else { return check(false, "the batch-inserted row is not there") }
                ids[number] = id
                numbers[id] = number
                oracle.batchInsert(number, values: ["title": .text("t\(value)"), "price": .number(value), "notes": .none])
                log.append("c\(c) batch insert #\(number)")
            case 62..<66 where !heldNumbers.isEmpty:
                // A child context's edit, pushed into this context by the child's save.
                let number = heldNumbers[Int(random.next(below: UInt64(heldNumbers.count)))]
                guard let object = held[c][number], !object.isInserted else { return }
                let attribute = oracle.attributes[Int(random.next(below: 3))]
                let value = fresh()
                let oracleValue: StaleSaveOracle.Value = attribute == "price" ? .number(value) : .text("\(attribute.prefix(1))\(value)")
                let child = context.newChildContext(concurrencyType: .privateQueue)
                let id = object.objectID
                try child.performAndWait {
                    let copy = try child.existingObject(with: id)
                    copy[attribute] = attribute == "price" ? value as Any : "\(attribute.prefix(1))\(value)"
                    try child.save()
                }
                oracle.set(oracleValue, for: attribute, of: number, in: c)
                log.append("c\(c) child sets #\(number).\(attribute) = \(oracleValue)")
            case 66..<70 where lastSave.contains { $0.context != c }:
                // `mergeChanges(fromContextDidSave:)` of another context's last save: its
                // updated objects are refreshed here, its deleted ones leave.
                guard let other = lastSave.last(where: { $0.context != c }) else { return }
                context.mergeChanges(fromContextDidSave: other.save)
                for id in other.save.updatedObjectIDs {
                    guard let number = numbers[id], let object = held[c][number], !object.isInserted else { continue }
                    _ = object["title"]  // loads a fault now, as the oracle does
                    oracle.refresh(number, mergeChanges: object.hasChanges, in: c)
                    if object.managedObjectContext == nil { held[c][number] = nil }
                }
                for id in other.save.deletedObjectIDs {
                    guard let number = numbers[id] else { continue }
                    held[c][number] = nil
                    oracle.discard(number, in: c)
                }
                log.append("c\(c) merges the save of c\(other.context)")
            case 70..<80:
                for object in try context.fetch(FetchRequest(entityName: "Book")) {
                    if let number = numbers[object.objectID] { held[c][number] = object }
                }
                oracle.fetchAll(in: c)
                log.append("c\(c) fetch")
            default:
                try save(c)
            }
        }

        mutating func save(_ c: Int) throws {
            let policies: [MergePolicy] = [.error, .rollback, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite]
            let policy = policies[Int(random.next(below: UInt64(policies.count)))]
            let context = contexts[c]
            context.mergePolicy = policy
            let pendingInserts = held[c].filter { $0.value.isInserted }
            var threw: (any Error)?
            let box = SaveBox()
            let observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectIDsNotification, object: context, queue: nil
            ) { notification in
                box.save = notification.userInfo?[ContextDidSave.userInfoKey] as? ContextDidSave
            }
            do { try context.save() } catch { threw = error }
            NotificationCenter.default.removeObserver(observer)
            if let save = box.save {
                lastSave.removeAll { $0.context == c }
                lastSave.append((c, save))
            }
            let expected = oracle.save(in: c, policy: policy)
            log.append("c\(c) save \(policy): " + (threw.map { "threw \(type(of: $0))" } ?? "saved"))
            if expected.conflict {
                check(threw is MergeConflictError, "the save should throw MergeConflictError, got \(threw.map { "\($0)" } ?? "success")")
            } else {
                check(threw == nil, "the save should succeed, threw \(threw.map { "\($0)" } ?? "")")
                for (number, object) in pendingInserts {
                    ids[number] = object.objectID
                    numbers[object.objectID] = number
                }
                // Objects the save took out of the context are held no more.
                for (number, object) in held[c] where object.managedObjectContext == nil || object.isDeleted {
                    held[c][number] = nil
                }
            }
            try compareStore()
        }

        /// Every row of the store against the oracle's, read by a connection of its own.
        mutating func compareStore() throws {
            let context = ManagedObjectContext(coordinator: reader, classes: [:])
            var stored: [Int: [String: StaleSaveOracle.Value]] = [:]
            for object in try context.fetch(FetchRequest(entityName: "Book")) {
                guard let number = numbers[object.objectID] else {
                    check(false, "the store holds an object the oracle never saved: \(object.objectID)")
                    continue
                }
                stored[number] = [
                    "title": (object["title"] as? String).map { .text($0) } ?? .none,
                    "price": object.value(forKey: "price", as: Int32.self).map { .number($0) } ?? .none,
                    "notes": (object["notes"] as? String).map { .text($0) } ?? .none,
                ]
            }
            check(stored == oracle.rows.mapValues(\.values), "store \(stored.sorted { $0.key < $1.key }) != oracle \(oracle.rows.mapValues(\.values).sorted { $0.key < $1.key })")
        }

        mutating func check(_ condition: Bool, _ message: String) {
            guard !condition, !failed else { return }
            failed = true
            let steps = log.suffix(25).joined(separator: "\n")
            Issue.record("seed \(seed): \(message)\n\(steps)")
        }
    }
}

/// The save a notification announced, kept for the run.
private final class SaveBox: @unchecked Sendable {
    var save: ContextDidSave?
}

/// SplitMix64: a small, seedable generator, so that a failing sequence is replayed by its seed.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: UInt64) -> UInt64 { next() % bound }
}
