import Foundation
import PersistenceModel

/// What a context asks of a store, in the model's terms: Core Data's `NSPersistentStore` as a
/// context sees it through its coordinator.
///
/// A store holds the objects of one model. It speaks entities, property positions (those of
/// each entity's `EntitySchema`), attribute values and object IDs; how it keeps them (tables
/// and columns, Core Data's `Z_` layout, a server) is its own business. Contexts reach a
/// store only through a `PersistentStoreCoordinator`.
///
/// ## The contract
/// - **Rows are values and keys.** Every read yields `StoreRow`s: the row's entity (its own,
///   for a sub-entity's row), its primary key, the ID scope the store made for its entity,
///   and a `StoredSlot` per property position of that entity: an attribute's value (a
///   transient's default), a to-one's destination ID (nil for none; a dangling key is still
///   an ID — faulting it finds no row), `toManyFault` for every to-many. Rows never hold
///   objects; a context adopts a row's slots as its object's without copying them
///   (`PropertySlots.adopted(by:)`).
/// - **Fetches** take a `FetchRequest` as it is (entity, sub-entities, predicate tree, sort
///   keys, limit and offset, search text and key paths) and answer exactly what
///   `PredicateEvaluator` and `FetchSorter` would answer in memory over the same objects:
///   the same folding (`[c]`, `[d]`, canonical text), the same decimal comparisons, the same
///   ranking of a search (`SearchText.rank`), rows in sort order with ties in key order.
///   A request that cannot run (unknown key, type mismatch) throws `FetchError` before any
///   row is read.
/// - **Keys** are positive, unique per entity hierarchy (the root entity's), and never
///   reused while the store lives; a deleted object's key is not given to a new one.
/// - **IDs**: `idScope(entityName:rootName:)` makes the scope every ID of that entity in
///   this store shares, so an ID the store made equals one the context made for the same
///   row; `identifier` is in every ID and tells stores apart.
/// - **Errors** a store throws for its file or database conform to
///   `PersistentStoreFailure`, so that a caller can tell a read-only, damaged, full or
///   foreign store apart without knowing the store's type.
/// - **Reads are consistent**: one call reads one snapshot; a row read while another
///   connection writes is either wholly before or wholly after that write.
/// - **History**: a store that tracks history (`tracksHistory`) records each write
///   transaction that changed rows, in that transaction: one change per object (insert;
///   update with the stored properties written; delete with the tombstone of its "preserve
///   after deletion" attributes), under IDs equal to those its reads make. A request it
///   cannot answer truthfully (no history, a token of another store or past the last
///   transaction, a future date, a deleted place) throws `PersistentHistoryError`.
/// - **Connections**: a store value is one connection, used by one thread at a time. A
///   store that can serve readers beside its writer opens them with `openReader()`; the
///   coordinator keeps one writer and a pool of readers, so that a long write on one thread
///   never blocks another thread's fetches.
///
/// `PersistentStoreConformanceTests` checks this contract, and runs against every store.
package protocol PersistentStore: AnyObject {
    /// The store's identifier: part of every object ID it makes (Core Data's store UUID).
    var identifier: String { get }
    /// The model the store's objects belong to.
    var model: ManagedObjectModel { get }
    /// The store's file, for a store kept in one (nil in memory or on a server).
    var url: URL? { get }
    /// Whether the store refuses every write.
    var isReadOnly: Bool { get }

    /// The scope shared by every ID of `entityName` (whose hierarchy's root is `rootName`) in
    /// this store: one allocation for all of an entity's IDs.
    func idScope(entityName: String, rootName: String) -> ObjectID.Scope

    // MARK: Reading

    /// Calls `body` with each row `request` fetches, in order, until `body` returns false.
    /// `body` owns each row, so that the object made from it can hold its slots alone (a
    /// second holder makes the object's first write copy them).
    ///
    /// - Throws: `FetchError` for a request that cannot run; the store's failure when its
    ///   rows cannot be read.
    func forEachRow(_ request: FetchRequest, _ body: (consuming StoreRow) throws -> Bool) throws

    /// `forEachRow(_:_:)` for a caller that keeps every row it is given (a fetch's array,
    /// its sections): the store may read every row before it hands over the first, and so
    /// put them in order itself rather than have its database sort copies of them. A store
    /// that knows how many rows will come before the first does tells `expecting`, so that
    /// the caller makes room for them at once rather than growing as they come. Has a default
    /// implementation (`forEachRow(_:_:)`, telling nothing).
    func forEachRowForArray(
        _ request: FetchRequest, expecting: (Int) -> Void, _ body: (consuming StoreRow) throws -> Bool
    ) throws

    /// The number of rows `request` fetches (its limit and offset applied).
    func count(for request: FetchRequest) throws -> Int

    /// The IDs of the rows `request` fetches, in order, without reading their values.
    func objectIDs(for request: FetchRequest) throws -> [ObjectID]

    /// The row of the object with this ID, or nil when there is none (deleted, or never
    /// was): faulting an object reads it.
    func row(for id: ObjectID) throws -> StoreRow?

    /// The rows of the objects with these IDs that exist, in no particular order: how a
    /// batch of faults, or the destinations of a to-one for many objects, load in one read.
    /// Has a default implementation (one `row(for:)` per ID).
    func rows(for ids: [ObjectID]) throws -> [StoreRow]

    /// The rows of the destinations of a to-many `relationship` of each of `sources`, by
    /// source, each list in the relationship's order (as `forEachDestinationRow`); a source
    /// without destinations may be left out. How prefetching loads a to-many for many
    /// objects in one read. Has a default implementation (one read per source).
    func destinationRows(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [StoreRow]]

    /// Calls `body` with the values of `keyPaths` of each row `request` fetches, in order,
    /// until `body` returns false, reading nothing else: a dictionary result. A key path
    /// names a stored attribute of the entity or, through to-one relationships, of a related
    /// row (`"author.name"`), or a to-one relationship; each value is a `.value` for an
    /// attribute (`.null` when a to-one on the way has no destination), a `.toOneFault` for
    /// a relationship. Has a default implementation (whole rows, one read per related row).
    ///
    /// - Throws: `FetchError` for an unknown, transient or to-many key path; as
    ///   `forEachRow`.
    func forEachValues(of keyPaths: [String], _ request: FetchRequest, _ body: ([StoredSlot]) throws -> Bool) throws

    /// The IDs among `ids` whose rows exist, each naming its row's own entity (an ID read
    /// from a to-one may name the relationship's destination entity instead of a
    /// sub-entity), in no particular order.
    func existingObjectIDs(among ids: [ObjectID]) throws -> [ObjectID]

    /// Calls `body` with the rows of the destinations of a to-many `relationship` of the
    /// object `source`, in the relationship's order (insertion order for an unordered one,
    /// the stored order for an ordered one), until `body` returns false.
    func forEachDestinationRow(
        of relationship: RelationshipDescription, from source: ObjectID, _ body: (StoreRow) throws -> Bool
    ) throws

    /// The IDs of the destinations of a to-many `relationship` of the object `source`, in the
    /// same order as `forEachDestinationRow`, without reading their values.
    func destinationIDs(of relationship: RelationshipDescription, from source: ObjectID) throws -> [ObjectID]

    /// The IDs of the destinations of a to-many `relationship` of each of `sources`, by
    /// source, each list in the order of `destinationIDs(of:from:)`, read in one snapshot
    /// without reading their values; a source without destinations may be left out. How a
    /// context reads a to-many's IDs for many objects fetched together in one read, as Core
    /// Data's batch faulting does, rather than one read per object. Has a default
    /// implementation (one read per source).
    func destinationIDs(of relationship: RelationshipDescription, from sources: [ObjectID]) throws
        -> [ObjectID: [ObjectID]]

    /// The key paths a search of `request` compares, as written to read them from an object
    /// in memory (so that unsaved objects are ranked as the store ranks rows).
    func searchedKeyPaths(for request: FetchRequest) throws -> [String]

    // MARK: Writing

    /// Runs `body` in one write transaction of the store: what it writes through the
    /// transaction is committed together when it returns, or rolled back when it throws.
    /// `rowCount` (how many rows the writes will touch, roughly) lets the store prepare for
    /// a large write.
    ///
    /// - Throws: what `body` throws; the store's failure (read-only, locked past its busy
    ///   timeout, full disk) when the transaction cannot begin or commit.
    func performWrite<T>(rowCount: Int, _ body: (any StoreTransaction) throws -> T) throws -> T

    /// Runs `body` in one write transaction of the store that every write of this
    /// connection made meanwhile joins: each `performWrite` becomes a savepoint of it (one
    /// that throws is rolled back alone), and all of them commit together when `body`
    /// returns, or none of them when it throws. How several saves, each small enough to
    /// keep memory bounded, land as one change of the store (a large undo). Has a default
    /// implementation, which refuses (``PersistentStoreWriteGroupError``): a store joins
    /// by implementing it.
    ///
    /// - Throws: what `body` throws, after rolling everything back; the store's failure
    ///   when the transaction cannot begin or commit; ``PersistentStoreWriteGroupError``
    ///   for a store that cannot group its writes.
    func performWriteGroup<T>(_ body: () throws -> T) throws -> T

    /// Prepares the store for loading `rowCount` rows in many transactions (a large seed)
    /// while `body` runs, and restores its settings after: the SQLite store keeps a larger
    /// page cache and checkpoints less often. What is written, and when it commits, does not
    /// change.
    func withBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T

    /// The attributes of `entity` whose values the store keeps outside its rows (in files
    /// beside it): a write that replaces a conflicting row cannot carry them over.
    func externallyStoredAttributes(of entity: String) -> [String]

    // MARK: Metadata

    /// The value an app stored under `key` in the store's metadata (Core Data's
    /// `metadata[key]`), or nil.
    func applicationMetadata(forKey key: String) throws -> String?

    /// Stores `value` under `key` in the store's metadata, in its own transaction.
    func setApplicationMetadata(_ value: String, forKey key: String) throws

    /// Whether objects of `entityName` were ever saved in this store, even if all were
    /// deleted since: whether a key was ever given out.
    func hasEverStoredObjects(entityName: String) throws -> Bool

    // MARK: Persistent history

    /// Whether the store records a persistent history of its transactions (Core Data's
    /// `NSPersistentHistoryTrackingKey`): then every write transaction that changes rows
    /// records what it changed (see `StoreTransaction.setHistoryAuthor`).
    var tracksHistory: Bool { get }

    /// The transactions recorded after `bound` (a token, or a date), oldest first.
    ///
    /// - Throws: `PersistentHistoryError` for a store without history, a token of another
    ///   store or past the last transaction, a date in the future, or a place whose history
    ///   was partly deleted; the store's failure when the history cannot be read.
    func history(after bound: PersistentHistoryBound) throws -> [PersistentHistoryTransaction]

    /// At most `limit` transactions recorded after `bound` (every one for nil), oldest
    /// first; without their changes (`changes` empty) unless `includesChanges`: Core Data's
    /// `fetchLimit` and `.transactionsOnly` result type. How a caller reads a long history
    /// in pieces: the transactions alone, then one transaction's changes at a time. Has a
    /// default implementation (the whole history, cut), which a store that can read less
    /// replaces.
    ///
    /// - Throws: as `history(after:)`.
    func history(after bound: PersistentHistoryBound, limit: Int?, includesChanges: Bool) throws
        -> [PersistentHistoryTransaction]

    /// Deletes, in its own transaction, the transactions recorded before `bound` (a token's
    /// own transaction is kept), with the tombstones of their deletes.
    ///
    /// - Throws: as `history(after:)`.
    func deleteHistory(before bound: PersistentHistoryBound) throws

    /// The place after the last transaction recorded (Core Data's
    /// `currentPersistentHistoryToken(fromStores:)`).
    ///
    /// - Throws: `PersistentHistoryError.notTracked` for a store without history.
    func currentHistoryToken() throws -> PersistentHistoryToken

    // MARK: Connections

    /// Another connection to the same store, for reading only, which sees every write the
    /// store commits (SQLite's WAL readers): the coordinator gives one to each thread that
    /// reads while another writes. Nil when the store has no second connection to give (an
    /// in-memory database): its reads then wait for its writes.
    ///
    /// Safe to call while another thread writes through this store: it reads only what was
    /// fixed when the store opened.
    ///
    /// - Throws: the store's failure when the connection cannot be opened.
    func openReader() throws -> (any PersistentStore)?

    /// Closes the store: its files are released and no call may follow.
    func close() throws
}
