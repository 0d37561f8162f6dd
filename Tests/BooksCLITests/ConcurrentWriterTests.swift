import Foundation
import Testing

/// Several `books` processes on one store at the same time: two writers each adding 500
/// books, one save per book (`seed --file … --batch-size 1`), sharing authors so that their
/// saves race on the same unique author rows, while readers run `list`.
@Suite(.serialized) struct ConcurrentWriterTests {
    @Test func twoWritersAndAReaderLoseNothingAndNeverFailLocked() throws {
        let sandbox = try BooksSandbox.seeded()
        let first = sandbox.directory.appendingPathComponent("first.json")
        let second = sandbox.directory.appendingPathComponent("second.json")
        // Authors overlap: both files use "Autor Ł. 0" … "Autor Ł. 6".
        try SeedCommandTests.seedFile(first: 100_000, count: 500).write(to: first)
        try SeedCommandTests.seedFile(first: 200_000, count: 500).write(to: second)

        let store = sandbox.store.path, environment = sandbox.environment()
        let started = Date()
        let results = ResultBox()
        let group = DispatchGroup()
        for file in [first, second] {
            group.enter()
            DispatchQueue.global().async {
                let run = Result { try BooksRun(["--store", store, "seed", "--file", file.path, "--batch-size", "1"], environment: environment) }
                results.append(writer: run)
                group.leave()
            }
        }
        group.enter()
        DispatchQueue.global().async {
            // Read while the writers write: each list must succeed and see whole books.
            for _ in 0..<8 {
                results.append(reader: Result { try BooksRun(["--store", store, "list", "--json"], environment: environment) })
                if results.writersDone == 2 { break }
            }
            group.leave()
        }
        group.wait()
        let seconds = Date().timeIntervalSince(started)

        for run in results.writers {
            let run = try run.get()
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.hasPrefix("Seeded 500 books; the catalogue has "), "\(run)")
            #expect(!run.stderr.contains("locked"), "\(run.stderr)")
        }
        #expect(results.readers.count >= 1)
        var previous = 0
        for run in results.readers {
            let run = try run.get()
            #expect(run.status == 0, "\(run)")
            #expect(!run.stderr.contains("locked"), "\(run.stderr)")
            // Readers see the catalogue grow, one whole book at a time, never shrink.
            let count = try run.jsonObjects().count
            #expect(count >= previous && count >= 459 && count <= 1_459, "reader saw \(count) after \(previous)")
            previous = count
        }

        let audit = StoreAudit(store: sandbox.store)
        #expect(try audit.problems() == [])
        let uuids = Set(try audit.books().map(\.uuid))
        #expect(uuids.count == 459 + 1_000)
        for index in [100_000, 100_499, 200_000, 200_499] {
            #expect(uuids.contains(String(format: "00000000-0000-4000-8000-%012X", index)), "book \(index) is missing")
        }
        let authorsOfBooks = try audit.distinctAuthorsOfBooks()
        #expect(try audit.count("Author") == authorsOfBooks, "an author without books")
        #expect(seconds < 60, "the writers took \(seconds) s")
    }

    @Test func twoProcessesCreatingOneStoreAtOnceBothLand() throws {
        for attempt in 0..<3 {
            let sandbox = try BooksSandbox()
            var files: [URL] = []
            for (index, first) in [300_000, 400_000].enumerated() {
                let file = sandbox.directory.appendingPathComponent("new-\(index).json")
                try SeedCommandTests.seedFile(first: first, count: 50).write(to: file)
                files.append(file)
            }
            let store = sandbox.store.path, environment = sandbox.environment(), paths = files.map(\.path)
            let results = ResultBox()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let arguments = ["--store", store, "seed", "--file", paths[index]]
                results.append(writer: Result { try BooksRun(arguments, environment: environment) })
            }
            for run in results.writers {
                let run = try run.get()
                #expect(run.status == 0, "attempt \(attempt): \(run)")
            }
            // Before the fix one creator failed ("table _metadata already exists") and
            // removed the files the other had just written.
            let audit = StoreAudit(store: sandbox.store)
            #expect(try audit.problems() == [], "attempt \(attempt)")
            #expect(try audit.count("Book") == 100, "attempt \(attempt)")
        }
    }

    /// What the concurrent runs returned, filled from several threads.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var writerRuns: [Result<BooksRun, any Error>] = []
        private var readerRuns: [Result<BooksRun, any Error>] = []

        var writers: [Result<BooksRun, any Error>] { lock.withLock { writerRuns } }
        var readers: [Result<BooksRun, any Error>] { lock.withLock { readerRuns } }
        var writersDone: Int { lock.withLock { writerRuns.count } }

        func append(writer run: Result<BooksRun, any Error>) { lock.withLock { writerRuns.append(run) } }
        func append(reader run: Result<BooksRun, any Error>) { lock.withLock { readerRuns.append(run) } }
    }
}
