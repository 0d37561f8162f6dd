import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Issue #47's second GRDB comparison, shaped as an app writer writes it (`--only app`):
/// a model of five attributes built in code (`AppModel`), the `AppBook` class with the
/// accessors `persistence-codegen` writes, GRDB records with hand-written `init(row:)` and
/// `encode(to:)`, WAL and `synchronous = FULL` on every side, the sides' order rotating from
/// round to round. Raw C runs the insert and the fetch all.
extension Bench {
    var appGRDBTemplate: String { path("app-grdb-\(options.books).sqlite") }
    var appPersistenceTemplate: String { path("app-persistence-\(options.books).sqlite") }
    var appRawTemplate: String { path("app-raw-\(options.books).sqlite") }

    /// The issue's targets, Persistence / GRDB.
    static let appTargets = (insert: 0.8, fetchAll: 0.9, filtered: 0.8, memory: 1.0, update: 1.0, delete: 1.0)

    /// Runs `sides` `max(3, rounds)` rounds, the first side of round r being side r - 1
    /// (mod the count); returns each side's samples in the order given.
    func rotatingRounds(_ name: String, sides: [String], run: (Int) throws -> Double) throws -> [Samples] {
        var samples = [Samples](repeating: Samples(), count: sides.count)
        for round in 1...max(3, options.rounds) {
            for k in sides.indices {
                let side = (round - 1 + k) % sides.count
                samples[side].add(try run(side))
            }
            let text = sides.indices.map { "\(sides[$0]) \(milliseconds(samples[$0].seconds.last ?? 0))" }
            print("  app \(name) round \(round): " + text.joined(separator: ", ") + " (load \(loadAverage()))")
        }
        return samples
    }

    mutating func recordApp(_ row: SideBySideRow) {
        appRows.append(row)
        let goal = row.goal.map { " (target ≤ \(format($0))×: \(row.met == true ? "met" : "MISSED"))" } ?? ""
        print(
            "→ app \(row.workload): Persistence / GRDB \(ratioText(row.persistenceOverGRDB))\(goal)"
                + (row.raw == nil ? "" : ", Persistence / C \(ratioText(row.persistenceOverRaw))"))
    }

    mutating func appWorkload() throws {
        print("app-shaped comparison (issue #47): N = \(options.books), load \(loadAverage())")
        let data = AppBookData(data())
        let n = options.books
        try appInsert(data)

        // Fetch all, every field read.
        let (fr, fg, fp) = try appRounds3("fetch all") {
            var rows: Int64 = 0
            var sum: Int64 = 0
            let seconds = try time { try RawSide.check(raw_app_fetch(appRawTemplate, nil, &rows, &sum), "raw app fetch") }
            try expect(Int(rows) == n, "raw app fetch read \(rows) rows, expected \(n)")
            return seconds
        } grdb: {
            let (seconds, rows) = try AppGRDBSide.fetchAll(path: appGRDBTemplate)
            try expect(rows == n, "GRDB app fetch read \(rows), expected \(n)")
            return seconds
        } persistence: {
            let (seconds, rows) = try AppPersistenceSide.fetchAll(path: appPersistenceTemplate)
            try expect(rows == n, "Persistence app fetch read \(rows), expected \(n)")
            return seconds
        }
        recordApp(SideBySideRow(
            workload: "fetch all, read every field", size: "\(n)", raw: fr, grdb: fg, persistence: fp,
            goal: Self.appTargets.fetchAll))

        // `price < x` sorted by date, newest first.
        let price = Self.filterPrice
        var counts = (raw: 0, grdb: 0, persistence: 0)
        let (cr, cg, cp) = try appRounds3("price < \(price)") {
            var rows: Int64 = 0
            var sum: Int64 = 0
            let seconds = try time {
                try RawSide.check(
                    raw_app_fetch(
                        appRawTemplate, "WHERE CAST(\"price\" AS REAL) < \(price) ORDER BY \"publishDate\" DESC", &rows,
                        &sum), "raw app filtered fetch")
            }
            counts.raw = Int(rows)
            return seconds
        } grdb: {
            let (seconds, rows) = try AppGRDBSide.fetchCheaper(than: price, path: appGRDBTemplate)
            counts.grdb = rows
            return seconds
        } persistence: {
            let (seconds, rows) = try AppPersistenceSide.fetchCheaper(than: price, path: appPersistenceTemplate)
            counts.persistence = rows
            return seconds
        }
        try expect(
            counts.raw == counts.grdb && counts.grdb == counts.persistence,
            "app price < \(price) found \(counts.raw) raw, \(counts.grdb) GRDB, \(counts.persistence) Persistence")
        recordApp(SideBySideRow(
            workload: "`price < \(price)` sorted by `publishDate` desc, every field read", size: "\(counts.persistence)",
            raw: cr, grdb: cg, persistence: cp, goal: Self.appTargets.filtered, note: "of \(n)"))

        try appWrites(data)
        try appMemory()
    }

    /// Three sides (raw C, GRDB, Persistence) rotating.
    func appRounds3(
        _ name: String, raw: () throws -> Double, grdb: () throws -> Double, persistence: () throws -> Double
    ) throws -> (raw: Samples, grdb: Samples, persistence: Samples) {
        let s = try rotatingRounds(name, sides: ["C", "GRDB", "Persistence"]) { side in
            switch side {
            case 0: return try raw()
            case 1: return try grdb()
            default: return try persistence()
            }
        }
        return (s[0], s[1], s[2])
    }

    /// Insert + save on new stores; the last round's stores become the templates.
    mutating func appInsert(_ data: AppBookData) throws {
        let values = data.cValues()
        let (raw, grdb, persistence) = (path("app-raw.sqlite"), path("app-grdb.sqlite"), path("app-persistence.sqlite"))
        let (r, g, p) = try appRounds3("insert + save") {
            removeStore(raw)
            return try time {
                try values.books.withUnsafeBufferPointer { books in
                    try RawSide.check(raw_app_insert(raw, books.baseAddress, Int32(books.count)), "raw app insert")
                }
            }
        } grdb: {
            removeStore(grdb)
            return try AppGRDBSide.insert(data, path: grdb)
        } persistence: {
            removeStore(persistence)
            return try AppPersistenceSide.insert(data, path: persistence)
        }
        try copyStore(raw, to: appRawTemplate)
        try copyStore(grdb, to: appGRDBTemplate)
        try copyStore(persistence, to: appPersistenceTemplate)
        for store in [raw, grdb, persistence] { removeStore(store) }
        withExtendedLifetime(values) {}
        recordApp(SideBySideRow(
            workload: "insert one by one + save once", size: "\(data.books.count)", raw: r, grdb: g, persistence: p,
            goal: Self.appTargets.insert))
    }

    /// Update 10% and delete 10%, each round on fresh copies of the templates.
    mutating func appWrites(_ data: AppBookData) throws {
        let chosen = stride(from: 0, to: data.books.count, by: 10).map { data.books[$0] }
        var changes: [String: AppChange] = [:]
        for book in chosen {
            let title = book.title + " (revised)"
            changes[book.title] = AppChange(title: title, canonicalTitle: CanonicalText.fold(title), price: book.price + 1)
        }
        let titles = Set(chosen.map(\.title))
        let (grdb, persistence) = (path("app-grdb-work.sqlite"), path("app-persistence-work.sqlite"))
        let update = try rotatingRounds("update 10%", sides: ["GRDB", "Persistence"]) { side in
            if side == 0 {
                try copyStore(appGRDBTemplate, to: grdb)
                return try AppGRDBSide.update(path: grdb, changes: changes)
            }
            try copyStore(appPersistenceTemplate, to: persistence)
            return try AppPersistenceSide.update(path: persistence, changes: changes)
        }
        recordApp(SideBySideRow(
            workload: "update 10% + save", size: "\(chosen.count)", raw: nil, grdb: update[0], persistence: update[1],
            goal: Self.appTargets.update))
        let delete = try rotatingRounds("delete 10%", sides: ["GRDB", "Persistence"]) { side in
            if side == 0 {
                try copyStore(appGRDBTemplate, to: grdb)
                return try AppGRDBSide.delete(path: grdb, titles: titles)
            }
            try copyStore(appPersistenceTemplate, to: persistence)
            return try AppPersistenceSide.delete(path: persistence, titles: titles)
        }
        recordApp(SideBySideRow(
            workload: "delete 10% + save (GRDB `deleteAll(keys:)`, Persistence one `delete` an object)",
            size: "\(chosen.count)", raw: nil, grdb: delete[0], persistence: delete[1], goal: Self.appTargets.delete))
        for store in [grdb, persistence] { removeStore(store) }
    }

    /// Memory growth holding every fetched book, each sample a child process
    /// (`MemoryChild`, sides `app-grdb` and `app-persistence`), the sides alternating.
    mutating func appMemory() throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
        let output = path("app-memory-child.txt")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var growth = (grdb: Samples(), persistence: Samples())
        var held = (grdb: Samples(), persistence: Samples())
        for round in 1...max(3, options.rounds) {
            for side in round % 2 == 0 ? ["app-persistence", "app-grdb"] : ["app-grdb", "app-persistence"] {
                let store = side == "app-grdb" ? appGRDBTemplate : appPersistenceTemplate
                _ = try runChild(me, ["--memory-child", side, store], output: output)
                let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
                    .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                guard fields.count == 4, fields[0] > 0 else {
                    throw ChildProcessError(description: "The memory child for \(side) printed no measurement.")
                }
                // Megabytes (10^6 bytes) above the resident size before the fetch.
                let peak = (fields[2] - fields[1]) * 1024 / 1e6
                let kept = (fields[3] - fields[1]) * 1024 / 1e6
                if side == "app-grdb" {
                    growth.grdb.add(peak)
                    held.grdb.add(kept)
                } else {
                    growth.persistence.add(peak)
                    held.persistence.add(kept)
                }
                print(String(format: "  app memory round %d, %@: peak +%.1f MB, held +%.1f MB", round, side, peak, kept))
            }
        }
        let rows = [
            SideBySideRow(
                workload: "memory growth, peak while fetching and reading all", size: "\(options.books)", raw: nil,
                grdb: growth.grdb, persistence: growth.persistence, goal: Self.appTargets.memory, unit: "MB"),
            SideBySideRow(
                workload: "memory growth, still held after the fetch (objects kept)", size: "\(options.books)", raw: nil,
                grdb: held.grdb, persistence: held.persistence, goal: Self.appTargets.memory, unit: "MB"),
        ]
        for row in rows { recordApp(row) }
    }

    /// The app-shaped results as a Markdown table.
    func appTable() -> String {
        var lines = [
            "| Workload | N | raw C | GRDB | Persistence | Persistence / GRDB | Persistence / C | target | met |",
            "|---|---:|---:|---:|---:|---:|---:|---|:-:|",
        ]
        for row in appRows {
            let show = { (samples: Samples) in
                row.unit == "MB" ? String(format: "%.1f MB", samples.median) : milliseconds(samples.median)
            }
            let cells = [
                row.workload + (row.note.isEmpty ? "" : " (\(row.note))"), row.size, row.raw.map(show) ?? "–",
                show(row.grdb), show(row.persistence), ratioText(row.persistenceOverGRDB),
                ratioText(row.persistenceOverRaw), row.goal.map { "≤ \(format($0))× GRDB" } ?? "",
                row.met.map { $0 ? "yes" : "**no**" } ?? "",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
