import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// Fetching: the rows of the request's entities, filtered by its predicate and search text,
/// sorted and windowed, in SQL over Core Data's layout where that answers exactly, in memory
/// otherwise (see `fetchedRows`).
extension CoreDataStore {
    /// Refuses a table holding a row whose `Z_ENT` names no entity of the table's hierarchy
    /// (a number missing from `Z_PRIMARYKEY`, or none): a fetch that filters by entity
    /// number would otherwise pass over it silently, and an export would drop it. The table
    /// is scanned once per connection: such a row comes only from an edit by hand.
    ///
    /// - Throws: `CoreDataStoreError` naming the table, the row's `Z_PK` and its `Z_ENT`.
    func refuseUnplacedRows(_ table: CoreDataLayout.Table) throws {
        guard !tablesWithEveryRowPlaced.contains(table.name) else { return }
        let known = layout.entities[table.rootName]?.hierarchyNumbers ?? []
        let sql =
            "SELECT Z_PK, Z_ENT FROM \(quoted(table.name)) WHERE Z_ENT IS NULL"
            + (known.isEmpty ? "" : " OR Z_ENT NOT IN (\(known.map(String.init).joined(separator: ", ")))")
            + " ORDER BY Z_PK LIMIT 1"
        guard let row = try database.query(sql).first else {
            tablesWithEveryRowPlaced.insert(table.name)
            return
        }
        let number = row[1].int64Value.map(String.init) ?? "NULL"
        throw CoreDataStoreError(
            path: path,
            "row Z_PK \(row[0].int64Value.map(String.init) ?? "NULL") of \(table.name) has Z_ENT \(number), "
                + "which names no entity of \(table.rootName)'s hierarchy in Z_PRIMARYKEY; the row can't be "
                + "placed, so the store is refused rather than read without it")
    }

    /// The rows `request` fetches, in order, its offset and limit applied (see
    /// `forEachFetchedRow`).
    ///
    /// - Throws: `FetchError` for a request that cannot run.
    func fetchedRows(_ request: FetchRequest) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        try forEachFetchedRow(request) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// Calls `body` with each row `request` fetches, in order, its offset and limit applied,
    /// until `body` returns false.
    ///
    /// The request is compiled into SQL over Core Data's layout (`RelationalFetchCompiler`
    /// with `CoreDataRelationalLayout`): the SQL reads only the rows its compiled terms keep,
    /// in order and windowed where it can, a search's rank included; what it cannot answer
    /// exactly (the predicate's residual terms, a sort key, a search over fields SQL cannot
    /// rank) is done in memory on those rows, with the
    /// evaluator and the order every store must reproduce (`PredicateEvaluator`,
    /// `SortValueOrder`; nil first, strings by code point, ties by key).
    ///
    /// Rows are handed over as the statement steps to them, each decoded then (memory holds
    /// one row at a time), whenever SQL gives them in the request's order: a residual term
    /// drops a row as it comes, and the window is counted off as rows pass. Only a sort left
    /// to memory, or a search ranked in memory, keeps the rows that pass until the last.
    ///
    /// - Throws: `FetchError` for a request that cannot run.
    func forEachFetchedRow(_ request: FetchRequest, _ body: (consuming StoreRow) throws -> Bool) throws {
        let (table, query, searchPaths) = try compiled(request)
        let sql = query.selectSQL(columns: selectedColumns(table))
        // The rows a residual term or a search walks, and the related rows they reach: made
        // anew now and then, so that a long read does not keep every row it passed.
        var graph = RowSubjectGraph(store: self)
        var walked = 0
        let walker = PredicateEvaluator(.alwaysTrue)
        let evaluator = query.residual.map { PredicateEvaluator(FetchPredicate(expression: $0)) }
        // A search SQL ranks (`ranksSearch`) comes in order and windowed; any other is
        // matched again, ranked and windowed here.
        let search = query.ranksSearch ? nil : request.searchText.map(SearchText.init)
        let sortsInMemory = (!query.sortsInSQL && !request.sortDescriptors.isEmpty) || search != nil
        let windowsInMemory = !(query.windowInSQL && search == nil)
        let offset = windowsInMemory ? max(request.fetchOffset, 0) : 0
        let limit = windowsInMemory ? request.fetchLimit.map { max($0, 0) } : nil
        let sortPaths = request.sortDescriptors.map {
            $0.keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        var decorated: [(rank: Int, keys: [PredicateValue], row: StoreRow)] = []
        var skipped = 0
        var delivered = 0
        if limit == 0 { return }
        var stopped = false
        try forEachRow(sql, query.selectBindings.map(SQLiteValue.init), table: table) { row in
            if evaluator != nil || search != nil || sortsInMemory {
                walked += 1
                if walked % 4_096 == 0 { graph = RowSubjectGraph(store: self) }
            }
            if let evaluator {
                do {
                    guard try evaluator.evaluate(graph.subject(for: row)) else { return true }
                } catch let error as FetchPredicateError {
                    throw FetchError(entity: request.entityName, reason: error.message)
                }
            }
            var rank = 0
            if let search, let searchPaths {
                let fields = try searchPaths.map { path -> String in
                    if case .string(let value) = try walker.walk(.object(graph.subject(for: row)), path) {
                        return CanonicalText.fold(value)
                    }
                    return ""
                }
                // Text without a word matches nothing, as in the SQLite store.
                guard !search.words.isEmpty, search.matches(fields) else { return true }
                rank = search.rank(fields)
            }
            if sortsInMemory {
                let subject = graph.subject(for: row)
                decorated.append((rank, try sortPaths.map { try walker.walk(.object(subject), $0) }, row))
                return true
            }
            if skipped < offset {
                skipped += 1
                return true
            }
            delivered += 1
            if try !body(row) {
                stopped = true
                return false
            }
            return limit.map { delivered < $0 } ?? true
        }
        guard sortsInMemory, !stopped else { return }
        decorated.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            for (index, key) in request.sortDescriptors.enumerated() {
                let order = SortValueOrder.compare(a.keys[index], b.keys[index])
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return a.row.primaryKey < b.row.primaryKey
        }
        let start = min(offset, decorated.count)
        let end = limit.map { min(decorated.count, start + $0) } ?? decorated.count
        for index in start..<end where try !body(decorated[index].row) { return }
    }

    /// The number of rows `request` fetches: counted in SQL when SQL answers the whole
    /// request, else the rows fetched.
    ///
    /// - Throws: `FetchError` for a request that cannot run.
    func fetchedCount(_ request: FetchRequest) throws -> Int {
        let (_, query, _) = try compiled(request)
        guard query.windowInSQL, request.searchText == nil || query.ranksSearch else { return try fetchedRows(request).count }
        let count = try database.scalar(query.countSQL, query.bindings.map(SQLiteValue.init)).int64Value ?? 0
        return query.windowed(Int(count))
    }

    /// The request checked (every key known and stored, before any row is read) and compiled
    /// over Core Data's layout, with the key paths a search compares. A search is matched,
    /// ranked, sorted and windowed in SQL (`ranksSearch`) when its fields and sort keys
    /// allow; otherwise it is ranked and sorted in memory, and its request's window applied
    /// there too.
    func compiled(_ request: FetchRequest) throws
        -> (table: CoreDataLayout.Table, query: RelationalQuery, searchPaths: [[String]]?)
    {
        guard let entity = layout.entities[request.entityName], let table = layout.tables[entity.schema.rootName] else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        for key in request.sortDescriptors { _ = try checkedKeyPath(key.keyPath, from: entity.schema) }
        if let predicate = request.predicate { try check(predicate.expression, entity: entity.schema) }
        let searchPaths = try request.searchText.map { _ in try self.searchPaths(request.searchKeyPaths, entity: entity.schema) }
        let numbers: [Int64]? =
            !request.includesSubentities ? [entity.number] : entity.schema.ancestors.isEmpty ? nil : entity.hierarchyNumbers
        if numbers != nil { try refuseUnplacedRows(table) }
        let coreLayout = CoreDataRelationalLayout(layout: layout, model: model)
        var compiledRequest = request
        if request.searchText != nil,
            let query = RelationalFetchCompiler.compile(request, layout: coreLayout, searchKeyPaths: searchPaths),
            query.ranksSearch
        {
            return (table, query, searchPaths)
        }
        if request.searchText != nil {
            compiledRequest.fetchLimit = nil
            compiledRequest.fetchOffset = 0
            // Ranked and sorted in memory: the SQL reads the matches in key order, the
            // table's own, rather than walk a sort key's index to every row it tests.
            compiledRequest.sortDescriptors = []
        }
        guard
            let query = RelationalFetchCompiler.compile(
                compiledRequest, layout: coreLayout, searchKeyPaths: searchPaths, ranksSearch: false)
        else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        return (table, query, searchPaths)
    }

    /// Refuses a predicate naming a key the entity does not have, or a transient one,
    /// before any row is read.
    private func check(_ node: PredicateNode, entity schema: EntitySchema) throws {
        switch node {
        case .truePredicate, .falsePredicate: return
        case .and(let nodes), .or(let nodes): for node in nodes { try check(node, entity: schema) }
        case .not(let node): try check(node, entity: schema)
        case .comparison(let comparison):
            try check(comparison.left, entity: schema)
            try check(comparison.right, entity: schema)
        }
    }

    private func check(_ operand: PredicateNode.Operand, entity schema: EntitySchema) throws {
        switch operand {
        case .constant, .evaluatedObject, .variable: return
        case .keyPath(let path): _ = try predicateDestination(path, from: schema)
        case .aggregate(let items): for item in items { try check(item, entity: schema) }
        case .collectionFunction(_, let collection, let key):
            if let destination = try predicateDestination(collection, from: schema), !key.isEmpty {
                _ = try predicateDestination(key, from: destination)
            }
        }
    }

    /// The entity a predicate's key path ends at (nil when it ends at an attribute).
    private func predicateDestination(_ path: [String], from schema: EntitySchema) throws -> EntitySchema? {
        var current = schema
        for (index, step) in path.enumerated() {
            guard let position = current.propertyIndex[step] else {
                throw FetchError(entity: schema.name, reason: "\(current.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            let property = current.properties[position]
            if property.isTransient {
                throw FetchError(entity: schema.name, reason: "\(step) is transient: it is not stored, so it cannot be fetched on")
            }
            switch property {
            case .attribute:
                guard index == path.count - 1 else {
                    throw FetchError(
                        entity: schema.name,
                        reason: "'\(QuotedText.excerpt(path.joined(separator: ".")))' continues past the attribute \(step)")
                }
                return nil
            case .relationship(let relationship):
                guard let next = model.schemas[relationship.destinationEntityName] else {
                    throw FetchError(entity: schema.name, reason: "unknown destination of \(step)")
                }
                current = next
            }
        }
        return current
    }

    /// A sort key path's components, each a stored property, to-ones only before the last.
    private func checkedKeyPath(_ keyPath: String, from schema: EntitySchema) throws -> [String] {
        let steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = schema
        for (index, step) in steps.enumerated() {
            guard let position = current.propertyIndex[step] else {
                throw FetchError(entity: schema.name, reason: "\(current.name) has no property named '\(QuotedText.excerpt(step))'")
            }
            let property = current.properties[position]
            if property.isTransient {
                throw FetchError(
                    entity: schema.name, reason: "\(step) is transient: it is not stored, so it cannot be fetched or sorted on")
            }
            switch property {
            case .attribute:
                guard index == steps.count - 1 else {
                    throw FetchError(entity: schema.name, reason: "'\(QuotedText.excerpt(keyPath))' continues past the attribute \(step)")
                }
            case .relationship(let relationship):
                guard !relationship.isToMany else {
                    throw FetchError(
                        entity: schema.name, reason: "'\(QuotedText.excerpt(keyPath))' goes through the to-many relationship \(step)")
                }
                guard let next = model.schemas[relationship.destinationEntityName] else {
                    throw FetchError(entity: schema.name, reason: "unknown destination of \(step)")
                }
                current = next
            }
        }
        return steps
    }

    /// The key paths a search compares: those given, else the entity's attributes indexed
    /// for search ("Index in Spotlight"), as the SQLite store's.
    func searchPaths(_ keyPaths: [String], entity schema: EntitySchema) throws -> [[String]] {
        var keyPaths = keyPaths
        if keyPaths.isEmpty {
            for case .attribute(let a) in schema.properties where a.isIndexedBySpotlight && a.isStored { keyPaths.append(a.name) }
            if keyPaths.isEmpty {
                throw FetchError(
                    entity: schema.name,
                    reason: "\(schema.name) has no attribute indexed for search (\"Index in Spotlight\"), so it cannot be searched")
            }
        }
        return try keyPaths.map { keyPath in
            let path = try checkedKeyPath(keyPath, from: schema)
            var current = schema
            for step in path.dropLast() {
                if let next = current.relationship(named: step).flatMap({ model.schemas[$0.destinationEntityName] }) { current = next }
            }
            guard let last = path.last, let attribute = current.attribute(named: last), attribute.isIndexedBySpotlight else {
                throw FetchError(
                    entity: schema.name,
                    reason: "\(current.name).\(path.last ?? "") is not indexed for search (\"Index in Spotlight\"), so it cannot be searched")
            }
            return path
        }
    }
}
