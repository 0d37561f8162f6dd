import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Issue #47's seed rows (`--only seed-c`): `books seed --count N` on a new catalogue against
/// `catalog-seed`, a C program doing the same work (the same tables, indexes, search index,
/// history rows and links, committed in the same batches), and against its `--tight` mode
/// (the Book table with a unique UUID index, a title index and the FTS5 index, no history,
/// one transaction). Wall time and peak resident memory of each whole process, the three
/// rotating from round to round.
extension Bench {
    func catalogSeedBinary() throws -> String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = here.appendingPathComponent("catalog-seed").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ChildProcessError(description: "No catalog-seed executable at \(path); build the Benchmarks package's products.")
        }
        return path
    }

    /// Writes the lines `catalog-seed` reads: the sample books then `syntheticCount` synthetic
    /// ones, as `books seed --count` adds them, canonical forms folded here (untimed).
    func writeCatalogSeedFile(samples: [SeedBook], syntheticCount: Int, to path: String) throws {
        var text = "S \(samples.count) \(syntheticCount)\n"
        func add(_ book: SeedBook) {
            let color = book.color.map { c in
                String(format: "%02x%02x%02x%02x%02x", 1, c.red, c.green, c.blue, c.alpha)
            } ?? ""
            let fields = [
                book.uuid.uuidString, book.title, CanonicalText.fold(book.title), book.author,
                CanonicalText.fold(book.author), "\(book.publishDate.timeIntervalSince1970)",
                DecimalText.format(book.price), color, book.datePrecision.rawValue, book.language ?? "",
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        samples.forEach(add)
        for i in 0..<syntheticCount { add(SyntheticBooks.book(i)) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    mutating func seedCWorkload() throws {
        let books = try booksBinary()
        let cSeed = try catalogSeedBinary()
        let n = options.books
        let dataFile = path("catalog-seed-\(n).tsv")
        // Kept in the work directory for later runs and for profiling catalog-seed alone.
        if !FileManager.default.fileExists(atPath: dataFile) {
            try writeCatalogSeedFile(samples: try sampleBooks(), syntheticCount: n, to: dataFile)
        }
        let (cStore, tightStore, booksStore) = (path("catalog-seed-c.sqlite"), path("catalog-seed-tight.sqlite"), path("catalog-seed-books.sqlite"))
        var time = (c: Samples(), tight: Samples(), books: Samples())
        var rss = (c: Samples(), tight: Samples(), books: Samples())
        /// Runs side `k` (0: catalog-seed, 1: its tight mode, 2: books seed) once.
        func run(_ k: Int) throws {
            let (store, executable, arguments) =
                k == 0 ? (cStore, cSeed, [cStore, dataFile])
                : k == 1 ? (tightStore, cSeed, [tightStore, dataFile, "--tight"])
                : (booksStore, books, ["seed", "--count", "\(n)", "--store", booksStore])
            removeStore(store)
            let child = try runChild(executable, arguments)
            switch k {
            case 0: (time.c, rss.c) = (time.c + child.seconds, rss.c + child.peakMegabytes)
            case 1: (time.tight, rss.tight) = (time.tight + child.seconds, rss.tight + child.peakMegabytes)
            default: (time.books, rss.books) = (time.books + child.seconds, rss.books + child.peakMegabytes)
            }
        }
        for round in 1...max(3, min(options.rounds, 5)) {
            for k in 0..<3 { try run((round - 1 + k) % 3) }
            print(String(
                format: "  seed round %d: catalog-seed %@ (%.1f MB), tight %@ (%.1f MB), books seed %@ (%.1f MB) (load %@)",
                round, milliseconds(time.c.seconds.last ?? 0), rss.c.seconds.last ?? 0,
                milliseconds(time.tight.seconds.last ?? 0), rss.tight.seconds.last ?? 0,
                milliseconds(time.books.seconds.last ?? 0), rss.books.seconds.last ?? 0, loadAverage()))
        }
        // The stores hold the same rows: a check that the C program does the same work.
        let counts = try [cStore, booksStore].map { store in
            try RawSide.countRows(store, tables: ["Book", "Author", "Author_books", "_historyChange", "_historyTransaction"])
        }
        print("  rows (Book, Author, Author_books, _historyChange, _historyTransaction): catalog-seed \(counts[0]), books \(counts[1])")
        try expect(counts[0].prefix(4) == counts[1].prefix(4), "catalog-seed and books seed wrote different rows")
        for store in [cStore, tightStore, booksStore] { removeStore(store) }
        record(ResultRow(
            workload: "`books seed --count N` process vs catalog-seed (same work: schema, 459 sample books, history, batches)",
            size: "\(n)", raw: time.c, persistence: time.books, target: .ratio(1.5)))
        record(ResultRow(
            workload: "`books seed --count N` process vs catalog-seed --tight (no history, 3 indexes, one transaction)",
            size: "\(n)", raw: time.tight, persistence: time.books, target: .none))
        record(ResultRow(
            workload: "peak RSS of `books seed --count N` (catalog-seed: \(String(format: "%.1f", rss.c.median)) MB, "
                + "tight: \(String(format: "%.1f", rss.tight.median)) MB)",
            size: "\(n)", raw: nil, persistence: rss.books, target: .absolute(64, label: "≤ 64 MB"), unit: .megabytes))
    }
}

extension Samples {
    static func + (samples: Samples, value: Double) -> Samples {
        var result = samples
        result.add(value)
        return result
    }
}

extension RawSide {
    /// The row counts of `tables` in the store at `path`.
    static func countRows(_ path: String, tables: [String]) throws -> [Int64] {
        try tables.map { table in
            var count: Int64 = 0
            try check(raw_count_rows(path, table, &count), "count \(table)")
            return count
        }
    }
}
