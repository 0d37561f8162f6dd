#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceStore

/// One fetch request against a PostgreSQL store, answered exactly as `PredicateEvaluator`
/// and the context's in-memory sort answer it.
///
/// The request is compiled by the relational core (`RelationalFetchCompiler` over
/// `PGRelationalLayout`, in `PGRelationalDialect`'s SQL): the entity's rows (its
/// sub-entities' as asked); each top-level `AND` term of the predicate the layout answers
/// exactly, key paths through to-ones as joins and through to-manys (`ANY`/`ALL`/`NONE`,
/// `@count`) as subqueries; then, when every term ran on the server and no search is asked,
/// the sort (in `SortValueOrder`'s order, ties by primary key), `fetchLimit` and
/// `fetchOffset` (`LIMIT`/`OFFSET`), and a count (`count(*)`). For a search, only the rows
/// whose canonical columns hold every word (`LIKE '%word%'`, which the `pg_trgm` GIN indexes
/// answer). Every value is a bound parameter, every identifier quoted.
///
/// Whatever the server did not answer runs in memory on the rows it returned, by the same
/// code that evaluates unsaved objects: the terms that did not compile (the residual), the
/// search's exact match and rank, a sort the server cannot make, and then the window. Rows a
/// key path reaches there (`author.name`, `tags.name`) are read many per statement
/// (`PGRowResolver`).
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

    /// The statement reading a request's candidate rows, and which parts of the request it
    /// answers itself.
    struct Plan {
        /// `FROM … [JOIN …] [WHERE …]`, without the select list.
        var source: String
        /// `ORDER BY` list.
        var order: String
        /// `LIMIT $n OFFSET $m` (or less), its placeholders numbered after `parameters`.
        var window: String
        /// The parameters of `source`.
        var parameters: [PGValue]
        /// The parameters of `window`.
        var windowParameters: [PGValue]
        /// The terms of the predicate the server did not answer, to evaluate in memory.
        var residual: PredicateNode?
        /// How many top-level terms of the predicate `residual` holds.
        var residualTerms: Int
        /// Whether `order` is the request's sort.
        var sortsInSQL: Bool
        /// The search, to match and rank in memory.
        var search: SearchText?
        var searchPaths: [PGSearchPath]

        /// Whether the WHERE clause is the whole predicate.
        var filters: Bool { residual == nil }
        /// Whether the ORDER BY is the request's sort and the rows need nothing more, so that
        /// the window applies on the server.
        var sortsAndWindows: Bool { filters && sortsInSQL && search == nil }
        /// Whether the server counts the request's rows itself.
        var counts: Bool { filters && search == nil }
    }

    /// The plan for the request; nil when the search has no words (nothing matches).
    func plan() throws -> Plan? {
        var search: SearchText?
        var paths: [PGSearchPath] = []
        if let text = request.searchText {
            let searchText = SearchText(text)
            guard !searchText.words.isEmpty else { return nil }
            search = searchText
            paths = try searchPaths()
        }
        // On a server that does not compare text by code point, the predicate and the sort
        // are left to memory whole; the entity's rows are still picked on the server.
        var compiled = request
        compiled.fetchLimit = nil
        compiled.fetchOffset = 0
        compiled.searchText = nil
        if !store.compilesFetches {
            compiled.predicate = nil
            compiled.sortDescriptors = []
        }
        let layout = PGRelationalLayout(schema: store.schema, model: store.model)
        guard let query = RelationalFetchCompiler.compile(compiled, layout: layout) else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        var residual = query.residual
        if !store.compilesFetches, let predicate = request.predicate, predicate.expression != .truePredicate {
            residual = predicate.expression
        }
        var parameters = query.bindings.map(PGValue.init)
        var conditions = query.condition.map { [$0] } ?? []
        if let search {
            conditions += PGSearchPath.prefilter(words: search.words, paths: paths, parameters: &parameters)
        }
        var window = ""
        var windowParameters: [PGValue] = []
        if let limit = request.fetchLimit {
            windowParameters.append(.integer(Int64(max(limit, 0))))
            window += " LIMIT $\(parameters.count + windowParameters.count)"
        }
        if request.fetchOffset > 0 {
            windowParameters.append(.integer(Int64(request.fetchOffset)))
            window += " OFFSET $\(parameters.count + windowParameters.count)"
        }
        var source = "FROM \(query.from)"
        if !conditions.isEmpty { source += " WHERE " + conditions.joined(separator: " AND ") }
        let residualTerms: Int
        switch residual {
        case .none: residualTerms = 0
        case .and(let terms)?: residualTerms = terms.count
        case .some: residualTerms = 1
        }
        return Plan(
            source: source, order: query.ordering, window: window, parameters: parameters, windowParameters: windowParameters,
            residual: residual, residualTerms: residualTerms,
            sortsInSQL: store.compilesFetches ? query.sortsInSQL : request.sortDescriptors.isEmpty,
            search: search, searchPaths: paths)
    }

    /// The statement that reads the candidate rows, and its parameters.
    func statement(_ plan: Plan) -> (sql: String, parameters: [PGValue]) {
        let sql = "SELECT \(store.selectList(entity.table, alias: "t")) \(plan.source) ORDER BY \(plan.order)"
        guard plan.sortsAndWindows else { return (sql, plan.parameters) }
        return (sql + plan.window, plan.parameters + plan.windowParameters)
    }

    /// The rows the request fetches, in order, its window applied.
    func rows() throws -> [StoreRow] {
        if request.fetchLimit == 0 { return [] }
        guard let plan = try plan() else { return [] }
        let (sql, parameters) = statement(plan)
        let candidates = try store.rows(sql, parameters, table: entity.table)
        store.fetchTermsLeftToMemory += plan.residualTerms
        if plan.sortsAndWindows { return candidates }
        let resolver = PGRowResolver(store: store)
        var objects = resolver.adopt(candidates)
        do {
            if let residual = plan.residual {
                let evaluator = PredicateEvaluator(FetchPredicate(expression: residual))
                objects = try objects.filter { try evaluator.evaluate($0) }
            }
            var ranks: [Int64: Int] = [:]
            if let search = plan.search {
                var matched: [PGRowObject] = []
                for object in objects {
                    let fields = try plan.searchPaths.map { try $0.canonicalValue(of: object) }
                    guard search.matches(fields) else { continue }
                    ranks[object.row.primaryKey] = search.rank(fields)
                    matched.append(object)
                }
                objects = matched
            }
            // Rows the server sorted stay in its order once filtered; a search ranks them.
            if !plan.sortsInSQL || plan.search != nil {
                objects = try PGSorter(request.sortDescriptors).sorted(objects, ranks: plan.search == nil ? nil : ranks)
            }
        } catch let error as FetchPredicateError {
            throw FetchError(entity: request.entityName, reason: error.description)
        }
        let start = min(request.fetchOffset, objects.count)
        let end = request.fetchLimit.map { min(objects.count, start + max($0, 0)) } ?? objects.count
        return objects[start..<end].map(\.row)
    }

    /// How many rows the request fetches: `count(*)` on the server when it filters the
    /// rows itself (no order is needed to count a window), else the rows counted after
    /// memory's part.
    func count() throws -> Int {
        if request.fetchLimit == 0 { return 0 }
        guard let plan = try plan() else { return 0 }
        guard plan.counts else { return try rows().count }
        let sql = "SELECT count(*) FROM (SELECT 1 \(plan.source)\(plan.window)) AS \"c\""
        guard let text = try store.connection.scalar(sql, plan.parameters + plan.windowParameters), let count = Int(text) else {
            throw PostgreSQLStoreError.corruptValue(entity: entity.table.name, attribute: "count(*)")
        }
        return count
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
