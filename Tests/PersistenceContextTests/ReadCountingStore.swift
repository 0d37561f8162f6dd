import Foundation
import Persistence

@testable import PersistenceContext

/// A store that passes every call to an in-memory SQLite store and counts the reads a
/// context asks of it, by requirement: how the fetch-tool suites show what a fetch reads.
///
/// With `usesDefaultReads`, the reads behind batches, prefetching and dictionary results go
/// through the protocol's default answers (built on the other requirements), as a store
/// without its own would answer them.
final class ReadCountingStore: PersistentStore {
    let base: SQLiteStore
    let usesDefaultReads: Bool
    /// Reads by requirement name (`"rows(for:)"`), since the last `resetCounts()`.
    private(set) var reads: [String: Int] = [:]

    init(model: ManagedObjectModel, usesDefaultReads: Bool = false) throws {
        base = try SQLiteStore(model: model, url: nil)
        self.usesDefaultReads = usesDefaultReads
    }

    /// A container-less context over a new counting store.
    static func context(_ model: ManagedObjectModel, usesDefaultReads: Bool = false) throws
        -> (ReadCountingStore, ManagedObjectContext)
    {
        let store = try ReadCountingStore(model: model, usesDefaultReads: usesDefaultReads)
        return (store, ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:]))
    }

    /// The reads made through `name`.
    subscript(name: String) -> Int { reads[name, default: 0] }
    /// Every read made.
    var totalReads: Int { reads.values.reduce(0, +) }
    func resetCounts() { reads = [:] }
    /// Reads (by requirement name) that fail, after being counted, as an unreadable store's.
    var failing: Set<String> = []
    private func count(_ name: String) throws {
        reads[name, default: 0] += 1
        if failing.contains(name) { throw InjectedReadFailure(read: name) }
    }

    /// The error of a read listed in `failing`.
    struct InjectedReadFailure: Error {
        let read: String
    }

    // MARK: - Reads, counted

    func forEachRow(_ request: FetchRequest, _ body: (StoreRow) throws -> Bool) throws {
        try count("forEachRow")
        try base.forEachRow(request, body)
    }
    func count(for request: FetchRequest) throws -> Int {
        try count("count(for:)")
        return try base.count(for: request)
    }
    func objectIDs(for request: FetchRequest) throws -> [ObjectID] {
        try count("objectIDs(for:)")
        return try base.objectIDs(for: request)
    }
    func row(for id: ObjectID) throws -> StoreRow? {
        try count("row(for:)")
        return try base.row(for: id)
    }
    func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        if usesDefaultReads { return try rowsOneByOne(for: ids) }
        try count("rows(for:)")
        return try base.rows(for: ids)
    }
    func destinationRows(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [StoreRow]]
    {
        if usesDefaultReads { return try destinationRowsOneSourceAtATime(of: relationship, from: sources) }
        try count("destinationRows")
        return try base.destinationRows(of: relationship, from: sources)
    }
    func forEachValues(of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool) throws {
        if usesDefaultReads { return try forEachValuesFromWholeRows(of: keyPaths, request, body) }
        try count("forEachValues")
        try base.forEachValues(of: keyPaths, request, body)
    }
    func existingObjectIDs(among ids: [ObjectID]) throws -> [ObjectID] {
        try count("existingObjectIDs")
        return try base.existingObjectIDs(among: ids)
    }
    func forEachDestinationRow(
        of relationship: RelationshipDescription, from source: ObjectID, _ body: (StoreRow) throws -> Bool
    ) throws {
        try count("forEachDestinationRow")
        try base.forEachDestinationRow(of: relationship, from: source, body)
    }
    func destinationIDs(of relationship: RelationshipDescription, from source: ObjectID) throws -> [ObjectID] {
        try count("destinationIDs")
        return try base.destinationIDs(of: relationship, from: source)
    }

    // MARK: - Everything else, passed on

    var identifier: String { base.identifier }
    var model: ManagedObjectModel { base.model }
    var url: URL? { base.url }
    var isReadOnly: Bool { base.isReadOnly }
    var tracksHistory: Bool { base.tracksHistory }
    func idScope(entityName: String, rootName: String) -> ObjectID.Scope {
        base.idScope(entityName: entityName, rootName: rootName)
    }
    func searchedKeyPaths(for request: FetchRequest) throws -> [String] { try base.searchedKeyPaths(for: request) }
    func performWrite<T>(rowCount: Int, _ body: (any StoreTransaction) throws -> T) throws -> T {
        try base.performWrite(rowCount: rowCount, body)
    }
    func withBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T { try base.withBulkLoad(rowCount: rowCount, body) }
    func externallyStoredAttributes(of entity: String) -> [String] { base.externallyStoredAttributes(of: entity) }
    func applicationMetadata(forKey key: String) throws -> String? { try base.applicationMetadata(forKey: key) }
    func setApplicationMetadata(_ value: String, forKey key: String) throws {
        try base.setApplicationMetadata(value, forKey: key)
    }
    func hasEverStoredObjects(entityName: String) throws -> Bool { try base.hasEverStoredObjects(entityName: entityName) }
    func history(after bound: PersistentHistoryBound) throws -> [PersistentHistoryTransaction] {
        try base.history(after: bound)
    }
    func deleteHistory(before bound: PersistentHistoryBound) throws { try base.deleteHistory(before: bound) }
    func currentHistoryToken() throws -> PersistentHistoryToken { try base.currentHistoryToken() }
    /// None: every read comes here to be counted.
    func openReader() throws -> (any PersistentStore)? { nil }
    func close() throws { try base.close() }
}
