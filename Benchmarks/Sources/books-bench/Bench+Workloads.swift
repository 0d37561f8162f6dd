import BookCatalog
import Foundation
import Persistence
import RawSQLite

/// Workloads 1, 2, 3 and 5: in-process, N books.
extension Bench {
    /// 1. Insert N books with their authors into a new file store, one transaction.
    mutating func insertWorkload() throws {
        let data = data()
        let shape = try searchShape()
        let values = data.cValues(canonical: false)
        let raw = path("raw-insert.sqlite")
        let persistence = path("persistence-insert.sqlite")
        let batch = path("persistence-batch-insert.sqlite")
        var batched = Samples()
        let (r, p) = try rounds("insert") {
            removeStore(raw)
            return try time { try RawSide.insert(values, path: raw, create: true, shape: shape) }
        } persistence: {
            removeStore(persistence)
            let seconds = try PersistenceSide.insert(data, path: persistence)
            removeStore(batch)
            batched.add(try PersistenceSide.batchInsert(data, path: batch))
            return seconds
        }
        try copyStore(raw, to: rawTemplate)
        try copyStore(persistence, to: persistenceTemplate)
        record(ResultRow(workload: "1. insert + save", size: "\(options.books)", raw: r, persistence: p, target: .ratio(1.5)))
        // For scale, not the target: the rows without an object each, as `books seed` writes them.
        record(ResultRow(
            workload: "1. for scale: the same books as batch rows (`BatchInsertRequest`)", size: "\(options.books)", raw: r,
            persistence: batched, target: .none))
        removeStore(batch)
    }

    /// 2. Fetch all N books as objects and read every attribute.
    mutating func fetchWorkload() throws {
        try ensureTemplates()
        let n = options.books
        var kept = Samples()
        let (r, p) = try rounds("fetch") {
            var rows: Int64 = 0
            let seconds = try time { rows = try RawSide.fetchAll(path: rawTemplate) }
            try expect(Int(rows) == n, "raw fetch read \(rows) rows, expected \(n)")
            kept.add(try time { rows = try RawSide.fetchAllKept(path: rawTemplate) })
            try expect(Int(rows) == n, "raw fetch keeping values read \(rows) rows, expected \(n)")
            return seconds
        } persistence: {
            let (seconds, rows) = try PersistenceSide.fetchAll(path: persistenceTemplate)
            try expect(rows == n, "Persistence fetch read \(rows) books, expected \(n)")
            return seconds
        }
        record(ResultRow(workload: "2. fetch all, read every attribute", size: "\(n)", raw: r, persistence: p, target: .ratio(1.5)))
        // For scale, not the target: raw C that copies every value out and keeps every row
        // until the end, as the objects do (raw_fetch_all_kept).
        record(ResultRow(
            workload: "2. for scale: fetch all against raw C keeping every value", size: "\(n)", raw: kept,
            persistence: p, target: .none))
    }

    /// 2b. Workload 2's fetch on the view context while a background context of the same
    /// container imports, against the same fetch alone (in the raw column): the import's
    /// saves hold the writer, and the fetch reads through a reader connection of its own.
    mutating func busyFetchWorkload() throws {
        try ensureTemplates()
        let data = data()
        let n = options.books
        let copy = path("persistence-busy.sqlite")
        var imported: [Int] = []
        let (alone, busy) = try rounds("busy-fetch") {
            try copyStore(persistenceTemplate, to: copy)
            let (seconds, rows) = try PersistenceSide.fetchAll(path: copy)
            try expect(rows == n, "Persistence fetch read \(rows) books, expected \(n)")
            return seconds
        } persistence: {
            try copyStore(persistenceTemplate, to: copy)
            let result = try PersistenceSide.fetchAllDuringImport(data, path: copy)
            try expect(result.rows >= n, "Persistence fetch during an import read \(result.rows) books, expected at least \(n)")
            imported.append(result.imported)
            return result.seconds
        }
        removeStore(copy)
        let median = imported.sorted()[imported.count / 2]
        record(ResultRow(
            workload: "2b. fetch all while a background context imports (raw column: the same fetch alone)",
            size: "\(n)", raw: alone, persistence: busy, target: .ratio(2),
            note: "\(median) books imported meanwhile (median)"))
    }

    /// 3. Fetch sorted by publication date and group into month sections.
    mutating func sectionsWorkload() throws {
        try ensureTemplates()
        var sections = (raw: Int64(0), persistence: 0)
        let (r, p) = try rounds("sections") {
            var result: (sections: Int64, rows: Int64) = (0, 0)
            let seconds = try time { result = try RawSide.fetchMonths(path: rawTemplate) }
            sections.raw = result.sections
            return seconds
        } persistence: {
            let result = try PersistenceSide.fetchMonths(path: persistenceTemplate)
            sections.persistence = result.sections
            return result.seconds
        }
        try expect(Int(sections.raw) == sections.persistence, "raw made \(sections.raw) sections, Persistence \(sections.persistence)")
        record(ResultRow(
            workload: "3. sorted fetch into month sections", size: "\(options.books)", raw: r, persistence: p,
            target: .ratio(2), note: "\(sections.persistence) sections"))
    }

    /// The books every tenth book of the data: the 10% that workload 5 changes.
    func tenth() -> [Int] { Array(stride(from: 0, to: options.books, by: 10)) }

    /// What workload 5a writes into the tenth: each chosen book's title revised and its price
    /// one more, as the raw side binds them (keys, titles, price texts) and as the object
    /// sides apply them (by UUID).
    struct TenthChanges {
        let keys: [Int64]
        let titles: [String]
        let priceTexts: [String]
        let byUUID: [UUID: (title: String, price: Decimal)]
    }

    mutating func tenthChanges() -> TenthChanges {
        let books = data().books
        let chosen = tenth()
        let titles = chosen.map { books[$0].title + " (revised)" }
        let prices = chosen.map { books[$0].price + 1 }
        var byUUID: [UUID: (title: String, price: Decimal)] = [:]
        for (k, i) in chosen.enumerated() { byUUID[books[i].uuid] = (titles[k], prices[k]) }
        return TenthChanges(
            keys: chosen.map { Int64($0 + 1) }, titles: titles, priceTexts: prices.map(DecimalText.format), byUUID: byUUID)
    }

    /// 5a. Update 10% of the books (title and price) and save.
    mutating func updateWorkload() throws {
        try ensureTemplates()
        let shape = try searchShape()
        let changes = tenthChanges()
        let raw = path("raw-work.sqlite")
        let persistence = path("persistence-work.sqlite")
        let (r, p) = try rounds("update") {
            try copyStore(rawTemplate, to: raw)
            return try time {
                try RawSide.update(path: raw, shape: shape, keys: changes.keys, titles: changes.titles, prices: changes.priceTexts)
            }
        } persistence: {
            try copyStore(persistenceTemplate, to: persistence)
            return try PersistenceSide.update(path: persistence, changes: changes.byUUID)
        }
        record(ResultRow(workload: "5a. update 10% + save", size: "\(changes.keys.count)", raw: r, persistence: p, target: .ratio(2)))
    }

    /// 5b. Delete 10% of the books and save.
    mutating func deleteWorkload() throws {
        try ensureTemplates()
        let data = data()
        let shape = try searchShape()
        let chosen = tenth()
        let uuids = Set(chosen.map { data.books[$0].uuid })
        let raw = path("raw-work.sqlite")
        let persistence = path("persistence-work.sqlite")
        let (r, p) = try rounds("delete") {
            try copyStore(rawTemplate, to: raw)
            return try time { try RawSide.delete(path: raw, shape: shape, keys: chosen.map { Int64($0 + 1) }) }
        } persistence: {
            try copyStore(persistenceTemplate, to: persistence)
            return try PersistenceSide.delete(path: persistence, uuids: uuids)
        }
        record(ResultRow(workload: "5b. delete 10% + save", size: "\(chosen.count)", raw: r, persistence: p, target: .ratio(2)))
    }

    func expect(_ condition: Bool, _ message: String) throws {
        if !condition { throw ChildProcessError(description: "Check failed: \(message).") }
    }
}
