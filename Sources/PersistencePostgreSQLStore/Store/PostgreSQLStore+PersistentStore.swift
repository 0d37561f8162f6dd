#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// The PostgreSQL store as a context sees it (see `PersistentStore`): each read one
/// snapshot, its rows read before any is handed on, so that a caller's work between rows
/// holds no transaction open.
extension PostgreSQLStore: PersistentStore {
    package var url: URL? { nil }

    package func forEachRow(_ request: FetchRequest, _ body: (consuming StoreRow) throws -> Bool) throws {
        let fetch = try PGFetch(store: self, request: request)
        let rows = try reading { try fetch.rows() }
        for row in rows where try !body(row) { return }
    }

    package func count(for request: FetchRequest) throws -> Int {
        let fetch = try PGFetch(store: self, request: request)
        return try reading { try fetch.count() }
    }

    /// The statement a fetch reads its rows with, its parameters, and whether the server
    /// answers the whole request with it (predicate, sort and window), for tests and for
    /// seeing what runs where.
    package func fetchStatement(for request: FetchRequest) throws -> (sql: String, parameters: [PGValue], isAnsweredByServer: Bool)? {
        let fetch = try PGFetch(store: self, request: request)
        guard let plan = try fetch.plan() else { return nil }
        let (sql, parameters) = fetch.statement(plan)
        return (sql, parameters, plan.sortsAndWindows)
    }

    package func objectIDs(for request: FetchRequest) throws -> [ObjectID] {
        let fetch = try PGFetch(store: self, request: request)
        return try reading { try fetch.rows() }.map(\.objectID)
    }

    package func row(for id: ObjectID) throws -> StoreRow? {
        guard id.storeIdentifier == identifier, let key = id.primaryKey, let table = schema.tables[id.rootName] else {
            return nil
        }
        return try readingOneStatement { try row(table: table, primaryKey: key) }
    }

    package func existingObjectIDs(among ids: [ObjectID]) throws -> [ObjectID] {
        var keysByTable: [String: Set<Int64>] = [:]
        for id in ids where id.storeIdentifier == identifier {
            if let key = id.primaryKey { keysByTable[id.rootName, default: []].insert(key) }
        }
        // One statement a table: a single table's needs no transaction.
        return try reading(statements: keysByTable.count) {
            var found: [ObjectID] = []
            for (rootName, keys) in keysByTable {
                guard let table = schema.tables[rootName] else { continue }
                let entityColumn = table.hasEntityColumn ? ", \"_entity\"" : ""
                try connection.forEachRow(
                    "SELECT \"_id\"\(entityColumn) FROM \(pgIdentifier(table.name)) WHERE \"_id\" = ANY($1)",
                    [.integerArray(keys.sorted())]
                ) { columns in
                    if let key = columns[0].flatMap({ Int64($0) }) {
                        let entity = table.hasEntityColumn ? (columns[1] ?? rootName) : rootName
                        found.append(ObjectID(scope: idScope(entityName: entity, rootName: rootName), key: .permanent(key)))
                    }
                    return true
                }
            }
            return found
        }
    }

    package func forEachDestinationRow(
        of relationship: RelationshipDescription, from source: ObjectID, _ body: (StoreRow) throws -> Bool
    ) throws {
        guard let key = source.primaryKey else { return }
        let rows = try readingOneStatement {
            try destinationRows(of: relationship, sourceEntity: source.entityName, key: key)
        }
        for row in rows where try !body(row) { return }
    }

    package func destinationIDs(of relationship: RelationshipDescription, from source: ObjectID) throws -> [ObjectID] {
        guard let key = source.primaryKey else { return [] }
        return try readingOneStatement {
            try destinationIDs(of: relationship, sourceEntity: source.entityName, keys: [key]).first?.ids ?? []
        }
    }

    /// One statement per source entity (sub-entities may keep their links apart), in one
    /// snapshot.
    package func destinationIDs(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [ObjectID]]
    {
        try bySource(sources) { entityName, keys in
            try destinationIDs(of: relationship, sourceEntity: entityName, keys: keys).map { ($0.owner, $0.ids) }
        }
    }

    /// Prefetching's read of a to-many for many sources: one statement per source entity,
    /// in one snapshot.
    package func destinationRows(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [StoreRow]]
    {
        try bySource(sources) { entityName, keys in
            try destinationRows(of: relationship, sourceEntity: entityName, keys: keys).map { ($0.owner, $0.rows) }
        }
    }

    /// What `read` finds for each source, read one statement per source entity (its keys in
    /// order), all in one snapshot; a source `read` finds nothing for is left out.
    private func bySource<T>(
        _ sources: [ObjectID], _ read: (_ entityName: String, _ keys: [Int64]) throws -> [(Int64, T)]
    ) throws -> [ObjectID: T] {
        let groups = sourcesByEntity(sources)
        return try reading(statements: groups.count) {
            var result: [ObjectID: T] = [:]
            for (entityName, sourceByKey) in groups {
                for (owner, found) in try read(entityName, sourceByKey.keys.sorted()) {
                    if let source = sourceByKey[owner] { result[source] = found }
                }
            }
            return result
        }
    }

    /// This store's saved objects among `sources`, by entity name and then key.
    private func sourcesByEntity(_ sources: [ObjectID]) -> [String: [Int64: ObjectID]] {
        var groups: [String: [Int64: ObjectID]] = [:]
        for source in sources where source.storeIdentifier == identifier {
            if let key = source.primaryKey { groups[source.entityName, default: [:]][key] = source }
        }
        return groups
    }

    package func searchedKeyPaths(for request: FetchRequest) throws -> [String] {
        guard let entity = schema.entities[request.entityName] else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        return try PGSearchPath.paths(request.searchKeyPaths, from: entity, in: schema).map(\.unsavedKeyPath)
    }

    /// None: every value is kept in its row, since files beside a server would be on
    /// another machine (large values are TOASTed by PostgreSQL itself).
    package func externallyStoredAttributes(of entity: String) -> [String] { [] }

    // MARK: - Writing

    package func performWrite<T>(rowCount: Int, _ body: (any StoreTransaction) throws -> T) throws -> T {
        try writing {
            try joiningWriteGroup {
                if !tracksHistory { tracksHistory = try storeTracksHistory() }
                let transaction = PostgreSQLStoreTransaction(store: self)
                let result = try body(transaction)
                try transaction.flush()
                if tracksHistory { try recordHistory(transaction.changes) }
                try notifySave(transaction.changes)
                return result
            }
        }
    }

    /// Runs `body` in one transaction of the server that every write of this store meanwhile
    /// joins as a savepoint (a write that throws is rolled back alone), committed when `body`
    /// returns and rolled back whole when it throws. The history records each write as its
    /// own transaction, all committed together; other processes hear of the writes at the
    /// commit (the server delivers `NOTIFY` then), and never of a group rolled back.
    package func performWriteGroup<T>(_ body: () throws -> T) throws -> T {
        try writing {
            writeGroupDepth += 1
            defer { writeGroupDepth -= 1 }
            return try body()
        }
    }

    /// `body` as a savepoint of the open write group's transaction, or as it is outside one.
    private func joiningWriteGroup<T>(_ body: () throws -> T) throws -> T {
        guard writeGroupDepth > 0 else { return try body() }
        try connection.execute("SAVEPOINT \"group_write\"")
        do {
            let value = try body()
            try connection.execute("RELEASE SAVEPOINT \"group_write\"")
            return value
        } catch {
            if connection.isConnected {
                try? connection.execute("ROLLBACK TO SAVEPOINT \"group_write\"")
                try? connection.execute("RELEASE SAVEPOINT \"group_write\"")
            }
            throw error
        }
    }

    /// Nothing to prepare: the server's settings are the server's.
    package func withBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T { try body() }

    // MARK: - Metadata

    package func applicationMetadata(forKey key: String) throws -> String? {
        try reading { try metadata("app." + key) }.map(PGRowCodec.unescape)
    }

    package func setApplicationMetadata(_ value: String, forKey key: String) throws {
        try writing { try setMetadata("app." + key, value) }
    }

    /// Whether a key was ever given out in the entity's table (as the SQLite store answers).
    package func hasEverStoredObjects(entityName: String) throws -> Bool {
        guard let entity = schema.entities[entityName] else { return false }
        return try reading {
            let last = try connection.scalar(
                "SELECT \"lastKey\" FROM _primarykey WHERE \"tableName\" = $1", [.text(entity.table.name)]
            ).flatMap { Int64($0) }
            if let last { return last > 0 }
            return try connection.scalar("SELECT 1 FROM \(pgIdentifier(entity.table.name)) LIMIT 1") != nil
        }
    }
}

extension StoreRow {
    /// The ID of the row's object.
    var objectID: ObjectID { ObjectID(scope: idScope, key: .permanent(primaryKey)) }
}
#endif
