import BookCatalog
import Foundation
import Persistence

#if canImport(Glibc)
import Glibc
#endif

/// The writers workload (issue #26): 1, 2, 4 and 8 processes (`WriterProcess`) each making
/// `--edits` edits of the same few books at once, through a context each with optimistic
/// locking, on an SQLite file and (given a server) on a PostgreSQL database. It measures
/// saves per second from the moment they all begin to the last one's end, counts the
/// conflicts they report, and checks that no update was lost: the books' prices rose by
/// exactly the number of saves.
extension Bench {
    /// The books every writer edits.
    static let writersBooks = 10

    mutating func writersWorkload() throws {
        var stores: [(name: String, location: String, make: () throws -> Void, remove: () throws -> Void)] = []
        let file = path("writers.sqlite")
        let bench = self
        stores.append(("SQLite", file, { bench.removeStore(file) }, { bench.removeStore(file) }))
        if let server = try benchServer(for: "writers on PostgreSQL") {
            let database = "books_bench_writers"
            let url = try server.databaseURL(database).absoluteString
            stores.append(("PostgreSQL", url, { try server.recreate(database) }, { try server.drop(database) }))
        }
        let seeds = BookData(count: Self.writersBooks)
        var table = [
            "| Store | Writer processes | Saves (edits each) | Conflicts reported (median) | Saves/s min | Saves/s median | Saves/s max | Lost updates |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for store in stores {
            for processes in [1, 2, 4, 8] {
                var rates = Samples()
                var conflicts: [Int] = []
                var saves = 0
                for round in 1...max(1, min(options.rounds, 3)) {
                    try store.make()
                    _ = try PersistenceSide.insert(seeds, url: WriterProcess.storeURL(store.location))
                    let before = try priceTotal(store.location)
                    let result = try runWriters(processes, store: store.location)
                    let after = try priceTotal(store.location)
                    let risen = NSDecimalNumber(decimal: after - before).intValue
                    try expect(result.saves == processes * options.edits, "\(result.saves) saves, expected \(processes * options.edits)")
                    try expect(risen == result.saves, "the prices rose by \(risen) for \(result.saves) saves: updates were lost")
                    rates.add(Double(result.saves) / result.seconds)
                    conflicts.append(result.conflicts)
                    saves = result.saves
                    let rate = String(format: "%.0f", rates.seconds.last ?? 0)
                    let late = result.late > 0 ? ", \(result.late) began late" : ""
                    print("  writers on \(store.name), \(processes) processes, round \(round): \(result.saves) saves in "
                        + "\(milliseconds(result.seconds)) (\(rate)/s), \(result.conflicts) conflicts, none lost\(late)")
                }
                try store.remove()
                let cells = [
                    store.name, "\(processes)", "\(saves) (\(options.edits))", "\(conflicts.sorted()[conflicts.count / 2])",
                    String(format: "%.0f", rates.min), String(format: "%.0f", rates.median),
                    String(format: "%.0f", rates.seconds.max() ?? 0), "0",
                ]
                table.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        print("")
        print(table.joined(separator: "\n"))
    }

    /// The sum of every book's price in the store.
    func priceTotal(_ location: String) throws -> Decimal {
        let container = try PersistenceSide.open(url: WriterProcess.storeURL(location))
        defer { try? container.persistentStoreCoordinator.close() }
        return try container.viewContext.fetch(FetchRequest(entityName: "Book"))
            .compactMap { ($0 as? Book)?.price }.reduce(0, +)
    }

    /// Starts `count` writer processes on the store at once, waits for them all, and adds
    /// up what they report: saves, conflicts, the time from the moment they were told to
    /// begin to the last one's end, and how many were not ready by then.
    func runWriters(_ count: Int, store: String) throws -> (saves: Int, conflicts: Int, seconds: Double, late: Int) {
        let executable = Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
        // Time enough for every process to start and open the store before they begin.
        let start = Date().timeIntervalSince1970 + 1 + 0.25 * Double(count)
        let outputs = (0..<count).map { path("writer-\($0).txt") }
        var children: [pid_t] = []
        for writer in 0..<count {
            children.append(try spawn(
                executable, [WriterProcess.command, store, "\(writer)", "\(options.edits)", "\(start)"], output: outputs[writer]))
        }
        var failed: [String] = []
        for (writer, pid) in children.enumerated() {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if status != 0 { failed.append("writer \(writer) (status \(status))") }
        }
        guard failed.isEmpty else { throw ChildProcessError(description: "\(failed.joined(separator: ", ")) failed") }
        var total = (saves: 0, conflicts: 0, ended: start, late: 0)
        for output in outputs {
            let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
            try? FileManager.default.removeItem(atPath: output)
            guard fields.count == 4, let saves = Int(fields[0]), let conflicts = Int(fields[1]),
                let began = Double(fields[2]), let ended = Double(fields[3])
            else { throw ChildProcessError(description: "a writer wrote no report to \(output)") }
            total.saves += saves
            total.conflicts += conflicts
            total.ended = max(total.ended, ended)
            if began > start + 0.05 { total.late += 1 }
        }
        return (total.saves, total.conflicts, total.ended - start, total.late)
    }

    /// Starts `executable` with its stdout to the file `output`, stderr inherited.
    private func spawn(_ executable: String, _ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ChildProcessError(description: "Could not start \(executable): \(String(cString: strerror(spawned))).")
        }
        return pid
    }
}
