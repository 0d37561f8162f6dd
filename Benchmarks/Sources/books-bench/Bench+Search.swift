import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Workload 4: substring search on the big store, through the index and by scanning.
extension Bench {
    /// `count` distinct 4-letter canonical terms: pieces of the synthetic books' words,
    /// chosen deterministically.
    func searchTerms(count: Int) -> [String] {
        var terms: [String] = []
        var state: UInt64 = 2024
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var i = 0
        while terms.count < count && i < 100_000 {
            let words = CanonicalText.fold(SyntheticBooks.book(i).title).split(separator: " ")
            i += 1
            let word = Array(words[Int(next() % UInt64(words.count))])
            guard word.count >= 4 else { continue }
            let start = Int(next() % UInt64(word.count - 3))
            let term = String(word[start..<start + 4])
            if !terms.contains(term) { terms.append(term) }
        }
        return terms
    }

    /// `count` distinct 4-digit terms, pieces of the books' numbers (every title ends with
    /// its book's number): selective terms, matching a few hundred of a million books.
    func rareTerms(count: Int) -> [String] {
        (0..<count).map { i in String(1_000 + (i * 7_919) % 9_000) }
    }

    /// The big store: made once by Persistence (schema, metadata) and filled by the raw
    /// side, then reused by later runs (the growth workload's store of the same size).
    mutating func bigStore() throws -> String {
        let store = path("persistence-big-\(options.big).sqlite")
        if FileManager.default.fileExists(atPath: store) { return store }
        try makeBigStore(store, values: BookData(count: options.big).cValues(canonical: false))
        return store
    }

    /// Makes a store at `store` with Persistence (schema, metadata) and fills it with the
    /// books through the raw side; the store's own triggers keep its search index.
    func makeBigStore(_ store: String, values: CBookValues) throws {
        let partial = store + ".partial"
        removeStore(partial)
        _ = try PersistenceSide.open(partial)
        let seconds = try time {
            try RawSide.insert(values, path: partial, create: false, shape: raw_search_shape())
        }
        try FileManager.default.moveItem(atPath: partial, toPath: store)
        print("  made the \(values.books.count)-book store in \(milliseconds(seconds))")
    }

    mutating func searchWorkload() throws {
        let store = try bigStore()
        let terms = searchTerms(count: 50)
        guard let searcher = raw_searcher_open(store, rawFold) else {
            throw RawError("opening \(store) for search", code: 1)
        }
        defer { raw_searcher_close(searcher) }
        let catalog = try Catalog(storeURL: URL(fileURLWithPath: store))
        var rawIndex = Samples()
        var persistenceIndex = Samples()
        var matches: [Int] = []
        for term in terms {
            var rows: Int64 = 0
            rawIndex.add(time { rows = raw_search_index(searcher, term) })
            matches.append(Int(rows))
            // A search box's first page: the 50 best-ranked books.
            persistenceIndex.add(try time { _ = try catalog.search(term, limit: 50) })
            catalog.context.reset()
        }
        var rawRare = Samples()
        var persistenceRare = Samples()
        var rareMatches: [Int] = []
        for term in rareTerms(count: 50) {
            var rows: Int64 = 0
            rawRare.add(time { rows = raw_search_index(searcher, term) })
            rareMatches.append(Int(rows))
            persistenceRare.add(try time { _ = try catalog.search(term, limit: 50) })
            catalog.context.reset()
        }
        rareMatches.sort()
        let sortedMatches = matches.sorted()
        print("  matches per term: min \(sortedMatches.first ?? 0), median \(sortedMatches[sortedMatches.count / 2]), max \(sortedMatches.last ?? 0)")
        // Every match as a Book: a few terms, since each materialises tens of thousands.
        var persistenceAll = Samples()
        for term in terms.prefix(3) {
            var found = 0
            persistenceAll.add(try time { found = try catalog.search(term).count })
            catalog.context.reset()
            print("  all matches of '\(term)': \(found) books in \(milliseconds(persistenceAll.seconds.last ?? 0))")
        }
        // The scan folds a million titles per query: a few terms are enough.
        var rawScan = Samples()
        var persistenceScan = Samples()
        for term in terms.prefix(3) {
            rawScan.add(time { _ = raw_search_scan(searcher, term) })
            let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("title CONTAINS[cd] %@", term))
            persistenceScan.add(try time { _ = try catalog.context.count(for: request) })
            print("  scan '\(term)': raw \(milliseconds(rawScan.seconds.last ?? 0)), persistence \(milliseconds(persistenceScan.seconds.last ?? 0))")
        }
        let size = "\(options.big)"
        let median = sortedMatches[sortedMatches.count / 2]
        record(ResultRow(
            workload: "4. word-piece terms, first 50, p50", size: size, raw: rawIndex, persistence: persistenceIndex,
            target: .absolute(0.010, label: "p50 ≤ 10 ms"), note: "raw counts all matches; median \(median) per term"))
        record(ResultRow(
            workload: "4. word-piece terms, first 50, p95", size: size, raw: Samples(seconds: [rawIndex.percentile(95)]),
            persistence: Samples(seconds: [persistenceIndex.percentile(95)]), target: .absolute(0.050, label: "p95 ≤ 50 ms")))
        record(ResultRow(
            workload: "4. selective terms (4 digits), p50", size: size, raw: rawRare, persistence: persistenceRare,
            target: .absolute(0.010, label: "p50 ≤ 10 ms"), note: "median \(rareMatches[rareMatches.count / 2]) matches per term"))
        record(ResultRow(
            workload: "4. selective terms (4 digits), p95", size: size, raw: Samples(seconds: [rawRare.percentile(95)]),
            persistence: Samples(seconds: [persistenceRare.percentile(95)]), target: .absolute(0.050, label: "p95 ≤ 50 ms")))
        record(ResultRow(
            workload: "4. search, every match as a Book", size: size, raw: nil, persistence: persistenceAll,
            target: .none, note: "3 terms"))
        record(ResultRow(
            workload: "4. scan baseline (count of title CONTAINS[cd])", size: size, raw: rawScan, persistence: persistenceScan,
            target: .none, note: "3 terms"))
        record(ResultRow(
            workload: "4. speed-up over the scan, word-piece terms", size: size,
            raw: Samples(seconds: [rawScan.median / rawIndex.median]),
            persistence: Samples(seconds: [persistenceScan.median / persistenceIndex.median]),
            target: .atLeast(50, label: "≥ 50×"), unit: .times))
        record(ResultRow(
            workload: "4. speed-up over the scan, selective terms", size: size,
            raw: Samples(seconds: [rawScan.median / rawRare.median]),
            persistence: Samples(seconds: [persistenceScan.median / persistenceRare.median]),
            target: .atLeast(50, label: "≥ 50×"), unit: .times))
    }
}
