import Foundation
import PersistenceSQLite
import ProcessTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `books undo` and `books redo` of a seed of thousands of books: the catalogue comes back
/// exactly, the memory they take does not grow with the seed, and an undo stopped part-way
/// (killed, interrupted) leaves the catalogue exactly as it was.
///
/// The default sizes keep the run short (a few thousand books); `BOOKS_LARGE_UNDO=1` runs
/// the issue's own sizes (50,000 and 200,000 books, ≤ 64 MB), which take minutes.
@Suite(.serialized) struct LargeUndoTests {
    private static let isLarge = ProcessInfo.processInfo.environment["BOOKS_LARGE_UNDO"] == "1"
    /// The smaller seed, and the larger one (four times as many books).
    private static let sizes = isLarge ? (50_000, 200_000) : (1_500, 6_000)
    /// How much more memory four times the books may take, at most: the old undo, which
    /// held every change and object at once, took about 4.6 KB more per book.
    private static let allowedGrowth = isLarge ? 24 * 1_048_576 : 8 * 1_048_576

    /// A sandbox whose new catalogue holds the sample books and `count` synthetic ones, and
    /// the whole catalogue as `list --json` prints it.
    private static func seeded(_ count: Int) throws -> (BooksSandbox, String) {
        let sandbox = try BooksSandbox()
        let seed = try sandbox.run(["seed", "--count", String(count), "--batch-size", String(max(count / 4, 1))])
        #expect(seed.status == 0, "\(seed)")
        let list = try sandbox.run(["list", "--json"])
        #expect(list.status == 0, "\(list)")
        return (sandbox, list.stdout)
    }

    /// The UUIDs of a few books of a `list --json` text: first, middle, last.
    private static func sample(_ json: String) throws -> [String] {
        let books = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let picked = [0, books.count / 2, books.count - 1].filter { books.indices.contains($0) }
        return picked.compactMap { books[$0]["uuid"] as? String ?? books[$0]["id"] as? String }
    }

    /// Undoes and redoes a seed of `count` books, checking that each lands whole, and
    /// returns the peak memory of the undo and of the redo.
    private static func undoAndRedo(_ count: Int) throws -> (undo: Int, redo: Int) {
        let (sandbox, before) = try seeded(count)
        let sample = try sample(before)
        #expect(sample.count == 3)
        let shown = try sample.map { try sandbox.run(["show", $0]).stdout }
        let undo = try PeakMemoryRun(["--store", sandbox.store.path, "undo"], environment: sandbox.environment(), in: sandbox.directory)
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.stdout.hasPrefix("Undid books seed (#1") && undo.stdout.hasSuffix(": removed \(count + 459) books.\n"), "\(undo)")
        #expect(undo.stderr.isEmpty, "\(undo)")
        #expect(try sandbox.bookCount() == 0)
        let history = try sandbox.run(["history", "--limit", "2"])
        #expect(history.stdout.contains("books undo of #1"), "\(history)")

        let redo = try PeakMemoryRun(["--store", sandbox.store.path, "redo"], environment: sandbox.environment(), in: sandbox.directory)
        #expect(redo.status == 0, "\(redo)")
        #expect(redo.stdout.hasSuffix(": added \(count + 459) books.\n"), "\(redo)")
        let after = try sandbox.run(["list", "--json"])
        #expect(after.stdout == before, "the redo did not bring the catalogue back as it was")
        #expect(try sample.map { try sandbox.run(["show", $0]).stdout } == shown)
        #expect(try StoreAudit(store: sandbox.store).problems() == [])
        return (undo.peakBytes, redo.peakBytes)
    }

    @Test func undoAndRedoOfALargeSeedRestoreItExactlyInMemoryThatDoesNotGrowWithIt() throws {
        let small = try Self.undoAndRedo(Self.sizes.0)
        let large = try Self.undoAndRedo(Self.sizes.1)
        // Four times the books: the old undo took ~4.6 KB more per book (20 MB more here,
        // 924 MB at 200,000); a bounded one takes about the same.
        #expect(large.undo - small.undo < Self.allowedGrowth, "undo: \(small.undo / 1_048_576) MB for \(Self.sizes.0) books, \(large.undo / 1_048_576) MB for \(Self.sizes.1)")
        #expect(large.redo - small.redo < Self.allowedGrowth, "redo: \(small.redo / 1_048_576) MB for \(Self.sizes.0) books, \(large.redo / 1_048_576) MB for \(Self.sizes.1)")
        if Self.isLarge {
            #expect(large.undo <= 64 * 1_048_576 && large.redo <= 64 * 1_048_576, "undo \(large.undo / 1_048_576) MB, redo \(large.redo / 1_048_576) MB")
        }
    }

    /// Whether another connection cannot take the store's write lock now: the undo holds
    /// its one transaction open.
    private static func writeLockIsHeld(_ store: URL) -> Bool {
        guard let database = try? Database(path: store.path, mode: .mustExist, busyTimeout: 0) else { return false }
        defer { try? database.close() }
        do {
            try database.execute("BEGIN IMMEDIATE")
            try? database.execute("ROLLBACK")
            return false
        } catch {
            return true
        }
    }

    @Test(arguments: [(SIGKILL, "SIGKILL"), (SIGINT, "SIGINT")])
    func anUndoStoppedPartWayLeavesTheCatalogueExactlyAsItWas(signal: Int32, name: String) throws {
        let (sandbox, before) = try Self.seeded(4_000)
        let historyBefore = try sandbox.run(["history"]).stdout
        let process = Process()
        process.executableURL = try BooksRun.executable()
        process.arguments = ["--store", sandbox.store.path, "undo"]
        process.environment = sandbox.environment()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // The undo has taken its one write transaction, and (the lock seen twice, 50 ms
        // apart) is at work in it: stop it there.
        var seen = 0
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, seen < 2, Date() < deadline {
            seen = Self.writeLockIsHeld(sandbox.store) ? seen + 1 : 0
            usleep(50_000)
        }
        #expect(seen == 2 && process.isRunning, "the undo ended before it could be stopped: the test proved nothing")
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if signal == SIGKILL {
            #expect(process.terminationReason == .uncaughtSignal, "\(name): the undo finished instead of stopping")
        } else {
            // Caught: the undo stops at its next transaction or save, and says so.
            #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal, "\(name): \(stderr)")
            #expect(stderr == "Error: interrupted by \(name): nothing was undone; the catalogue is as it was.\n")
        }

        #expect(try StoreAudit(store: sandbox.store).problems() == [])
        #expect(try sandbox.run(["list", "--json"]).stdout == before, "\(name) mid-way changed the catalogue")
        #expect(try sandbox.run(["history"]).stdout == historyBefore)
        // Nothing is left half-done: the next undo takes the whole seed back.
        let undo = try sandbox.run(["undo"])
        #expect(undo.status == 0 && undo.stdout.hasPrefix("Undid books seed (#1"), "\(undo)")
        #expect(try sandbox.bookCount() == 0)
    }
}
