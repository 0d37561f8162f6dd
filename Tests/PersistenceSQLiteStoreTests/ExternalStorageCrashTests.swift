import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// Kills a process that is saving external data with SIGKILL at random moments and checks
/// that the files still match the rows: none missing ever, none orphaned after the next
/// writable open.
///
/// The writer is this test binary itself, run with a filter for `writerSavesUntilKilled`
/// and the store's path in `EXTERNAL_CRASH_STORE`; without that variable the writer test
/// does nothing. Set `EXTERNAL_CRASH_ROUNDS` for a longer run (default 10).
@Suite struct ExternalStorageCrashTests {
    static let storeVariable = "EXTERNAL_CRASH_STORE"

    @Test func killedWritersLeaveNoMissingAndNoOrphanedFiles() throws {
        let folder = try ExternalStorageFolder()
        let rounds = Int(ProcessInfo.processInfo.environment["EXTERNAL_CRASH_ROUNDS"] ?? "") ?? 10
        var random = SplitMix64(seed: 20_261_122)
        var killedWhileSaving = 0
        _ = try folder.open()  // the schema exists before the first writer starts
        for round in 0..<rounds {
            let savedBefore = try Self.lastBookKey(folder)
            let writer = try Self.startWriter(store: folder.storeURL.path)
            // Wait for the writer's first commit (however loaded the machine), then kill it
            // a random moment later, somewhere in the saves that follow.
            let deadline = Date().addingTimeInterval(20)
            while try Self.lastBookKey(folder) == savedBefore, writer.isRunning, Date() < deadline {
                usleep(5_000)
            }
            usleep(UInt32(random.next() % 150_000))
            if writer.isRunning { killedWhileSaving += 1 }
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()

            // Before any sweep: every reference has its file (orphans are allowed).
            do {
                let store = try folder.open(readOnly: true).viewContext.sqliteStore
                let check = try store.checkExternalData()
                #expect(check.missingFiles.isEmpty, "round \(round): \(check)")
                #expect(try folder.file.scalar("PRAGMA integrity_check") == .text("ok"))
            }
            // A writable open sweeps: files and rows now match exactly, and every value reads back.
            let context = try folder.open().viewContext
            let check = try context.checkExternalData()
            #expect(check.isConsistent, "round \(round): \(check)")
            for book in try context.fetch(FetchRequest(entityName: "Book")) {
                let title = try #require(book["title"] as? String)
                #expect(
                    book["cover"] as? Data == Self.cover(title: title), "round \(round): \(title)")
            }
        }
        #expect(killedWhileSaving == rounds, "the writer was still saving when killed, every round")
        let books = try folder.rows("SELECT count(*), sum(typeof(cover) = 'text') FROM Book")
        #expect(books[0][0].int64Value ?? 0 > 0, "the writers saved something")
        #expect(books[0][1].int64Value ?? 0 > 0, "some covers went to files")
    }

    /// The writer: saves batches of inserts, replacements and deletes until it is killed.
    @Test func writerSavesUntilKilled() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.storeVariable] else { return }
        let container = try PersistentContainer(
            model: ExternalStorageFolder.model(), storeURL: URL(fileURLWithPath: path))
        let context = container.viewContext
        var random = SplitMix64(seed: UInt64(getpid()))
        var mine: [ManagedObject] = []
        for batch in 0..<10_000 {
            for _ in 0..<3 {
                let book = try context.insertObject(forEntityName: "Book")
                Self.setCover(of: book, random: &random)
                book["isbn"] = UUID().uuidString
                mine.append(book)
            }
            if batch % 2 == 1, let book = mine.randomElement(using: &random) {
                Self.setCover(of: book, random: &random)
            }
            if batch % 3 == 2, let index = mine.indices.randomElement(using: &random) {
                context.delete(mine.remove(at: index))
            }
            try context.save()
        }
    }

    // MARK: - Helpers

    /// A cover whose seed and size are written in the title, so a reader can check it.
    static func setCover(of book: ManagedObject, random: inout SplitMix64) {
        let seed = random.next() % 1_000_000
        let size = ExternalDataStore.defaultThreshold - 500 + Int(random.next() % 2_000)
        book["title"] = "seed \(seed) size \(size)"
        book["cover"] = cover(title: "seed \(seed) size \(size)")
    }

    /// The cover a title describes.
    static func cover(title: String) -> Data? {
        let parts = title.split(separator: " ")
        guard parts.count == 4, let seed = UInt64(parts[1]), let size = Int(parts[3]) else {
            return nil
        }
        return ExternalStorageFolder.bytes(size, seed: seed)
    }

    /// The last primary key given to a book: it grows with every committed save.
    static func lastBookKey(_ folder: ExternalStorageFolder) throws -> Int64 {
        let rows = try folder.rows("SELECT lastKey FROM _primarykey WHERE tableName = 'Book'")
        return rows.first?.first?.int64Value ?? 0
    }

    /// Starts this test binary running only the writer test.
    static func startWriter(store: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [
            "--testing-library", "swift-testing", "--filter",
            "ExternalStorageCrashTests/writerSavesUntilKilled",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[storeVariable] = store
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
