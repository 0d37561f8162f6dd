import BookCatalog
import Foundation
import Persistence

/// Issue #27's seed comparison: `books seed --count N` on a catalogue already holding the
/// sample books, against `plain-seed`, the plain C program a user would write (its own
/// schema, a unique UUID index, a canonical-title index, an FTS5 trigram table, one
/// transaction, lower-casing for its canonical form), on a store holding the same sample
/// books. Both add the sample books again (updating them: same UUIDs) and N new ones.
extension Bench {
    func plainSeedBinary() throws -> String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = here.appendingPathComponent("plain-seed").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ChildProcessError(description: "No plain-seed executable at \(path); build the Benchmarks package's products.")
        }
        return path
    }

    /// The catalogue's sample books, as `books seed` reads them.
    func sampleBooks() throws -> [SeedBook] {
        var books: [SeedBook] = []
        try SeedFile.bundled().forEachBatch(size: 1_000) { books += $0 }
        return books
    }

    /// Writes the lines `plain-seed` reads: uuid, title, author, date, price, color.
    func writePlainSeedFile(_ books: [SeedBook], syntheticCount: Int, to path: String) throws {
        var text = ""
        func add(_ book: SeedBook) {
            let color = book.color.map { String(format: "%02x%02x%02x%02x", $0.red, $0.green, $0.blue, $0.alpha) } ?? ""
            text += "\(book.uuid.uuidString)\t\(book.title)\t\(book.author)\t\(book.publishDate.timeIntervalSince1970)\t"
                + "\(DecimalText.format(book.price))\t\(color)\n"
        }
        books.forEach(add)
        for i in 0..<syntheticCount { add(SyntheticBooks.book(i)) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Three rounds, each on fresh copies of the two sample-book stores.
    mutating func plainSeedWorkload() throws {
        let books = try booksBinary()
        let plainSeed = try plainSeedBinary()
        let n = options.books
        let samples = try sampleBooks()
        let (samplesFile, dataFile) = (path("plain-seed-samples.tsv"), path("plain-seed-\(n).tsv"))
        try writePlainSeedFile(samples, syntheticCount: 0, to: samplesFile)
        if !FileManager.default.fileExists(atPath: dataFile) { try writePlainSeedFile(samples, syntheticCount: n, to: dataFile) }
        // The two catalogues holding the sample books, made untimed.
        let (plainTemplate, booksTemplate) = (path("plain-samples.sqlite"), path("books-samples.sqlite"))
        removeStore(plainTemplate)
        removeStore(booksTemplate)
        _ = try runChild(plainSeed, [plainTemplate, samplesFile])
        _ = try runChild(books, ["seed", "--count", "0", "--store", booksTemplate])
        let (plain, catalogue) = (path("plain-seed.sqlite"), path("books-seed.sqlite"))
        var r = Samples()
        var cached = Samples()
        var p = Samples()
        for round in 1...max(1, min(options.rounds, 3)) {
            try copyStore(plainTemplate, to: plain)
            r.add(try runChild(plainSeed, [plain, dataFile]).seconds)
            // The same program with the page cache `books seed` gives a large save.
            try copyStore(plainTemplate, to: plain)
            cached.add(try runChild(plainSeed, [plain, dataFile, "65536"]).seconds)
            try copyStore(booksTemplate, to: catalogue)
            p.add(try runChild(books, ["seed", "--count", "\(n)", "--store", catalogue]).seconds)
            print(
                "  plain seed round \(round): plain-seed \(milliseconds(r.seconds.last ?? 0)), with 64 MiB cache "
                    + "\(milliseconds(cached.seconds.last ?? 0)), books seed \(milliseconds(p.seconds.last ?? 0)) (load \(loadAverage()))")
        }
        for store in [plain, catalogue, plainTemplate, booksTemplate] { removeStore(store) }
        try? FileManager.default.removeItem(atPath: samplesFile)
        record(ResultRow(
            workload: "`books seed --count N` process vs plain-seed (both on the \(samples.count) sample books)",
            size: "\(n)", raw: r, persistence: p, target: .ratio(1.5),
            note: "SQLite's default 2 MiB page cache; plain-seed lower-cases (towlower), books folds diacritics too"))
        record(ResultRow(
            workload: "`books seed --count N` process vs plain-seed with a 64 MiB page cache (as books sets for a large save)",
            size: "\(n)", raw: cached, persistence: p, target: .ratio(1.5)))
    }
}
