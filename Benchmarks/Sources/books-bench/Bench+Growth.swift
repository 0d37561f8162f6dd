import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Issue #27's growth rows: fetch all, month sections and search at each of `--growth`'s
/// store sizes (10k, 100k, 1M by default), so that linear growth shows as a flat cost per
/// book (or per match), and a search that grows quadratically (a one-letter term's can)
/// stands out.
extension Bench {
    /// Every growth workload at every size, then one row per workload and side.
    mutating func growthWorkload() throws {
        let sizes = options.growth
        var rows: [String: GrowthRow] = [:]
        var order: [String] = []
        func add(_ workload: String, _ side: String, size: Int, _ samples: Samples, units: Int, unit: String = "book", note: String = "") {
            let key = workload + "\u{0}" + side
            if rows[key] == nil {
                order.append(key)
                rows[key] = GrowthRow(workload: workload, side: side, sizes: sizes, samples: [], units: [], unit: unit, note: note)
            }
            rows[key]?.samples.append(samples)
            rows[key]?.units.append(units)
        }
        let books = try? booksBinary()
        for size in sizes {
            let stores = try growthStores(size)
            print("  growth at \(size) books (load \(loadAverage()))")
            let (fr, fg, fp) = try growthFetch(size, stores)
            add("fetch all, read every field", "raw C", size: size, fr, units: size)
            add("fetch all, read every field", "GRDB", size: size, fg, units: size)
            add("fetch all, read every field", "Persistence", size: size, fp, units: size)
            let (sr, sg, sp) = try growthSections(size, stores)
            add("sorted fetch into month sections", "raw C", size: size, sr, units: size)
            add("sorted fetch into month sections", "GRDB", size: size, sg, units: size)
            add("sorted fetch into month sections", "Persistence", size: size, sp, units: size)
            let search = try growthSearch(size, store: stores.persistence)
            add(
                "search, every match (3 word-piece terms)", "raw C (FTS5, reads id and title)", size: size, search.raw,
                units: search.matches, unit: "match")
            add(
                "search, every match (3 word-piece terms)", "Persistence (`Catalog.search`, every match a Book)",
                size: size, search.persistence, units: search.matches, unit: "match")
            add(
                "search, first 50 (p50 of 20 word-piece terms)", "Persistence (`Catalog.search(limit: 50)`)", size: size,
                search.first50, units: size)
            let letter = try growthOneLetter(size, store: stores.persistence, books: books)
            add(
                "one letter `a`, every match", "raw C (scan: `instr(canonical(title), 'a')`)", size: size, letter.raw,
                units: letter.rawMatches, unit: "match", note: "titles only")
            if let process = letter.process {
                add(
                    "one letter `a`, every match", "`books search a --limit 0` process", size: size, process,
                    units: letter.processMatches, unit: "match", note: "titles and authors; wall time, start-up included")
            }
        }
        for key in order { if let row = rows[key] { growth.append(row) } }
    }

    /// The load average now, as `uptime` prints it.
    func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The stores of `count` books: one with the raw side's schema (raw C and GRDB read it,
    /// as they read their templates) and one Persistence made and the raw side filled (the
    /// big store of the search and memory workloads when `count` is `--big`). Made once, then
    /// reused by later runs.
    func growthStores(_ count: Int) throws -> (raw: String, persistence: String) {
        let raw = path("raw-growth-\(count).sqlite")
        let persistence = path("persistence-big-\(count).sqlite")
        let fm = FileManager.default
        if fm.fileExists(atPath: raw) && fm.fileExists(atPath: persistence) { return (raw, persistence) }
        var values: CBookValues?
        let seconds = time { values = BookData(count: count).cValues(canonical: false) }
        print("  generated \(count) books in \(milliseconds(seconds))")
        guard let values else { return (raw, persistence) }
        if !fm.fileExists(atPath: raw) {
            let partial = raw + ".partial"
            removeStore(partial)
            let shape = try searchShape()
            let seconds = try time { try RawSide.insert(values, path: partial, create: true, shape: shape) }
            try fm.moveItem(atPath: partial, toPath: raw)
            print("  made the \(count)-book raw store in \(milliseconds(seconds))")
        }
        if !fm.fileExists(atPath: persistence) { try makeBigStore(persistence, values: values) }
        return (raw, persistence)
    }

    /// Fetch all at one size: raw C and GRDB on the raw store, Persistence on its own.
    func growthFetch(_ n: Int, _ stores: (raw: String, persistence: String)) throws -> (Samples, Samples, Samples) {
        try rounds3("fetch \(n)") {
            var rows: Int64 = 0
            let seconds = try time { rows = try RawSide.fetchAll(path: stores.raw) }
            try expect(Int(rows) == n, "raw fetch read \(rows) rows, expected \(n)")
            return seconds
        } grdb: {
            let (seconds, rows) = try GRDBSide.fetchAll(path: stores.raw)
            try expect(rows == n, "GRDB fetch read \(rows) books, expected \(n)")
            return seconds
        } persistence: {
            let (seconds, rows) = try PersistenceSide.fetchAll(path: stores.persistence)
            try expect(rows == n, "Persistence fetch read \(rows) books, expected \(n)")
            return seconds
        }
    }

    /// Month sections at one size, each side's section count checked against the others.
    func growthSections(_ n: Int, _ stores: (raw: String, persistence: String)) throws -> (Samples, Samples, Samples) {
        var sections = (raw: 0, grdb: 0, persistence: 0)
        let result = try rounds3("sections \(n)") {
            var result: (sections: Int64, rows: Int64) = (0, 0)
            let seconds = try time { result = try RawSide.fetchMonths(path: stores.raw) }
            sections.raw = Int(result.sections)
            return seconds
        } grdb: {
            // The plan all three sides share here: read in order and sort.
            let result = try GRDBSide.fetchMonths(path: stores.raw, sorting: true)
            sections.grdb = result.sections
            return result.seconds
        } persistence: {
            let result = try PersistenceSide.fetchMonths(path: stores.persistence)
            sections.persistence = result.sections
            return result.seconds
        }
        try expect(
            sections.raw == sections.grdb && sections.grdb == sections.persistence,
            "sections at \(n): \(sections.raw) raw, \(sections.grdb) GRDB, \(sections.persistence) Persistence")
        return result
    }

    /// Search at one size: every match of three word-piece terms (raw C through the FTS5
    /// index reading each match's id and title; Persistence every match as a Book), timed as
    /// the three together per round, and the first 50 of twenty terms (one sample a term).
    func growthSearch(_ n: Int, store: String) throws -> (raw: Samples, persistence: Samples, matches: Int, first50: Samples) {
        let terms = searchTerms(count: 20)
        guard let searcher = raw_searcher_open(store, rawFold) else { throw RawError("opening \(store) for search", code: 1) }
        defer { raw_searcher_close(searcher) }
        let catalog = try Catalog(storeURL: URL(fileURLWithPath: store))
        var raw = Samples()
        var persistence = Samples()
        var matches = (raw: 0, persistence: 0)
        for round in 1...options.rounds {
            var rawSeconds = 0.0
            var persistenceSeconds = 0.0
            matches = (0, 0)
            for term in terms.prefix(3) {
                var rows: Int64 = 0
                rawSeconds += time { rows = raw_search_index(searcher, term) }
                matches.raw += Int(rows)
                var found = 0
                persistenceSeconds += try time { found = try catalog.search(term).count }
                catalog.context.reset()
                matches.persistence += found
            }
            raw.add(rawSeconds)
            persistence.add(persistenceSeconds)
            print("  search \(n) round \(round): raw \(milliseconds(rawSeconds)), persistence \(milliseconds(persistenceSeconds)) (\(matches.persistence) matches)")
        }
        // The catalogue also matches author names: the raw side's count is of titles.
        try expect(matches.persistence >= matches.raw, "search at \(n): Persistence found \(matches.persistence), raw \(matches.raw)")
        var first50 = Samples()
        for term in terms {
            first50.add(try time { _ = try catalog.search(term, limit: 50) })
            catalog.context.reset()
        }
        return (raw, persistence, matches.persistence, first50)
    }

    /// The one-letter search at one size: the raw scan of folded titles for `a`, in process,
    /// and the release `books search a --limit 0` process printing every match (its output
    /// to a file, whose lines are the matches). Without a `books` binary, only the raw side.
    func growthOneLetter(_ n: Int, store: String, books: String?) throws
        -> (raw: Samples, rawMatches: Int, process: Samples?, processMatches: Int)
    {
        guard let searcher = raw_searcher_open(store, rawFold) else { throw RawError("opening \(store) for search", code: 1) }
        defer { raw_searcher_close(searcher) }
        var raw = Samples()
        var rawMatches = 0
        let rounds = max(1, min(options.rounds, 3))
        for _ in 1...rounds { raw.add(time { rawMatches = Int(raw_search_scan(searcher, "a")) }) }
        guard let books else { return (raw, rawMatches, nil, 0) }
        let output = path("one-letter-\(n).txt")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var process = Samples()
        var lines = 0
        for round in 1...rounds {
            let result = try runChild(books, ["search", "--store", store, "--limit", "0", "a"], output: output)
            process.add(result.seconds)
            lines = try lineCount(output)
            print("  books search a --limit 0 at \(n), round \(round): \(milliseconds(result.seconds)), \(lines) lines, raw scan \(milliseconds(raw.seconds[round - 1]))")
        }
        return (raw, rawMatches, process, lines)
    }

    /// The number of lines in a file.
    func lineCount(_ path: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        return data.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
    }
}
