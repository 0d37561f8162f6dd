import Foundation
import Persistence
import ProcessTestSupport
import Testing

/// `StaleSaveModelTests` with a second process: two contexts of this process and a
/// `context-editor` process share one store file, and seeded random sequences of inserts,
/// edits, deletes, fetches, `refreshAllObjects()` and saves under each merge policy end as
/// `StaleSaveOracle` says, save by save and row by row. The editor holds one book at a
/// time (the one it last inserted or fetched); the others it let go of unless they have
/// unsaved changes, which its next save writes.
///
/// `swift test` runs 40 sequences of 40 steps; `STALE_SAVE_PROCESS_SEQUENCES=N` runs N.
@Suite struct TwoProcessStaleSaveModelTests {
    static let sequences = ProcessInfo.processInfo.environment["STALE_SAVE_PROCESS_SEQUENCES"].flatMap { Int($0) } ?? 40
    static let attributes = ["title", "notes", "shelf"]
    /// The editor's model (see `ContextEditor`): books with a unique ISBN.
    static let model = ManagedObjectModel(entities: [
        EntityDescription(
            name: "Book",
            attributes: [
                AttributeDescription(name: "isbn", type: .string),
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "notes", type: .string),
                AttributeDescription(name: "shelf", type: .string),
            ],
            uniquenessConstraints: [["isbn"]])
    ])
    static let policies: [(MergePolicy, String)] = [
        (.error, "error"), (.rollback, "rollback"), (.mergeByPropertyStoreTrump, "storeTrump"),
        (.mergeByPropertyObjectTrump, "objectTrump"), (.overwrite, "overwrite"),
    ]

    @Test func everyStaleSaveOfTwoProcessesEndsAsCoreDataDocumentsIt() throws {
        for sequence in 0..<Self.sequences {
            var run = try Run(seed: 0x7A0 &+ UInt64(sequence))
            defer { run.finish() }
            try run.play(steps: 40)
            if run.failed { break }
        }
    }

    /// One sequence: the store file, two contexts here (0, 1), the editor (2), the oracle.
    struct Run {
        let directory: URL
        let store: URL
        let containers: [PersistentContainer]
        let editor: InteractiveProcess
        var held: [[Int: ManagedObject]] = [[:], [:]]
        /// The book the editor holds.
        var editorHolds: Int?
        var oracle = StaleSaveOracle(contexts: 3, attributes: TwoProcessStaleSaveModelTests.attributes)
        var random: SplitMix
        var nextNumber = 0
        var nextValue = 1
        var log: [String] = []
        let seed: UInt64
        var failed = false

        init(seed: UInt64) throws {
            self.seed = seed
            random = SplitMix(seed: seed)
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = directory.appendingPathComponent("books.sqlite")
            self.store = store
            containers = try (0..<2).map { _ in try PersistentContainer(model: TwoProcessStaleSaveModelTests.model, storeURL: store) }
            editor = try InteractiveProcess(try BuiltProduct.executable(named: "context-editor"))
            try ask("open \(store.path)", expecting: "ok")
        }

        func finish() {
            _ = try? editor.send("quit")
            _ = editor.finish()
            try? FileManager.default.removeItem(at: directory)
        }

        @discardableResult
        func ask(_ command: String, expecting expected: String? = nil) throws -> String {
            let answer = try editor.send(command)
            if let expected, answer != expected { throw EditorAnswer(command: command, answer: answer) }
            return answer
        }

        struct EditorAnswer: Error, CustomStringConvertible {
            let command: String
            let answer: String
            var description: String { "context-editor answered '\(answer)' to '\(command)'" }
        }

        mutating func fresh() -> String {
            defer { nextValue += 1 }
            return "v\(nextValue)"
        }

        mutating func play(steps: Int) throws {
            for _ in 0..<steps where !failed { try step() }
        }

        mutating func step() throws {
            let c = Int(random.next(below: 3))
            let roll = random.next(below: 100)
            if c == 2 { return try editorStep(roll) }
            let context = containers[c].viewContext
            let heldNumbers = held[c].keys.filter { oracle.holds($0, in: c) }.sorted()
            switch roll {
            case 0..<8 where nextNumber < 3:
                let number = nextNumber
                nextNumber += 1
                let object = try context.insertObject(forEntityName: "Book")
                object["isbn"] = "\(number)"
                held[c][number] = object
                oracle.insert(number, values: Dictionary(uniqueKeysWithValues: Self.noValues), in: c)
                log.append("c\(c) insert #\(number)")
            case 8..<50 where !heldNumbers.isEmpty:
                let number = heldNumbers[Int(random.next(below: UInt64(heldNumbers.count)))]
                let attribute = oracle.attributes[Int(random.next(below: 3))]
                let value = fresh()
                held[c][number]?[attribute] = value
                oracle.set(.text(value), for: attribute, of: number, in: c)
                log.append("c\(c) set #\(number).\(attribute) = \(value)")
            case 50..<55 where !heldNumbers.isEmpty:
                let number = heldNumbers[Int(random.next(below: UInt64(heldNumbers.count)))]
                if let object = held[c][number] { context.delete(object) }
                oracle.delete(number, in: c)
                log.append("c\(c) delete #\(number)")
            case 55..<75:
                for object in try context.fetch(FetchRequest(entityName: "Book")) {
                    if let number = (object["isbn"] as? String).flatMap(Int.init), !object.isInserted { held[c][number] = object }
                }
                oracle.fetchAll(in: c)
                log.append("c\(c) fetch")
            default:
                try save(c)
            }
        }

        static let noValues: [(String, StaleSaveOracle.Value)] = TwoProcessStaleSaveModelTests.attributes.map { ($0, .none) }

        mutating func editorStep(_ roll: UInt64) throws {
            let holds = editorHolds.map { oracle.holds($0, in: 2) } ?? false
            switch roll {
            case 0..<8 where nextNumber < 3:
                let number = nextNumber
                nextNumber += 1
                try ask("insert \(number)", expecting: "ok")
                oracle.insert(number, values: Dictionary(uniqueKeysWithValues: Self.noValues), in: 2)
                editorHolds = number
                log.append("editor insert #\(number)")
            case 8..<45 where holds:
                let attribute = oracle.attributes[Int(random.next(below: 3))]
                let value = fresh()
                try ask("set \(attribute) \(value)", expecting: "ok")
                if let number = editorHolds { oracle.set(.text(value), for: attribute, of: number, in: 2) }
                log.append("editor set #\(editorHolds ?? -1).\(attribute) = \(value)")
            case 45..<50 where holds:
                try ask("delete", expecting: "ok")
                if let number = editorHolds { oracle.delete(number, in: 2) }
                log.append("editor delete #\(editorHolds ?? -1)")
            case 50..<70 where nextNumber > 0:
                let number = Int(random.next(below: UInt64(nextNumber)))
                let answer = try ask("fetch \(number)")
                if answer == "ok" {
                    oracle.fetch(number, in: 2)
                    editorHolds = number
                }
                log.append("editor fetch #\(number): \(answer)")
            case 70..<76:
                // Faults are loaded at once (`show`), as the oracle loads them.
                try ask("refreshAll", expecting: "ok")
                _ = try ask("show")
                oracle.refreshAll(in: 2)
                log.append("editor refreshAll")
            default:
                let (policy, name) = TwoProcessStaleSaveModelTests.policies[Int(random.next(below: 5))]
                try ask("policy \(name)", expecting: "ok")
                let answer = try ask("save")
                let expected = oracle.save(in: 2, policy: policy)
                log.append("editor save \(name): \(answer)")
                if expected.conflict {
                    check(answer.hasPrefix("conflict: "), "the editor's save should conflict, answered \(answer)")
                } else {
                    check(answer == "ok", "the editor's save should succeed, answered \(answer)")
                }
                try compareStore()
            }
            // The editor keeps no unchanged object but the one it holds.
            oracle.letGo(in: 2, keeping: editorHolds)
        }

        mutating func save(_ c: Int) throws {
            let (policy, name) = TwoProcessStaleSaveModelTests.policies[Int(random.next(below: 5))]
            let context = containers[c].viewContext
            context.mergePolicy = policy
            var threw: (any Error)?
            do { try context.save() } catch { threw = error }
            let expected = oracle.save(in: c, policy: policy)
            log.append("c\(c) save \(name): " + (threw.map { "threw \(type(of: $0))" } ?? "saved"))
            if expected.conflict {
                check(threw is MergeConflictError, "the save should throw MergeConflictError, got \(threw.map { "\($0)" } ?? "success")")
            } else {
                check(threw == nil, "the save should succeed, threw \(threw.map { "\($0)" } ?? "")")
                for (number, object) in held[c] where object.managedObjectContext == nil || object.isDeleted {
                    held[c][number] = nil
                }
            }
            try compareStore()
        }

        /// Every row of the store against the oracle's, read by a container of its own.
        mutating func compareStore() throws {
            let reader = try PersistentContainer(model: TwoProcessStaleSaveModelTests.model, storeURL: store)
            var stored: [Int: [String: StaleSaveOracle.Value]] = [:]
            for object in try reader.viewContext.fetch(FetchRequest(entityName: "Book")) {
                guard let number = (object["isbn"] as? String).flatMap(Int.init) else { continue }
                stored[number] = Dictionary(uniqueKeysWithValues: oracle.attributes.map { attribute in
                    (attribute, (object[attribute] as? String).map { .text($0) } ?? .none)
                })
            }
            let expected = oracle.rows.mapValues(\.values)
            check(stored == expected, "store \(stored.sorted { $0.key < $1.key }) != oracle \(expected.sorted { $0.key < $1.key })")
        }

        mutating func check(_ condition: Bool, _ message: String) {
            guard !condition, !failed else { return }
            failed = true
            let steps = log.suffix(30).joined(separator: "\n")
            Issue.record("seed \(seed): \(message)\n\(steps)")
        }
    }
}
