import BookCatalog
import Foundation
import GRDB
import Persistence

/// `books-bench --memory-child grdb|persistence STORE`: the memory a side needs to fetch and
/// read every book of STORE, measured in a process of its own (in one process the allocator
/// reuses what earlier workloads freed). After a warm-up fetch of 100 books (code, model,
/// connections and statements loaded), it notes its resident size, resets its high-water
/// mark, fetches every book, reads every field, and prints
/// `books kB-before kB-peak kB-after` (`VmRSS`, `VmHWM`, `VmRSS` of /proc/self/status).
enum MemoryChild {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, ["grdb", "persistence", "app-grdb", "app-persistence"].contains(arguments[0]) else {
            FileHandle.standardError.write(
                Data("usage: books-bench --memory-child grdb|persistence|app-grdb|app-persistence STORE\n".utf8))
            return 64
        }
        do {
            let line: String
            switch arguments[0] {
            case "grdb": line = try grdb(arguments[1])
            case "app-grdb": line = try appGRDB(arguments[1])
            case "app-persistence": line = try appPersistence(arguments[1])
            default: line = try persistence(arguments[1])
            }
            print(line)
            return 0
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }

    static func grdb(_ path: String) throws -> String {
        let pool = try GRDBSide.open(path)
        _ = try pool.read { db in try GRDBBook.limit(100).fetchAll(db) }
        let before = status("VmRSS")
        resetPeak()
        let books = try pool.read { db in try GRDBBook.fetchAll(db) }
        for book in books { GRDBSide.checksum &+= GRDBSide.read(book) }
        let line = "\(books.count) \(before) \(status("VmHWM")) \(status("VmRSS"))"
        withExtendedLifetime(books) {}
        return line
    }

    static func persistence(_ path: String) throws -> String {
        var before = 0
        var after = (peak: 0, resident: 0)
        let count = try PersistenceSide.fetchAllHeld(path: path) {
            before = status("VmRSS")
            resetPeak()
        } afterFetch: {
            after = (status("VmHWM"), status("VmRSS"))
        }
        return "\(count) \(before) \(after.peak) \(after.resident)"
    }

    /// The app-shaped comparison's GRDB side (issue #47), measured as `grdb(_:)`.
    static func appGRDB(_ path: String) throws -> String {
        let pool = try AppGRDBSide.open(path)
        _ = try pool.read { db in try AppGRDBBook.limit(100).fetchAll(db) }
        let before = status("VmRSS")
        resetPeak()
        let books = try pool.read { db in try AppGRDBBook.fetchAll(db) }
        for book in books { AppGRDBSide.checksum &+= AppGRDBSide.read(book) }
        let line = "\(books.count) \(before) \(status("VmHWM")) \(status("VmRSS"))"
        withExtendedLifetime(books) {}
        return line
    }

    /// The app-shaped comparison's Persistence side (issue #47), measured as `persistence(_:)`.
    static func appPersistence(_ path: String) throws -> String {
        var before = 0
        var after = (peak: 0, resident: 0)
        let count = try AppPersistenceSide.fetchAllHeld(path: path) {
            before = status("VmRSS")
            resetPeak()
        } afterFetch: {
            after = (status("VmHWM"), status("VmRSS"))
        }
        return "\(count) \(before) \(after.peak) \(after.resident)"
    }

    /// A field of /proc/self/status in kB, 0 if absent.
    static func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// Resets `VmHWM` to the current resident size (Linux: "5" to /proc/self/clear_refs).
    static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }
}

extension Bench {
    /// Peak memory per fetched book: GRDB records against Persistence objects, each sample a
    /// child process (`MemoryChild`) on the N-book store, the sides alternating.
    mutating func grdbMemoryWorkload() throws {
        try ensureGRDBTemplate()
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
        let output = path("memory-child.txt")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var peak = (grdb: Samples(), persistence: Samples())
        var held = (grdb: Samples(), persistence: Samples())
        for round in 1...max(3, options.rounds) {
            for side in round % 2 == 0 ? ["persistence", "grdb"] : ["grdb", "persistence"] {
                let store = side == "grdb" ? grdbTemplate : persistenceTemplate
                let process = try runChild(me, ["--memory-child", side, store], output: output)
                let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
                    .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                guard fields.count == 4, fields[0] > 0 else {
                    throw ChildProcessError(description: "The memory child for \(side) printed no measurement.")
                }
                let perBook = { (kilobytes: Double) in (kilobytes - fields[1]) * 1024 / fields[0] }
                if side == "grdb" {
                    peak.grdb.add(perBook(fields[2]))
                    held.grdb.add(perBook(fields[3]))
                } else {
                    peak.persistence.add(perBook(fields[2]))
                    held.persistence.add(perBook(fields[3]))
                }
                print("  memory round \(round), \(side): " + String(
                    format: "%.0f books, before %.1f MB, peak +%.0f B a book, held +%.0f B a book, process peak %.1f MB",
                    fields[0], fields[1] / 1024, perBook(fields[2]), perBook(fields[3]), process.peakMegabytes))
            }
        }
        memory = MemoryRow(
            books: options.books, grdbPeak: peak.grdb, persistencePeak: peak.persistence, grdbHeld: held.grdb,
            persistenceHeld: held.persistence)
        print(String(
            format: "→ peak growth per book: GRDB %.0f B, Persistence %.0f B (goal ≤ 460 B)",
            peak.grdb.median, peak.persistence.median))
    }
}
