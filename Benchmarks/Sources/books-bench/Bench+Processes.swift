import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Workloads seen from outside, as a user times them: whole processes.
extension Bench {
    /// The release `books` executable.
    func booksBinary() throws -> String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [options.booksBinary].compactMap { $0 } + [
            here.appendingPathComponent("books").path,
            here.appendingPathComponent("../../../.build/release/books").standardizedFileURL.path,
        ]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        throw ChildProcessError(description: """
            No release books executable at \(candidates.joined(separator: " or ")); build it with \
            `swift build -c release --package-path Benchmarks --product books` or pass --books-binary.
            """)
    }

    func rawSeedBinary() throws -> String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = here.appendingPathComponent("raw-seed").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ChildProcessError(description: "No raw-seed executable at \(path); build the Benchmarks package's products.")
        }
        return path
    }

    /// 6. A cold `books search` process on the N-book store (wall time, start-up and model
    /// loading included). The first run warms the page cache; the rest are timed.
    mutating func coldSearchWorkload() throws {
        try ensureTemplates()
        let books = try booksBinary()
        let store = path("persistence-cold.sqlite")
        try copyStore(persistenceTemplate, to: store)
        let terms = searchTerms(count: options.rounds + 1)
        _ = try runChild(books, ["search", "--store", store, terms[0]])
        var p = Samples()
        for term in terms.dropFirst() {
            let result = try runChild(books, ["search", "--store", store, term])
            p.add(result.seconds)
            print("  books search \(term): \(milliseconds(result.seconds)), peak \(String(format: "%.1f", result.peakMegabytes)) MB")
        }
        record(ResultRow(
            workload: "6. cold `books search` process, word-piece terms", size: "\(options.books)", raw: nil, persistence: p,
            target: .absolute(0.060, label: "≤ 60 ms")))
        var selective = Samples()
        for term in rareTerms(count: options.rounds) {
            let result = try runChild(books, ["search", "--store", store, term])
            selective.add(result.seconds)
            print("  books search \(term): \(milliseconds(result.seconds))")
        }
        var version = Samples()
        for _ in 1...options.rounds { version.add(try runChild(books, ["--version"]).seconds) }
        record(ResultRow(
            workload: "6. cold `books search` process, selective terms", size: "\(options.books)", raw: nil,
            persistence: selective, target: .absolute(0.060, label: "≤ 60 ms"),
            note: "`books --version` alone: \(milliseconds(version.median))"))
    }

    /// The whole `books seed --count N` process against `raw-seed` inserting the same
    /// rows with their search index into a new WAL-mode store.
    mutating func seedWorkload() throws {
        let books = try booksBinary()
        let rawSeed = try rawSeedBinary()
        let shape = try searchShape()
        let dataFile = path("seed-\(options.books).tsv")
        if !FileManager.default.fileExists(atPath: dataFile) { try data().writeSeedFile(to: dataFile) }
        var shapeArguments: [String] = []
        if shape.book_index != 0 { shapeArguments.append("book-index") }
        if shape.author_index != 0 { shapeArguments.append("author-index") }
        let raw = path("raw-seed.sqlite")
        let persistence = path("persistence-seed.sqlite")
        var r = Samples()
        var p = Samples()
        for round in 1...max(1, min(options.rounds, 3)) {
            removeStore(raw)
            r.add(try runChild(rawSeed, [raw, dataFile] + shapeArguments).seconds)
            removeStore(persistence)
            p.add(try runChild(books, ["seed", "--count", "\(options.books)", "--store", persistence]).seconds)
            print("  seed round \(round): raw-seed \(milliseconds(r.seconds.last ?? 0)), books seed \(milliseconds(p.seconds.last ?? 0))")
        }
        record(ResultRow(
            workload: "`books seed --count N` process vs C program", size: "\(options.books)", raw: r, persistence: p,
            target: .ratio(1.5), note: "books also seeds its 459 real books"))
    }

    /// 7. Peak resident memory of `books list --by-month` over the big store.
    mutating func memoryWorkload() throws {
        let books = try booksBinary()
        let store = try bigStore()
        var p = Samples()
        var wall = Samples()
        for _ in 1...2 {
            let result = try runChild(books, ["list", "--by-month", "--store", store])
            p.add(result.peakMegabytes)
            wall.add(result.seconds)
            print("  books list --by-month: \(milliseconds(result.seconds)), peak \(String(format: "%.1f", result.peakMegabytes)) MB")
        }
        record(ResultRow(
            workload: "7. peak RSS of `books list --by-month`", size: "\(options.big)", raw: nil, persistence: p,
            target: .absolute(64, label: "≤ 64 MB"), note: "wall \(milliseconds(wall.median))", unit: .megabytes))
    }
}
