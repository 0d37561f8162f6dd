import BookCatalog
import Foundation
import Persistence

/// The postgresql workload (issue #26): workloads 1–4 with Persistence on a PostgreSQL
/// store beside Persistence on an SQLite file, in the same run, each round running the
/// SQLite side and then the PostgreSQL side, so that the ratio is the figure to read.
///
/// In the results the "raw" column is Persistence on SQLite and the "persistence" column
/// Persistence on PostgreSQL. The search runs on the N-book stores (not workload 4's
/// million-book store), since every PostgreSQL store is made by inserting through the
/// library.
extension Bench {
    mutating func postgreSQLWorkload() throws {
        guard let server = try benchServer(for: "postgresql") else { return }
        print("  PostgreSQL \(server.version()) at \(server.url)")
        let data = data()
        let n = options.books
        let sqlite = path("pg-compare-\(n).sqlite")
        let database = "books_bench_\(n)"
        let pg = try server.databaseURL(database)
        var table: [ResultRow] = []

        // 1. A new store (a new file; a new database), N books, one save.
        let (si, pi) = try pairedRounds("postgresql insert") {
            removeStore(sqlite)
            return try PersistenceSide.insert(data, path: sqlite)
        } postgreSQL: {
            try server.recreate(database)
            return try PersistenceSide.insert(data, url: pg)
        }
        table.append(ResultRow(workload: "1. insert + save", size: "\(n)", raw: si, persistence: pi, target: .none))

        // 2. Every book as an object, every attribute read, in a fresh container.
        let (sf, pf) = try pairedRounds("postgresql fetch") {
            let (seconds, rows) = try PersistenceSide.fetchAll(path: sqlite)
            try expect(rows == n, "SQLite fetch read \(rows) books, expected \(n)")
            return seconds
        } postgreSQL: {
            let container = try PersistenceSide.open(url: pg)
            defer { try? container.persistentStoreCoordinator.close() }
            let (seconds, rows) = try PersistenceSide.fetchAll(in: container)
            try expect(rows == n, "PostgreSQL fetch read \(rows) books, expected \(n)")
            return seconds
        }
        table.append(ResultRow(workload: "2. fetch all, read every attribute", size: "\(n)", raw: sf, persistence: pf, target: .none))

        // 3. Sorted by date, grouped into month sections.
        var sections = (sqlite: 0, postgreSQL: 0)
        let (ss, ps) = try pairedRounds("postgresql sections") {
            let result = try PersistenceSide.fetchMonths(path: sqlite)
            sections.sqlite = result.sections
            return result.seconds
        } postgreSQL: {
            let result = try PersistenceSide.fetchMonths(url: pg)
            sections.postgreSQL = result.sections
            return result.seconds
        }
        try expect(sections.sqlite == sections.postgreSQL, "SQLite made \(sections.sqlite) sections, PostgreSQL \(sections.postgreSQL)")
        table.append(ResultRow(
            workload: "3. sorted fetch into month sections", size: "\(n)", raw: ss, persistence: ps, target: .none,
            note: "\(sections.sqlite) sections"))

        // 4. The search box's first page (50 best-ranked books), one term after another on
        // both stores, which must answer the same books in the same order.
        table += try postgreSQLSearch(sqlite: sqlite, pg: pg)

        for row in table {
            var row = row
            row.workload = "PostgreSQL: " + row.workload
            row.note = [row.note, "raw column: Persistence on SQLite"].filter { !$0.isEmpty }.joined(separator: "; ")
            record(row)
        }
        print("")
        print(sideBySideTable(table))
        try server.drop(database)
        removeStore(sqlite)
    }

    /// Workload 4 on the N-book stores: word-piece and selective terms, first 50 matches.
    private func postgreSQLSearch(sqlite: String, pg: URL) throws -> [ResultRow] {
        let onFile = try Catalog(storeURL: URL(fileURLWithPath: sqlite))
        let onServer = try Catalog(storeURL: pg)
        defer { try? onServer.context.persistentStoreCoordinator.close() }
        var rows: [ResultRow] = []
        for (name, terms) in [("word-piece terms", searchTerms(count: 30)), ("selective terms (4 digits)", rareTerms(count: 30))] {
            var s = Samples()
            var p = Samples()
            var matches: [Int] = []
            var differing: [String] = []
            for term in terms {
                var fileTitles: [String] = []
                var serverTitles: [String] = []
                s.add(try time { fileTitles = try onFile.search(term, limit: 50).map(\.title) })
                p.add(try time { serverTitles = try onServer.search(term, limit: 50).map(\.title) })
                onFile.context.reset()
                onServer.context.reset()
                if fileTitles != serverTitles { differing.append(term) }
                matches.append(fileTitles.count)
            }
            if !differing.isEmpty {
                print("  postgresql search: SQLite and PostgreSQL answered differently for \(differing.joined(separator: ", "))")
            }
            print("  postgresql search, \(name): SQLite p50 \(milliseconds(s.median)), PostgreSQL p50 \(milliseconds(p.median))")
            let shown = matches.sorted()[matches.count / 2]
            rows.append(ResultRow(
                workload: "4. search, \(name), first 50, p50", size: "\(options.books)", raw: s, persistence: p, target: .none,
                note: "\(terms.count) terms, median \(shown) shown, \(terms.count - differing.count) answered alike"))
            rows.append(ResultRow(
                workload: "4. search, \(name), first 50, p95", size: "\(options.books)",
                raw: Samples(seconds: [s.percentile(95)]), persistence: Samples(seconds: [p.percentile(95)]), target: .none))
        }
        return rows
    }

    /// The server of a workload that needs one, or nil (said on the console) when no URL
    /// was given.
    func benchServer(for workload: String) throws -> BenchServer? {
        guard let url = options.postgres else {
            print("  \(workload): no PostgreSQL server (--postgres URL or BOOKS_BENCH_POSTGRES); skipped")
            return nil
        }
        return try BenchServer(url: url)
    }

    /// Runs `rounds` rounds of both stores, SQLite first, and returns their samples.
    func pairedRounds(
        _ name: String, sqlite: () throws -> Double, postgreSQL: () throws -> Double
    ) throws -> (sqlite: Samples, postgreSQL: Samples) {
        var s = Samples()
        var p = Samples()
        for round in 1...options.rounds {
            s.add(try sqlite())
            p.add(try postgreSQL())
            print("  \(name) round \(round): SQLite \(milliseconds(s.seconds.last ?? 0)), PostgreSQL \(milliseconds(p.seconds.last ?? 0))")
        }
        return (s, p)
    }
}

/// Rows whose raw column is Persistence on SQLite and whose persistence column is
/// Persistence on PostgreSQL, as a Markdown table with those headings.
func sideBySideTable(_ rows: [ResultRow]) -> String {
    var lines = [
        "| Workload | N | SQLite min | SQLite median | PostgreSQL min | PostgreSQL median | PostgreSQL / SQLite |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows {
        let cells = [
            row.workload + (row.note.isEmpty ? "" : " (\(row.note))"), row.size,
            row.raw.map { milliseconds($0.min) } ?? "–", row.raw.map { milliseconds($0.median) } ?? "–",
            milliseconds(row.persistence.min), milliseconds(row.persistence.median),
            row.ratio.map { String(format: "%.2f×", $0) } ?? "–",
        ]
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
}
