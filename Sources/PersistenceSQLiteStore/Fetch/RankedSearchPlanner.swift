import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles
/// Answers a limited search (``FetchRequest/searchText`` with a `fetchLimit`) of a common
/// term without ranking every match.
///
/// A search orders by rank (``SearchText``), then by the request's sort keys, then by
/// primary key. The plain plan finds every match in the trigram index, ranks each and sorts
/// them: cheap for a selective term, but a 4-letter piece of a common word matches a large
/// part of a big catalogue, and ranking every one of those rows (a row lookup, the author
/// join, the rank function each) costs far more than the few asked for. When matches are
/// that dense, the best `offset + limit`
/// rows are found instead by:
///
/// 1. **Tiers from the index.** The best tier `t` whose better rows (rank < t) the index can
///    bound in at most ``tierRowLimit`` rows (``FetchCompiler/searchTierRows(_:keyPaths:below:)``):
///    for a piece inside words ("ight") every row ranks 3 and nothing better exists; for the
///    start of a word ("ligh") rank 0 needs the piece as a whole word, which almost no row has.
/// 2. **A walk in sort order.** The rows that meet the predicate, in the request's order
///    (the first sort key's index, or the table for no sort key), each tested for the match
///    and ranked, until `offset + limit` rows of rank ≤ t are seen, at most
///    ``visitedRowLimit`` rows. With matches that dense, that is a few hundred rows.
/// 3. **The request itself, on those rows.** The rows of both steps are a superset of the
///    answer: every row better than `t` is in step 1's set, and the rest of the answer are
///    the first rows of rank t in sort order, all seen by step 2. The request runs with its
///    own ORDER BY, LIMIT and OFFSET restricted to them (`_id IN json_each(?)`), so the
///    result is the plain plan's, row for row.
///
/// Any step that cannot settle the answer (matches too sparse for the walk, tier sets too
/// large, the walk ending short) returns nil, and the plain plan runs.
package struct RankedSearchPlanner {
    /// The store searched.
    let store: SQLiteStore

    /// The most rows the walk reads before giving up.
    package static let visitedRowLimit = 20_000
    /// The walk is tried when the matches' estimated density says it reads at most this
    /// many rows.
    package static let expectedVisits = 4_000
    /// The most rows a tier set may hold to be ranked as a whole.
    package static let tierRowLimit = 1_000
    /// The most rows (`offset + limit`) this plan looks for; past it the plain plan runs.
    package static let neededRowLimit = 2_000

    /// Creates a planner for `store`.
    package init(store: SQLiteStore) { self.store = store }

    /// The request's query restricted to a superset of its answer, or nil when the plain
    /// plan should run.
    ///
    /// - Throws: `FetchError` as a fetch of `request` would; `SQLiteError` when the store
    ///   cannot be read.
    package func narrowedQuery(for request: FetchRequest) throws -> StoreQuery? {
        guard let text = request.searchText, let limit = request.fetchLimit, limit > 0,
            store.searchIndexesAreUsable, request.fetchOffset >= 0,
            request.fetchOffset < Self.neededRowLimit, limit <= Self.neededRowLimit
        else { return nil }
        let needed = request.fetchOffset + limit
        guard !SearchText(text).words.isEmpty else { return nil }
        let indexCompiler = try FetchCompiler(schema: store.schema, entityName: request.entityName)
        let table = indexCompiler.mapping.table
        guard try walksInOrder(request, indexCompiler) else { return nil }
        guard try isDense(text, request, indexCompiler, needed: needed) else { return nil }

        // 1. The best tier whose better rows the index bounds.
        var tier = 0
        var better: [Int64] = []
        var tried: Set<String> = []
        tiers: for candidate in [3, 2, 1] {
            guard let sets = try indexCompiler.searchTierRows(text, keyPaths: request.searchKeyPaths, below: candidate)
            else { continue }
            for lookups in sets {
                let key = lookups.map { $0.sql + "\u{0}" + ($0.arguments.first?.textValue ?? "") }.joined(separator: "\u{0}")
                guard tried.insert(key).inserted else { continue }
                if let rows = try read(lookups) {
                    tier = candidate
                    better = rows
                    break tiers
                }
            }
        }

        // 2. The walk: rows meeting the predicate, in order, ranked, until `needed` of rank ≤ tier.
        var walker = try FetchCompiler(schema: store.schema, entityName: request.entityName)
        walker.usesSearchIndexes = false
        var plain = request
        plain.searchText = nil
        plain.fetchLimit = nil
        plain.fetchOffset = 0
        var base = try walker.query(for: plain)
        let scan = try walker.search(text, keyPaths: request.searchKeyPaths)
        base.joins = walker.joins
        guard let rank = scan.rank, let ordering = base.ordering else { return nil }
        let key = "\(sqlIdentifier(table.name)).\"_id\""
        let inner = "SELECT \(key) AS \"k\", CASE WHEN \(scan.condition) THEN \(rank) ELSE 4 END AS \"r\""
            + base.fromClause + base.whereClause + " ORDER BY \(ordering) LIMIT ?"
        let walk = try store.database.query(
            "SELECT \"k\" FROM (\(inner)) WHERE \"r\" <= ? LIMIT ?",
            scan.arguments + scan.rankArguments + base.arguments + base.orderingArguments
                + [.integer(Int64(Self.visitedRowLimit)), .integer(Int64(tier)), .integer(Int64(needed))])
        guard walk.count == needed else { return nil }

        // 3. The request on those rows.
        var final = try FetchCompiler(schema: store.schema, entityName: request.entityName)
        final.usesSearchIndexes = false
        var query = try final.query(for: request)
        store.fetchTermsOutsideCore += final.termsOutsideCore
        var keys = better
        keys += walk.compactMap { $0.first?.int64Value }
        let list = "[" + keys.map(String.init).joined(separator: ",") + "]"
        let restriction = "\(key) IN (SELECT \"value\" FROM json_each(?))"
        query.condition = query.condition.map { "(\($0)) AND \(restriction)" } ?? restriction
        query.arguments.append(.text(list))
        return query
    }

    // MARK: - Internals

    /// The primary keys the lookups find together, or nil past ``tierRowLimit``: each
    /// lookup streams and stops at what is left of the limit (a lookup that reaches it may
    /// have more rows, so that is a nil too).
    private func read(_ lookups: [SearchLookup]) throws -> [Int64]? {
        var keys: Set<Int64> = []
        for lookup in lookups {
            let left = Self.tierRowLimit + 1 - keys.count
            let rows = try store.database.query(
                "SELECT \"id\" FROM (\(lookup.sql)) LIMIT ?", lookup.arguments + [.integer(Int64(left))])
            if rows.count >= left { return nil }
            for row in rows { if let key = row.first?.int64Value { keys.insert(key) } }
        }
        return keys.sorted()
    }

    /// Whether the walk reads rows in the request's order from an index: no sort key (the
    /// table's own order), or a first sort key that is a column of the table leading a
    /// plain index.
    private func walksInOrder(_ request: FetchRequest, _ compiler: FetchCompiler) throws -> Bool {
        guard let first = request.sortDescriptors.first else { return true }
        let table = compiler.mapping.table
        guard !first.keyPath.contains("."), table.column(named: first.keyPath) != nil else { return false }
        let found = try store.database.scalar(
            "SELECT count(*) FROM pragma_index_list(?) AS l, pragma_index_info(l.name) AS i "
                + "WHERE l.partial = 0 AND i.seqno = 0 AND i.name = ?",
            [.text(table.name), .text(first.keyPath)])
        return (found.int64Value ?? 0) > 0
    }

    /// Whether the matches are dense enough for the walk to find `needed` of them within
    /// about ``expectedVisits`` rows: estimated from the rows holding every indexable word
    /// in one attribute of the fetched table, counted up to the number that density needs.
    private func isDense(_ text: String, _ request: FetchRequest, _ compiler: FetchCompiler, needed: Int) throws
        -> Bool
    {
        guard let estimate = FetchCompiler.searchEstimateQuery(text) else { return false }
        let table = compiler.mapping.table
        let rows = try store.database.scalar("SELECT max(\"_id\") FROM \(sqlIdentifier(table.name))").int64Value ?? 0
        let wanted = max(1, Int64(needed) * rows / Int64(Self.expectedVisits))
        for path in try compiler.searchPaths(request.searchKeyPaths) where path.steps.isEmpty {
            let fts = sqlIdentifier(path.index.name)
            let count = try store.database.scalar(
                "SELECT count(*) FROM (SELECT rowid FROM \(fts) WHERE \(fts).\(sqlIdentifier(path.column.name)) MATCH ? LIMIT ?)",
                [.text(estimate), .integer(wanted)])
            if (count.int64Value ?? 0) >= wanted { return true }
        }
        return false
    }
}
