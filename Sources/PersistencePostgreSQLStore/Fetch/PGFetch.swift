#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// One fetch request against a PostgreSQL store, answered exactly as `PredicateEvaluator`
/// and the context's in-memory sort answer it.
///
/// The server selects the candidate rows: the entity's (its sub-entities' as asked), and
/// for a search only the rows whose canonical columns hold every word (`LIKE '%word%'`,
/// which the `pg_trgm` GIN indexes answer), every value a bound parameter. The predicate,
/// the search's exact match and rank, the sort and the window are then applied to those
/// rows in memory, by the same code that evaluates unsaved objects, so that folding,
/// decimal and NaN comparisons, nil and two-valued logic cannot differ between stores.
/// Rows a key path reaches (`author.name`, `tags.name`) are read many per statement
/// (`PGRowResolver`). No predicate value or search word ever becomes SQL text.
struct PGFetch {
    let store: PostgreSQLStore
    let request: FetchRequest
    let entity: PGSchema.Entity

    /// Checks the request (entity, key paths, sort keys, search paths) before any row is read.
    ///
    /// - Throws: `FetchError` for a request that cannot run.
    init(store: PostgreSQLStore, request: FetchRequest) throws {
        guard let entity = store.schema.entities[request.entityName] else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        self.store = store
        self.request = request
        self.entity = entity
        let checker = PGKeyPathChecker(schema: store.schema, entity: entity.schema)
        if let predicate = request.predicate { try checker.check(predicate.expression) }
        for key in request.sortDescriptors {
            try checker.check(key.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        }
        if request.searchText != nil { _ = try searchPaths() }
    }

    /// The rows the request fetches, in order, its window applied.
    func rows() throws -> [StoreRow] {
        if request.fetchLimit == 0 { return [] }
        var parameters: [PGValue] = []
        var conditions: [String] = []
        if !request.includesSubentities, entity.table.hasEntityColumn {
            parameters.append(.text(entity.schema.name))
            conditions.append("\"t\".\"_entity\" = $\(parameters.count)")
        } else if let filter = store.entityFilter(entity, includesSubentities: true, alias: "t", parameters: &parameters) {
            conditions.append(filter)
        }
        var search: SearchText?
        var paths: [PGSearchPath] = []
        if let text = request.searchText {
            let searchText = SearchText(text)
            guard !searchText.words.isEmpty else { return [] }
            search = searchText
            paths = try searchPaths()
            conditions += PGSearchPath.prefilter(words: searchText.words, paths: paths, parameters: &parameters)
        }
        let table = entity.table
        var sql = "SELECT \(store.selectList(table, alias: "t")) FROM \(pgIdentifier(table.name)) AS \"t\""
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY \"t\".\"_id\""
        let candidates = try store.rows(sql, parameters, table: table)
        let resolver = PGRowResolver(store: store)
        var objects = resolver.adopt(candidates)
        do {
            if let predicate = request.predicate, predicate.expression != .truePredicate {
                let evaluator = PredicateEvaluator(predicate)
                objects = try objects.filter { try evaluator.evaluate($0) }
            }
            var ranks: [Int64: Int] = [:]
            if let search {
                var matched: [PGRowObject] = []
                for object in objects {
                    let fields = try paths.map { try $0.canonicalValue(of: object) }
                    guard search.matches(fields) else { continue }
                    ranks[object.row.primaryKey] = search.rank(fields)
                    matched.append(object)
                }
                objects = matched
            }
            objects = try PGSorter(request.sortDescriptors).sorted(objects, ranks: search == nil ? nil : ranks)
        } catch let error as FetchPredicateError {
            throw FetchError(entity: request.entityName, reason: error.description)
        }
        let start = min(request.fetchOffset, objects.count)
        let end = request.fetchLimit.map { min(objects.count, start + $0) } ?? objects.count
        return objects[start..<end].map(\.row)
    }

    /// The attributes a search reads (see `FetchRequest.searchKeyPaths`).
    func searchPaths() throws -> [PGSearchPath] {
        try PGSearchPath.paths(request.searchKeyPaths, from: entity, in: store.schema)
    }
}

/// Sorts rows in memory in the order the SQLite store's SQL and the context's `FetchSorter`
/// sort them: a search's rank first (best first), then the sort keys (nil first when
/// ascending; numbers by value, NaN after them; strings by code point; then data), ties by
/// primary key.
struct PGSorter {
    let keys: [SortKey]

    init(_ keys: [SortKey]) { self.keys = keys }

    func sorted(_ objects: [PGRowObject], ranks: [Int64: Int]?) throws -> [PGRowObject] {
        guard !keys.isEmpty || ranks != nil else { return objects }
        let paths = keys.map { $0.keyPath.split(separator: ".").map(String.init) }
        let evaluator = PredicateEvaluator(.alwaysTrue)
        var decorated: [(values: [PredicateValue], rank: Int, object: PGRowObject)] = []
        decorated.reserveCapacity(objects.count)
        for object in objects {
            let values = try paths.map { try evaluator.walk(.object(object), $0) }
            decorated.append((values, ranks?[object.row.primaryKey] ?? 0, object))
        }
        decorated.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            for (index, key) in keys.enumerated() {
                let order = SortValueOrder.compare(a.values[index], b.values[index])
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return a.object.row.primaryKey < b.object.row.primaryKey
        }
        return decorated.map(\.object)
    }
}
#endif
