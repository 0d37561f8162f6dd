import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Issue #27's comparison: raw C, GRDB records and Persistence on the same books, each
/// workload's three sides run back to back in every round, the order rotating from round
/// to round so that no side always runs first (or last, after the others warmed the cache).
extension Bench {
    var grdbTemplate: String { path("grdb-\(options.books).sqlite") }

    /// The price bound of the filtered fetch. The issue's `price < 100` selected 20,000 of
    /// 100,000 books; the synthetic prices run 1.00…50.98, so `price < 11` selects the same
    /// fifth.
    static let filterPrice = 11

    /// Runs every three-sided workload: insert (objects and batch), fetch all, filtered and
    /// sorted fetch, month sections, update and delete.
    mutating func grdbWorkload() throws {
        try sideBySideInsert()
        try sideBySideFetches()
        try sideBySideWrites()
    }

    /// `rounds` rounds of three sides, rotating which side goes first.
    func rounds3(
        _ name: String, raw: () throws -> Double, grdb: () throws -> Double, persistence: () throws -> Double
    ) throws -> (raw: Samples, grdb: Samples, persistence: Samples) {
        var samples = [Samples(), Samples(), Samples()]
        for round in 1...options.rounds {
            for k in 0..<3 {
                let side = (round - 1 + k) % 3
                switch side {
                case 0: samples[0].add(try raw())
                case 1: samples[1].add(try grdb())
                default: samples[2].add(try persistence())
                }
            }
            let last = samples.map { milliseconds($0.seconds.last ?? 0) }
            print("  \(name) round \(round): raw \(last[0]), GRDB \(last[1]), persistence \(last[2])")
        }
        return (samples[0], samples[1], samples[2])
    }

    mutating func record(_ row: SideBySideRow) {
        sideBySide.append(row)
        let goal = row.goal.map { " (goal ≤ \(format($0))×: \(row.met == true ? "met" : "MISSED"))" } ?? ""
        print(
            "→ \(row.workload): Persistence / GRDB \(ratioText(row.persistenceOverGRDB))\(goal), "
                + "Persistence / raw \(ratioText(row.persistenceOverRaw)), GRDB / raw \(ratioText(row.grdbOverRaw))")
    }

    /// Insert + save, and the batch paths, on new stores; the stores of the last round
    /// become the templates the other workloads copy.
    mutating func sideBySideInsert() throws {
        let data = data()
        let shape = try searchShape()
        let values = data.cValues(canonical: false)
        let raw = path("raw-insert.sqlite")
        let (grdb, grdbBatch) = (path("grdb-insert.sqlite"), path("grdb-batch-insert.sqlite"))
        let (persistence, persistenceBatch) = (path("persistence-insert.sqlite"), path("persistence-batch-insert.sqlite"))
        var batched = (grdb: Samples(), persistence: Samples())
        let (r, g, p) = try rounds3("insert") {
            removeStore(raw)
            return try time { try RawSide.insert(values, path: raw, create: true, shape: shape) }
        } grdb: {
            removeStore(grdb)
            let seconds = try GRDBSide.insert(data, path: grdb, shape: shape)
            removeStore(grdbBatch)
            batched.grdb.add(try GRDBSide.batchInsert(data, path: grdbBatch, shape: shape))
            return seconds
        } persistence: {
            removeStore(persistence)
            let seconds = try PersistenceSide.insert(data, path: persistence)
            removeStore(persistenceBatch)
            batched.persistence.add(try PersistenceSide.batchInsert(data, path: persistenceBatch))
            return seconds
        }
        try copyStore(raw, to: rawTemplate)
        try copyStore(grdb, to: grdbTemplate)
        try copyStore(persistence, to: persistenceTemplate)
        for store in [raw, grdb, grdbBatch, persistence, persistenceBatch] { removeStore(store) }
        record(SideBySideRow(
            workload: "insert + save (records / objects)", size: "\(options.books)", raw: r, grdb: g, persistence: p,
            goal: nil))
        record(SideBySideRow(
            workload: "batch insert (prepared statement / `BatchInsertRequest`)", size: "\(options.books)", raw: r,
            grdb: batched.grdb, persistence: batched.persistence, goal: nil))
    }

    /// Makes the GRDB template if the insert workload has not.
    mutating func ensureGRDBTemplate() throws {
        try ensureTemplates()
        guard !FileManager.default.fileExists(atPath: grdbTemplate) else { return }
        removeStore(grdbTemplate)
        _ = try GRDBSide.insert(data(), path: grdbTemplate, shape: try searchShape())
    }

    /// Fetch all, the filtered and sorted fetch, and month sections.
    mutating func sideBySideFetches() throws {
        try ensureGRDBTemplate()
        let n = options.books
        let (r, g, p) = try rounds3("fetch") {
            var rows: Int64 = 0
            let seconds = try time { rows = try RawSide.fetchAll(path: rawTemplate) }
            try expect(Int(rows) == n, "raw fetch read \(rows) rows, expected \(n)")
            return seconds
        } grdb: {
            let (seconds, rows) = try GRDBSide.fetchAll(path: grdbTemplate)
            try expect(rows == n, "GRDB fetch read \(rows) books, expected \(n)")
            return seconds
        } persistence: {
            let (seconds, rows) = try PersistenceSide.fetchAll(path: persistenceTemplate)
            try expect(rows == n, "Persistence fetch read \(rows) books, expected \(n)")
            return seconds
        }
        record(SideBySideRow(
            workload: "fetch all, read every field", size: "\(n)", raw: r, grdb: g, persistence: p, goal: 0.8))

        // GRDB twice: as its plain query API orders (which walks the date index), and with
        // Persistence's plan (rows read in table order, sorted in memory).
        for grdbSorts in [false, true] { try sortedFetches(grdbSorting: grdbSorts) }
        if GRDBSide.checksum == 42 { print("") }  // keeps the reads from being optimised away
    }

    /// The filtered and sorted fetch and the month sections, GRDB `sorting` or not (see
    /// `GRDBSide.fetchCheaper`); the raw side always has SQLite read in table order and sort
    /// (`+publishDate`), as a plain C program would.
    private mutating func sortedFetches(grdbSorting: Bool) throws {
        let n = options.books
        let plan = grdbSorting ? ", GRDB sorting as Persistence" : ""
        let price = Self.filterPrice
        let sql = "SELECT \"_id\", \"canonicalTitle\", \"color\", \"price\", \"publishDate\", \"title\", \"uuid\", \"author\" "
            + "FROM \"Book\" WHERE CAST(\"price\" AS REAL) < \(price) ORDER BY +\"publishDate\" DESC"
        var counts = (raw: 0, grdb: 0, persistence: 0)
        let (fr, fg, fp) = try rounds3("price < \(price)\(plan)") {
            var rows: Int64 = 0
            let seconds = try time { rows = try RawSide.fetchQuery(path: rawTemplate, sql: sql) }
            counts.raw = Int(rows)
            return seconds
        } grdb: {
            let (seconds, rows) = try GRDBSide.fetchCheaper(than: price, path: grdbTemplate, sorting: grdbSorting)
            counts.grdb = rows
            return seconds
        } persistence: {
            let (seconds, rows) = try PersistenceSide.fetchCheaper(than: price, path: persistenceTemplate)
            counts.persistence = rows
            return seconds
        }
        try expect(
            counts.raw == counts.grdb && counts.grdb == counts.persistence,
            "price < \(price) found \(counts.raw) raw, \(counts.grdb) GRDB, \(counts.persistence) Persistence")
        record(SideBySideRow(
            workload: "`price < \(price)` sorted by `publishDate` desc, every field read\(plan)", size: "\(counts.persistence)",
            raw: fr, grdb: fg, persistence: fp, goal: 0.9, note: "of \(n)"))

        var sections = (raw: 0, grdb: 0, persistence: 0)
        let (sr, sg, sp) = try rounds3("sections\(plan)") {
            var result: (sections: Int64, rows: Int64) = (0, 0)
            let seconds = try time { result = try RawSide.fetchMonths(path: rawTemplate) }
            sections.raw = Int(result.sections)
            return seconds
        } grdb: {
            let result = try GRDBSide.fetchMonths(path: grdbTemplate, sorting: grdbSorting)
            sections.grdb = result.sections
            return result.seconds
        } persistence: {
            let result = try PersistenceSide.fetchMonths(path: persistenceTemplate)
            sections.persistence = result.sections
            return result.seconds
        }
        try expect(
            sections.raw == sections.grdb && sections.grdb == sections.persistence,
            "sections: \(sections.raw) raw, \(sections.grdb) GRDB, \(sections.persistence) Persistence")
        record(SideBySideRow(
            workload: "sorted fetch into month sections\(plan)", size: "\(n)", raw: sr, grdb: sg, persistence: sp, goal: nil,
            note: "\(sections.persistence) sections"))
    }

    /// Update 10% and delete 10%, each round on fresh copies of the templates.
    mutating func sideBySideWrites() throws {
        try ensureGRDBTemplate()
        let data = data()
        let shape = try searchShape()
        let chosen = tenth()
        let revised = tenthChanges()
        let uuids = Set(chosen.map { data.books[$0].uuid })
        let (raw, grdb, persistence) = (path("raw-work.sqlite"), path("grdb-work.sqlite"), path("persistence-work.sqlite"))
        let (ur, ug, up) = try rounds3("update") {
            try copyStore(rawTemplate, to: raw)
            return try time {
                try RawSide.update(path: raw, shape: shape, keys: revised.keys, titles: revised.titles, prices: revised.priceTexts)
            }
        } grdb: {
            try copyStore(grdbTemplate, to: grdb)
            return try GRDBSide.update(path: grdb, changes: revised.byUUID)
        } persistence: {
            try copyStore(persistenceTemplate, to: persistence)
            return try PersistenceSide.update(path: persistence, changes: revised.byUUID)
        }
        record(SideBySideRow(
            workload: "update 10% + save", size: "\(chosen.count)", raw: ur, grdb: ug, persistence: up, goal: nil))
        let (dr, dg, dp) = try rounds3("delete") {
            try copyStore(rawTemplate, to: raw)
            return try time { try RawSide.delete(path: raw, shape: shape, keys: chosen.map { Int64($0 + 1) }) }
        } grdb: {
            try copyStore(grdbTemplate, to: grdb)
            return try GRDBSide.delete(path: grdb, uuids: uuids)
        } persistence: {
            try copyStore(persistenceTemplate, to: persistence)
            return try PersistenceSide.delete(path: persistence, uuids: uuids)
        }
        record(SideBySideRow(
            workload: "delete 10% + save (`deleteAll(keys:)` / objects)", size: "\(chosen.count)", raw: dr, grdb: dg,
            persistence: dp, goal: nil))
        for store in [raw, grdb, persistence] { removeStore(store) }
    }
}

extension RawSide {
    /// Runs a SELECT of the Book columns in table order and reads every row; returns the rows.
    static func fetchQuery(path: String, sql: String) throws -> Int64 {
        var rows: Int64 = 0
        var checksum: Int64 = 0
        try check(raw_fetch_query(path, sql, &rows, &checksum), "query on \(path)")
        return rows
    }
}
