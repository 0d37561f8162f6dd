import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// The Core Data store as a context sees it (see `PersistentStore`).
extension CoreDataStore: PersistentStore {
    package var url: URL? { URL(fileURLWithPath: path) }

    package func forEachRow(_ request: FetchRequest, _ body: (consuming StoreRow) throws -> Bool) throws {
        try forEachFetchedRow(request, body)
    }

    package func count(for request: FetchRequest) throws -> Int {
        try fetchedCount(request)
    }

    package func objectIDs(for request: FetchRequest) throws -> [ObjectID] {
        var ids: [ObjectID] = []
        try forEachFetchedRow(request) { row in
            ids.append(ObjectID(scope: row.idScope, key: .permanent(row.primaryKey)))
            return true
        }
        return ids
    }

    package func row(for id: ObjectID) throws -> StoreRow? {
        guard id.storeIdentifier == identifier, let key = id.primaryKey, let table = layout.tables[id.rootName] else { return nil }
        return try row(table, key: key)
    }

    package func existingObjectIDs(among ids: [ObjectID]) throws -> [ObjectID] {
        var keysByRoot: [String: Set<Int64>] = [:]
        for id in ids where id.storeIdentifier == identifier {
            if let key = id.primaryKey { keysByRoot[id.rootName, default: []].insert(key) }
        }
        var found: [ObjectID] = []
        for (rootName, keys) in keysByRoot {
            guard let table = layout.tables[rootName] else { continue }
            let sorted = keys.sorted()
            for start in stride(from: 0, to: sorted.count, by: 500) {
                let chunk = sorted[start..<min(start + 500, sorted.count)]
                let sql =
                    "SELECT Z_PK, Z_ENT FROM \(quoted(table.name)) WHERE Z_PK IN (\(chunk.map(String.init).joined(separator: ", ")))"
                for row in try database.query(sql) {
                    guard let key = row[0].int64Value, let number = row[1].int64Value, let name = layout.entityNames[number] else {
                        continue
                    }
                    found.append(ObjectID(scope: idScope(entityName: name, rootName: rootName), key: .permanent(key)))
                }
            }
        }
        return found
    }

    package func forEachDestinationRow(
        of relationship: RelationshipDescription, from source: ObjectID, _ body: (StoreRow) throws -> Bool
    ) throws {
        guard let key = source.primaryKey else { return }
        for row in try destinationRows(of: relationship, entity: source.entityName, key: key) where try !body(row) { return }
    }

    package func destinationIDs(of relationship: RelationshipDescription, from source: ObjectID) throws -> [ObjectID] {
        guard let key = source.primaryKey else { return [] }
        return try destinationKeys(of: relationship, entity: source.entityName, key: key)
    }

    /// One statement per 512 sources of an entity (sub-entities may keep their links apart).
    package func destinationIDs(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [ObjectID]]
    {
        var groups: [String: [Int64: ObjectID]] = [:]
        for source in sources where source.storeIdentifier == identifier {
            if let key = source.primaryKey { groups[source.entityName, default: [:]][key] = source }
        }
        var result: [ObjectID: [ObjectID]] = [:]
        for (entityName, sourceByKey) in groups {
            let found = try destinationKeys(of: relationship, entity: entityName, keys: sourceByKey.keys.sorted())
            for (key, ids) in found {
                if let source = sourceByKey[key] { result[source] = ids }
            }
        }
        return result
    }

    package func searchedKeyPaths(for request: FetchRequest) throws -> [String] {
        guard let entity = layout.entities[request.entityName] else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        // Read from an unsaved object: a `canonical:(x)` attribute is not derived yet, so its
        // source `x` is read (and folded by the caller) instead.
        return try searchPaths(request.searchKeyPaths, entity: entity.schema).map { path in
            var current = entity.schema
            for step in path.dropLast() {
                guard let next = current.relationship(named: step).flatMap({ model.schemas[$0.destinationEntityName] }) else { break }
                current = next
            }
            if let last = path.last, let expression = current.attribute(named: last)?.derivationExpression,
                case .canonical(let source) = try? Derivation(parsing: expression)
            {
                return (path.dropLast() + [source]).joined(separator: ".")
            }
            return path.joined(separator: ".")
        }
    }

    // MARK: Writing

    /// Runs `body` in one write transaction; the external files the save wrote are removed
    /// again if it rolls back, and those its rows no longer name once it commits. Where Core
    /// Data records the store's history, the save's transaction and changes are recorded in
    /// its tables last, in the same transaction (see `CoreDataHistoryRecorder`).
    package func performWrite<T>(rowCount: Int, _ body: (any StoreTransaction) throws -> T) throws -> T {
        // A save may write and remove files in `_EXTERNAL_DATA`: never through a link.
        try ExternalDataFiles.refuseLinkedFolders(externalFolder.path)
        let transaction = CoreDataStoreTransaction(store: self)
        let result: T
        do {
            result = try database.inTransaction(.immediate) {
                let result = try body(transaction)
                try transaction.history?.record(in: database)
                return result
            }
        } catch {
            transaction.externalFiles.didRollBack()
            throw error
        }
        transaction.externalFiles.didCommit()
        return result
    }

    package func withBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T { try body() }

    /// The binary attributes that allow external storage: their large values are kept in
    /// files beside the store (see `CoreDataExternalFiles`).
    package func externallyStoredAttributes(of entity: String) -> [String] {
        guard let schema = layout.entities[entity]?.schema else { return [] }
        return schema.properties.compactMap { property in
            guard case .attribute(let attribute) = property, attribute.allowsExternalBinaryDataStorage else { return nil }
            return attribute.name
        }
    }

    // MARK: Metadata

    /// The string an app stored under `key` in the store's metadata: Core Data's
    /// `metadata[key]`, from `Z_METADATA`'s property list.
    package func applicationMetadata(forKey key: String) throws -> String? {
        try metadata().dictionaryValue?[key]?.stringValue
    }

    /// Stores `value` under `key` in `Z_METADATA`'s property list, every other key (Core
    /// Data's own among them) kept as it was. Not a change of the persistent history, as in
    /// Core Data (setting a store's metadata records no transaction).
    package func setApplicationMetadata(_ value: String, forKey key: String) throws {
        try database.inTransaction(.immediate) {
            var entries = try metadata().dictionaryValue ?? [:]
            entries[key] = .string(value)
            try database.execute(
                "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = (SELECT min(Z_VERSION) FROM Z_METADATA)",
                [.blob(BinaryPropertyList.write(.dictionary(entries)))])
        }
    }

    /// `Z_METADATA`'s property list (an empty dictionary for an empty one).
    ///
    /// - Throws: `CoreDataStoreError` when it is not a property list this store can read.
    private func metadata() throws -> PropertyListValue {
        let blob = try database.query("SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1").first?.first?.dataValue
        guard let blob, !blob.isEmpty else { return .dictionary([:]) }
        do { return try BinaryPropertyList.read(blob) } catch {
            throw CoreDataStoreError(path: path, "its metadata (Z_METADATA) is not a property list: \(error)")
        }
    }

    package func hasEverStoredObjects(entityName: String) throws -> Bool {
        guard let root = layout.entities[entityName]?.schema.rootName, let number = layout.entities[root]?.number else {
            return false
        }
        // Any counter but 0 (a negative one was set by hand) says keys were handed out: such
        // a store is not taken for a new one to seed, and a save refuses the counter instead.
        return (try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(number)]).int64Value ?? 0) != 0
    }

    // MARK: Connections

    /// Nil: the store's reads wait for its writes, on its one connection.
    package func openReader() throws -> (any PersistentStore)? { nil }

    package func close() throws { try database.close() }
}
