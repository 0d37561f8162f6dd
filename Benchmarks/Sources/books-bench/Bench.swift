import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Runs the workloads of issue #9, Persistence against raw SQLite, and prints the table.
///
/// Stores live in the work directory: `raw-N.sqlite` and `persistence-N.sqlite` are the
/// N-book stores workload 1 leaves behind (copied before anything changes them), and
/// `persistence-big.sqlite` the million-book store of workloads 4 and 7, made once (its
/// rows inserted by the raw side into a store Persistence created) and reused.
struct Bench {
    let options: BenchOptions
    var rows: [ResultRow] = []
    /// Issue #27's three-sided rows (raw C, GRDB, Persistence) and memory per fetched book.
    var sideBySide: [SideBySideRow] = []
    var memory: MemoryRow?
    /// Issue #27's growth rows: each workload at each store size.
    var growth: [GrowthRow] = []
    /// Issue #47's app-shaped comparison rows.
    var appRows: [SideBySideRow] = []
    private var dataCache: BookData?

    init(options: BenchOptions) throws {
        self.options = options
        try FileManager.default.createDirectory(atPath: options.work, withIntermediateDirectories: true)
    }

    mutating func run() throws {
        print("books-bench: N = \(options.books), big N = \(options.big), \(options.rounds) rounds, work in \(options.work)")
        if options.wants("insert") { try insertWorkload() }
        if options.wants("fetch") { try fetchWorkload() }
        if options.wants("busy-fetch") { try busyFetchWorkload() }
        if options.wants("sections") { try sectionsWorkload() }
        if options.wants("search") { try searchWorkload() }
        if options.wants("update") { try updateWorkload() }
        if options.wants("delete") { try deleteWorkload() }
        if options.wants("cold-search") { try coldSearchWorkload() }
        if options.wants("seed") { try seedWorkload() }
        if options.wants("rss") { try memoryWorkload() }
        if options.wants("fetch-tools") { try fetchToolsWorkload() }
        if options.wants("grdb") { try grdbWorkload() }
        // The three-sided reads alone (fetch all, filtered, sections), on the templates.
        if options.wants("grdb-fetch") { try sideBySideFetches() }
        // The three-sided update and delete alone.
        if options.wants("grdb-writes") { try sideBySideWrites() }
        if options.wants("grdb-memory") { try grdbMemoryWorkload() }
        if options.wants("postgresql") { try postgreSQLWorkload() }
        if options.wants("writers") { try writersWorkload() }
        if options.wants("plain-seed") { try plainSeedWorkload() }
        if options.wants("growth") { try growthWorkload() }
        if options.wants("app") { try appWorkload() }
        if options.wants("seed-c") { try seedCWorkload() }
        print("")
        if !rows.isEmpty { print(markdownTable(rows)) }
        if !sideBySide.isEmpty || memory != nil { print(sideBySideTable(sideBySide, memory: memory)) }
        if !growth.isEmpty { print(growthTable(growth)) }
        if !appRows.isEmpty { print(appTable()) }
    }

    // MARK: - Shared set-up

    /// The N books, generated once.
    mutating func data() -> BookData {
        if let dataCache { return dataCache }
        var data: BookData?
        let seconds = time { data = BookData(count: options.books) }
        print("  generated \(options.books) books in \(milliseconds(seconds))")
        dataCache = data
        return data ?? BookData(count: 0)
    }

    func path(_ name: String) -> String { options.work + "/" + name }

    /// The search index shape of the catalogue's store, read from a new empty store.
    func searchShape() throws -> raw_search_shape {
        let probe = path("probe.sqlite")
        removeStore(probe)
        _ = try PersistenceSide.open(probe)
        defer { removeStore(probe) }
        return try RawSide.searchShape(of: probe)
    }

    func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func copyStore(_ source: String, to destination: String) throws {
        removeStore(destination)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
        }
    }

    var rawTemplate: String { path("raw-\(options.books).sqlite") }
    var persistenceTemplate: String { path("persistence-\(options.books).sqlite") }

    /// Makes the N-book stores if workload 1 has not.
    mutating func ensureTemplates() throws {
        let fm = FileManager.default
        guard !fm.fileExists(atPath: rawTemplate) || !fm.fileExists(atPath: persistenceTemplate) else { return }
        let data = data()
        let shape = try searchShape()
        removeStore(rawTemplate)
        removeStore(persistenceTemplate)
        try RawSide.insert(data.cValues(canonical: false), path: rawTemplate, create: true, shape: shape)
        _ = try PersistenceSide.insert(data, path: persistenceTemplate)
    }

    /// Runs `rounds` rounds of both sides, alternating, and returns their samples.
    func rounds(
        _ name: String, raw: () throws -> Double, persistence: () throws -> Double
    ) throws -> (raw: Samples, persistence: Samples) {
        var r = Samples()
        var p = Samples()
        for round in 1...options.rounds {
            r.add(try raw())
            p.add(try persistence())
            print("  \(name) round \(round): raw \(milliseconds(r.seconds.last ?? 0)), persistence \(milliseconds(p.seconds.last ?? 0))")
        }
        return (r, p)
    }

    mutating func record(_ row: ResultRow) {
        rows.append(row)
        let ratio = row.ratio.map { String(format: " = %.2f× raw", $0) } ?? ""
        let verdict = row.met.map { $0 ? "met" : "MISSED" } ?? ""
        print("→ \(row.workload): persistence median \(row.show(row.persistence.median))\(ratio); target \(row.targetText) \(verdict)")
    }
}
