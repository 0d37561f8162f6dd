import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// The SQLite store as a context sees it: fetch requests compiled to SQL here, rows read by
/// key, to-many relationships read through their foreign keys or join tables.
extension SQLiteStore: PersistentStore {
    package var url: URL? { path.map { URL(fileURLWithPath: $0) } }

    package func forEachRow(_ request: FetchRequest, _ body: (consuming StoreRow) throws -> Bool) throws {
        try surfacingRegexFailure(of: request) {
            try forEachRow(request, compiled: compiledQuery(for: request), body)
        }
    }

    /// An unlimited sorted fetch is read in table order and sorted here, on its keys alone
    /// (see `InMemoryOrdering`); anything else as `forEachRow(_:_:)` reads it.
    package func forEachRowForArray(
        _ request: FetchRequest, expecting: (Int) -> Void, _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        try surfacingRegexFailure(of: request) {
            try forEachRowForArray(request, compiled: compiledQuery(for: request), expecting: expecting, body)
        }
    }

    private func forEachRowForArray(
        _ request: FetchRequest, compiled query: StoreQuery, expecting: (Int) -> Void,
        _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        var query = query
        guard let mapping = schema.entities[request.entityName], let ordering = InMemoryOrdering(request, query, mapping)
        else { return try forEachRow(request, compiled: query, body) }
        query.ordering = nil
        query.sortedOrdering = nil
        var collected: InMemoryOrdering? = ordering
        var rows: [StoreRow?] = []
        try self.rows(query, collectingSortKeysInto: &collected) { row in
            rows.append(row)
            return true
        }
        expecting(rows.count)
        // Each row is moved out as it is handed on, so that its object holds its slots alone.
        for index in collected?.sortedIndices() ?? [] {
            guard let row = rows[index].take(), try body(row) else { return }
        }
    }

    /// `forEachRow(_:_:)` with the request's query compiled.
    private func forEachRow(
        _ request: FetchRequest, compiled query: StoreQuery, _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        // A limited search of a common term reads only the rows that can be its answer.
        let narrowed = try RankedSearchPlanner(store: self).narrowedQuery(for: request)
        try rows(narrowed ?? query, body)
    }

    package func count(for request: FetchRequest) throws -> Int {
        try surfacingRegexFailure(of: request) {
            var query = try compiledQuery(for: request)
            query.ordering = nil
            return try count(query)
        }
    }

    package func objectIDs(for request: FetchRequest) throws -> [ObjectID] {
        try surfacingRegexFailure(of: request) {
            let query = try compiledQuery(for: request)
            return try keysAndEntities(query).map { row in
                ObjectID(scope: idScope(entityName: row.entity, rootName: query.table.name), key: .permanent(row.key))
            }
        }
    }

    /// Runs `body`, a fetch of `request`; when its statement failed because a `MATCHES`
    /// pattern ran past its step budget in the `regexp` function (which SQLite reports only
    /// as a message), throws the predicate error the in-memory evaluator throws for it, so
    /// that both say the same.
    func surfacingRegexFailure<T>(of request: FetchRequest, _ body: () throws -> T) throws -> T {
        _ = regexCache.takeFailure()
        do {
            return try body()
        } catch {
            guard let failure = regexCache.takeFailure() else { throw error }
            throw FetchPredicateError(
                kind: .invalidValue, format: request.predicate?.description ?? "", message: failure.description)
        }
    }

    package func row(for id: ObjectID) throws -> StoreRow? {
        guard id.storeIdentifier == identifier, let key = id.primaryKey, let table = schema.tables[id.rootName] else {
            return nil
        }
        return try row(table: table, primaryKey: key)
    }

    package func existingObjectIDs(among ids: [ObjectID]) throws -> [ObjectID] {
        var keysByTable: [String: Set<Int64>] = [:]
        for id in ids where id.storeIdentifier == identifier {
            if let key = id.primaryKey { keysByTable[id.rootName, default: []].insert(key) }
        }
        var found: [ObjectID] = []
        for (rootName, keys) in keysByTable {
            guard let table = schema.tables[rootName] else { continue }
            for chunk in KeyList.chunks(of: keys.sorted()) {
                var query = StoreQuery(table: table)
                query.condition = "\(sqlIdentifier(table.name)).\"_id\" IN (\(chunk.marks))"
                query.arguments = chunk.arguments
                for row in try keysAndEntities(query) {
                    found.append(ObjectID(scope: idScope(entityName: row.entity, rootName: rootName), key: .permanent(row.key)))
                }
            }
        }
        return found
    }

    package func forEachDestinationRow(
        of relationship: RelationshipDescription, from source: ObjectID, _ body: (StoreRow) throws -> Bool
    ) throws {
        guard let query = destinationQuery(of: relationship, from: source) else { return }
        let rows: [StoreRow]
        do {
            rows = try allRows(query)
        } catch {
            // A store written before join tables existed, opened read-only, cannot make them:
            // the inverse to-one's column still answers.
            guard let inverse = inverseColumnQuery(of: relationship, from: source) else { throw error }
            rows = try allRows(inverse)
        }
        for row in rows where try !body(row) { return }
    }

    package func destinationIDs(of relationship: RelationshipDescription, from source: ObjectID) throws -> [ObjectID] {
        guard let query = destinationQuery(of: relationship, from: source),
            let destination = schema.entities[relationship.destinationEntityName]
        else { return [] }
        return try keysAndEntities(query).map { row in
            ObjectID(
                scope: idScope(entityName: row.entity, rootName: destination.schema.rootName),
                key: .permanent(row.key))
        }
    }

    package func searchedKeyPaths(for request: FetchRequest) throws -> [String] {
        try FetchCompiler(schema: schema, entityName: request.entityName)
            .searchPaths(request.searchKeyPaths).map(\.unsavedKeyPath)
    }

    package func externallyStoredAttributes(of entity: String) -> [String] {
        externalData?.externalColumns[entity]?.map(\.attribute.name) ?? []
    }

    // MARK: - Queries

    /// The query a fetch request compiles to, using the search indexes when they are current.
    private func compiledQuery(for request: FetchRequest) throws -> StoreQuery {
        var compiler = try FetchCompiler(schema: schema, entityName: request.entityName)
        compiler.usesSearchIndexes = searchIndexesAreUsable
        let query = try compiler.query(for: request)
        fetchTermsOutsideCore += compiler.termsOutsideCore
        if query.entityNames != nil { try refuseUnplacedRows(query.table) }
        return query
    }

    /// Refuses a hierarchy's table holding a row whose `_entity` names no entity of the
    /// hierarchy: a query restricted to some of its entities would pass over that row
    /// silently (an export per entity would drop it), where a read of the whole table
    /// refuses it. The table is scanned once per connection: such a row comes only from an
    /// edit by hand, and a scan before every fetch would cost every fetch a table's read.
    ///
    /// - Throws: `StoreError.unplacedRow` naming the table, the row and its `_entity`.
    private func refuseUnplacedRows(_ table: TableMapping) throws {
        guard table.hasEntityColumn, !tablesWithEveryRowPlaced.contains(table.name) else { return }
        let names = schema.entities.values.filter { $0.table.name == table.name }.map(\.schema.name)
        let rows = try database.query(
            "SELECT \"_id\", \"_entity\" FROM \(sqlIdentifier(table.name)) WHERE \"_entity\" IS NULL OR "
                + "\"_entity\" NOT IN (\(names.map(sqlLiteral).joined(separator: ", "))) ORDER BY \"_id\" LIMIT 1")
        guard let row = rows.first else {
            tablesWithEveryRowPlaced.insert(table.name)
            return
        }
        throw StoreError.unplacedRow(
            table: table.name, key: row[0].int64Value ?? 0, entity: row[1].textValue ?? "NULL")
    }

    /// Every row of a query, read before any is handed on (so that a failure part way
    /// leaves nothing half delivered).
    private func allRows(_ query: StoreQuery) throws -> [StoreRow] {
        var result: [StoreRow] = []
        try rows(query) { row in
            result.append(row)
            return true
        }
        return result
    }

    /// The rows of a to-many relationship's destinations: through its join table (a
    /// many-to-many, or a to-many without an inverse), else through the inverse to-one's
    /// column. Nil when the source is unsaved or the relationship has no way to its
    /// destinations.
    private func destinationQuery(of relationship: RelationshipDescription, from source: ObjectID) -> StoreQuery? {
        guard let key = source.primaryKey, let destination = schema.entities[relationship.destinationEntityName] else {
            return nil
        }
        if let side = schema.joinSide(entity: source.entityName, relationship: relationship.name) {
            return joinQuery(side, own: key, destination: destination)
        }
        return inverseColumnQuery(of: relationship, from: source)
    }

    /// The destinations whose inverse to-one column holds the source's key, in key order
    /// (insertion order); nil when the inverse is not a to-one.
    private func inverseColumnQuery(of relationship: RelationshipDescription, from source: ObjectID) -> StoreQuery? {
        guard let key = source.primaryKey, let destination = schema.entities[relationship.destinationEntityName],
            let inverseName = relationship.inverseName,
            destination.schema.relationship(named: inverseName)?.isToMany == false
        else { return nil }
        var query = StoreQuery(table: destination.table)
        // As in FetchCompiler: a root entity covers its whole table.
        if !destination.schema.ancestors.isEmpty { query.entityNames = destination.schema.hierarchyNames }
        query.condition = "\(sqlIdentifier(destination.table.name)).\(sqlIdentifier(inverseName)) = ?"
        query.arguments = [.integer(key)]
        query.ordering = "\(sqlIdentifier(destination.table.name)).\"_id\""
        return query
    }
}

extension SQLiteStore {
    /// A reading connection to the store's file (WAL lets it read while this one writes);
    /// nil for an in-memory store, whose database no other connection can open.
    package func openReader() throws -> (any PersistentStore)? {
        guard let path else { return nil }
        return try SQLiteStore(readerOf: self, path: path)
    }
}
