#if PostgreSQL
import Dispatch
import Foundation
import ProcessTestSupport
import Testing

/// Eight client processes share one PostgreSQL catalogue, as eight machines would: each
/// makes 200 edits of the same four books through a context of its own with optimistic
/// locking, and none of the 1,600 edits is lost.
///
/// Each process is a `context-editor` (the tests' context on a store of books, driven line
/// by line). An edit is a counter in a book's notes read in one step and written back
/// plus one in the next, so that other processes save in between: a save that conflicts
/// must answer `conflict:` (the test then makes the edit again on fresh values), and one
/// that answers `ok` must not have overwritten another's. The total of the counters is
/// then exactly the number of saves that answered `ok`.
///
/// Runs against the server `PERSISTENCE_TEST_POSTGRES` names (`.ci/run` starts one).
@Suite(.enabled(if: PostgreSQLTestDatabase.server != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLProcessWritersTests {
    static let isbns = ["isbn-1", "isbn-2", "isbn-3", "isbn-4"]

    @Test func eightProcessesLoseNoEditAndReportEveryConflict() throws {
        let database = try PostgreSQLTestDatabase()
        let editor = try BuiltProduct.executable(named: "context-editor")
        let seeder = try InteractiveProcess(editor)
        try #require(try seeder.send("open \(database.url)") == "ok")
        for isbn in Self.isbns {
            for command in ["insert \(isbn)", "set notes 0", "save"] { try #require(try seeder.send(command) == "ok") }
        }
        #expect(seeder.finish() == 0)

        let processes = 8
        let editsPerProcess = 200
        let tally = WriterTally()
        let url = database.url
        // A thread per process (not concurrentPerform, which runs as many at once as there
        // are cores), so that all eight edit at once.
        let group = DispatchGroup()
        for client in 0..<processes {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let process = try InteractiveProcess(editor)
                    guard try process.send("open \(url)") == "ok" else { throw WriterFailure("could not open the store") }
                    for edit in 0..<editsPerProcess {
                        // Process c edits books c, c+1, …: every book by every process.
                        let isbn = Self.isbns[(client + edit) % Self.isbns.count]
                        while try !Self.increment(isbn, in: process, tally: tally) {}
                    }
                    guard process.finish() == 0 else { throw WriterFailure("the process did not exit 0") }
                } catch {
                    tally.fail("client \(client): \(error)")
                }
            }
        }
        group.wait()

        #expect(tally.failures.isEmpty, "\(tally.failures)")
        #expect(tally.saves == processes * editsPerProcess)
        let reader = try InteractiveProcess(editor)
        try #require(try reader.send("open \(database.url)") == "ok")
        var total = 0
        for isbn in Self.isbns {
            try #require(try reader.send("fetch \(isbn)") == "ok")
            total += try Self.counter(in: try reader.send("show"))
        }
        #expect(reader.finish() == 0)
        #expect(total == processes * editsPerProcess, "no edit was lost (\(tally.conflicts) conflicts reported)")
        #expect(tally.conflicts > 0, "the processes' edits overlapped")
    }

    /// One attempt at adding 1 to the book's counter: read it, write it back plus one and
    /// save. Returns whether the save was made; a conflict is counted and returns false.
    ///
    /// - Throws: `WriterFailure` for any answer other than those.
    static func increment(_ isbn: String, in process: InteractiveProcess, tally: WriterTally) throws -> Bool {
        for command in ["reset", "fetch \(isbn)"] {
            let answer = try process.send(command)
            guard answer == "ok" else { throw WriterFailure("\(command) answered \(answer)") }
        }
        let count = try counter(in: try process.send("show"))
        let answer = try process.send("set notes \(count + 1)")
        guard answer == "ok" else { throw WriterFailure("set answered \(answer)") }
        let saved = try process.send("save")
        if saved == "ok" {
            tally.saved()
            return true
        }
        guard saved.hasPrefix("conflict: ") else { throw WriterFailure("save answered \(saved)") }
        tally.conflicted()
        return false
    }

    /// The counter in a `show` answer (`isbn=… title=… notes=N shelf=…`).
    static func counter(in shown: String) throws -> Int {
        guard let field = shown.split(separator: " ").first(where: { $0.hasPrefix("notes=") }),
            let count = Int(field.dropFirst("notes=".count))
        else { throw WriterFailure("show answered \(shown)") }
        return count
    }
}

/// What the writer processes did, counted from the test's threads.
final class WriterTally: @unchecked Sendable {
    private let lock = NSLock()
    private var savesMade = 0
    private var conflictsReported = 0
    private var failed: [String] = []

    var saves: Int { lock.withLock { savesMade } }
    var conflicts: Int { lock.withLock { conflictsReported } }
    var failures: [String] { lock.withLock { failed } }

    func saved() { lock.withLock { savesMade += 1 } }
    func conflicted() { lock.withLock { conflictsReported += 1 } }
    func fail(_ reason: String) { lock.withLock { failed.append(reason) } }
}

/// A writer process that answered something other than the test expects.
struct WriterFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
#endif
