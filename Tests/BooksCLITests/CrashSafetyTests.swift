import Foundation
import Persistence
import ProcessTestSupport
import Testing
import PersistenceSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// `books seed --count 200000` killed with SIGKILL at random (seeded) moments: afterwards the
/// store opens, passes `integrity_check` and every ``StoreAudit`` check, holds whole
/// batches only, and `books list` works.
///
/// Every third round starts on a fresh store (kills then land in creating the schema and in
/// inserting); the others continue the store a killed process left with a hot WAL, and redo
/// the batches earlier rounds saved (an upsert by UUID). Set `CRASH_SEED` to replay other
/// moments and `CRASH_ROUNDS` to run more rounds.
@Suite(.serialized) struct CrashSafetyTests {
    static let batchSize = 1_000
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["CRASH_SEED"].flatMap { UInt64($0) } ?? 0x5EED_C0DE
    static let rounds = environment["CRASH_ROUNDS"].flatMap { Int($0) } ?? 10

    @Test func seedKilledAtRandomMomentsKeepsWholeBatches() throws {
        let sandbox = try BooksSandbox()
        let audit = StoreAudit(store: sandbox.store)
        let bundled = try Self.bundledUUIDs()
        var generator = SplitMix64(seed: Self.seed)
        var reached: [Int] = []
        for round in 0..<Self.rounds {
            // A quarter of the kills land while the store is opening or being created; the
            // others after a random number of commits (counted through `data_version`, so
            // that a loaded machine moves the moments, not what they hit) and then a random
            // part of a batch.
            let early = generator.next() % 4 == 0
            let commits = early ? 0 : 1 + Int(generator.next() % 5)
            let delay = Double(generator.next() % (early ? 150 : 120)) / 1000
            let context = "seed \(Self.seed) round \(round) killed \(delay) s after commit \(commits)"
            if round % 3 == 0 {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sandbox.store.path + suffix) }
            }
            let process = Process()
            process.executableURL = try BooksRun.executable()
            process.arguments = [
                "--store", sandbox.store.path, "seed", "--count", "200000",
                "--batch-size", String(Self.batchSize),
            ]
            process.environment = sandbox.environment()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if commits > 0 { Self.waitForCommits(commits, to: sandbox.store, while: process) }
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "\(context): the seed ended before the kill")

            guard FileManager.default.fileExists(atPath: sandbox.store.path) else {
                #expect(commits == 0, "\(context): no store file")
                continue
            }
            let problems = try audit.problems()
            #expect(problems.isEmpty, "\(context): \(problems)")

            let books = try audit.books()
            let seedBooks = books.filter { bundled.contains($0.uuid) }.count
            #expect(seedBooks == 0 || seedBooks == bundled.count, "\(context): \(seedBooks) of the seed file's books")
            let synthetic = books.filter { !bundled.contains($0.uuid) }
            let indices = synthetic.compactMap { $0.title.split(separator: " ").last.flatMap { Int($0) } }.sorted()
            #expect(indices.count == synthetic.count, "\(context): a synthetic title without its number")
            #expect(indices == Array(0..<indices.count), "\(context): synthetic books are not a prefix")
            #expect(indices.count % Self.batchSize == 0, "\(context): \(indices.count) synthetic books is a partial batch")
            #expect(synthetic.isEmpty || seedBooks == bundled.count, "\(context): synthetic books without the seed")
            reached.append(indices.count)

            let list = try sandbox.run(["list", "--limit", "2"])
            #expect(list.status == 0, "\(context): \(list)")
            #expect(list.stdoutLines.count == 3, "\(context): \(list)")
        }
        // The kills must have landed mid-seed, after some batches: else the test proved little.
        #expect(reached.contains { $0 > 0 }, "no round saved a synthetic batch: \(reached)")
        #expect(Set(reached).count > 2, "the kills all landed at the same point: \(reached)")
    }

    /// Waits until another connection has committed to the store `count` times (or the
    /// process ended, or 30 s passed), polling `PRAGMA data_version` every 2 ms.
    static func waitForCommits(_ count: Int, to store: URL, while process: Process) {
        let deadline = Date().addingTimeInterval(30)
        var watcher: StoreAudit.Watcher?
        var seen = 0
        var last: Int64?
        while seen < count, process.isRunning, Date() < deadline {
            if watcher == nil { watcher = StoreAudit(store: store).watcher() }
            if let version = watcher?.dataVersion() {
                if let last, version != last { seen += 1 }
                last = version
            }
            usleep(2_000)
        }
    }

    /// The UUIDs of the bundled seed file, read from the repository.
    static func bundledUUIDs() throws -> Set<String> {
        let url = BuiltProduct.repositoryRoot.appendingPathComponent("SeedData/books.json")
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]] ?? []
        return Set(entries.compactMap { $0["uuid"] as? String })
    }
}
