import PersistenceModel

/// The writes of one save (or batch insert), in the model's terms, inside one transaction of
/// a store (see `PersistentStore.performWrite`): everything written through it is committed
/// together, or nothing is.
///
/// Writes may be buffered (a store writes many rows per statement): a buffered write is
/// checked no later than the next write of another kind, `flush()`, or the commit, and a
/// row's values are read when the write is called, not later. A write that would break a
/// uniqueness constraint throws `UniquenessViolation` with the tag it was given.
package protocol StoreTransaction: AnyObject {
    /// Gives out `count` consecutive unused keys for new rows of the hierarchy whose root
    /// entity is `rootEntity`, and returns the first.
    func allocateKeys(rootEntity: String, count: Int) throws -> Int64

    /// The current version of each stored row among `keys` of the hierarchy whose root
    /// entity is `rootEntity` (see `StoreRow.version`); a key without a row is left out.
    /// How a save finds, before it writes anything, the rows that changed or vanished since
    /// its objects read them (optimistic locking).
    func currentVersions(rootEntity: String, keys: [Int64]) throws -> [Int64: Int64]

    /// Writes a new row for `object` under `key`. A row whose unique values are already
    /// stored is refused, takes this row's values (keeping its key), or leaves this row
    /// unwritten, as `onConflict` says.
    func insert(_ object: any SavedObject, key: Int64, tag: Int, onConflict: InsertConflictAction) throws

    /// Writes the values at `positions` of `object` to its row under `key`, and bumps the
    /// row's version (even when no position is given: its links changed).
    func update(_ object: any SavedObject, key: Int64, positions: [Int], tag: Int) throws

    /// Writes every stored value of `object` to the existing row under `key` (an insert that
    /// takes a stored row over), and bumps the row's version.
    func overwrite(_ object: any SavedObject, key: Int64, tag: Int) throws

    /// Writes `values` (by property position of `entity`) to the row under `key`: derived
    /// values recomputed by the store's caller, which leave the row's version as it was.
    func setValues(_ values: [(position: Int, value: AttributeValue)], of entity: EntitySchema, key: Int64) throws

    /// Deletes the rows under `keys` of the hierarchy whose root entity is `rootEntity`.
    func deleteRows(rootEntity: String, keys: [Int64]) throws

    /// Records the deletion of `object`, whose row the transaction deletes: the values of its
    /// attributes marked "preserve after deletion" (its tombstone), and, in a store that
    /// tracks history, a delete change that carries them.
    func recordTombstone(of object: any SavedObject, key: Int64) throws

    /// Records the deletion of each of `objects` under the key at the same index of `keys`,
    /// exactly as `recordTombstone(of:key:)` one by one would, in that order. A store may
    /// read and write many of them per statement (a save deleting 10,000 objects should not
    /// cost 10,000 reads of their rows); the default records them one by one.
    func recordTombstones(of objects: [any SavedObject], keys: [Int64]) throws

    /// Names the author and context of the transaction in the store's persistent history
    /// (see `PersistentStore.tracksHistory`), which records the transaction's inserts,
    /// updates (with the properties written) and deletes as they are written.
    func setHistoryAuthor(_ author: String?, contextName: String?)

    /// How many new rows of `entity` the store writes at once: a caller that keeps something
    /// per buffered row (to name a refused one) flushes after this many.
    func rowsPerWrite(entity: String) -> Int

    /// Writes everything buffered now.
    func flush() throws

    // MARK: Links kept apart from rows

    /// Whether the store keeps any relationship's links apart from rows.
    var storesAnyLinksInJoinTables: Bool { get }

    /// Whether the store keeps the links of `entity`'s to-many `relationship` apart from
    /// rows (a many-to-many, or a to-many without an inverse), so that a save writes them.
    func storesLinksInJoinTable(entity: String, relationship: String) -> Bool

    /// Removes every link of `relationship` from the row `own` of `entity`.
    func removeLinks(entity: String, relationship: String, from own: Int64) throws
    /// Removes every link of `relationship` to the row `other` (from any row of `entity`).
    func removeLinks(entity: String, relationship: String, to other: Int64) throws
    /// Removes one link.
    func removeLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws
    /// Adds a link, or moves it to `position` in an ordered relationship (nil: keep its place).
    func setLink(entity: String, relationship: String, from own: Int64, to other: Int64, position: Int?) throws
    /// Adds a link at the end of an ordered relationship (or anywhere in an unordered one).
    func appendLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws
    /// Links each new row `own` of `entity` to its destinations `others` through the
    /// to-many `relationship`, in order (positions 0, 1, … of an ordered relationship): the
    /// links of rows the transaction has just inserted, which have none of that relationship
    /// yet (a batch insert's). A store may write many links per statement; the default
    /// appends them one by one.
    func linkNewRows(entity: String, relationship: String, links: [(own: Int64, others: [Int64])]) throws
    /// Removes every link to and from the rows `keys` of the hierarchy rooted at
    /// `rootEntity`: what deleting those objects does to join tables. Many keys at once, so
    /// that a store can remove them in a few statements rather than one a row.
    func removeAllLinks(rootEntity: String, keys: [Int64]) throws

    // MARK: Uniqueness

    /// The key of the stored row of `entity`'s hierarchy whose values of `constraint` equal
    /// `values`, or nil.
    func existingKey(entity: String, constraint: [String], values: [AttributeValue]) throws -> Int64?

    /// Whether some stored row matches one of the value lists on `constraint`.
    func hasRow(entity: String, constraint: [String], anyOf valueLists: [[AttributeValue]]) throws -> Bool

    // MARK: Aggregates

    /// The derived value `derivation` (a count or sum over a to-many) of the row under `key`,
    /// computed from the rows of `members` whose to-one `link` holds `key`.
    func aggregate(_ derivation: Derivation, members: String, linkedBy link: String, to key: Int64) throws -> AttributeValue

    /// Runs `body`, and returns each (to-one, key) whose destination a row written by `body`
    /// with `onConflict: .update` left (so that its aggregates can be recomputed).
    func notingDestinationsLeft(
        entity: String, relationships: [String], _ body: () throws -> Void
    ) throws -> [(relationship: String, key: Int64)]

    /// The entity of the row under `key` of the hierarchy rooted at `rootEntity` (a
    /// sub-entity's name for its rows), or nil when there is no such row.
    func entityName(rootEntity: String, key: Int64) throws -> String?
}

extension StoreTransaction {
    /// Records each deletion with `recordTombstone(of:key:)`: for a store without a batched way.
    package func recordTombstones(of objects: [any SavedObject], keys: [Int64]) throws {
        for (object, key) in zip(objects, keys) { try recordTombstone(of: object, key: key) }
    }

    /// Appends each link with `appendLink`, a statement each: for a store without a
    /// batched way.
    package func linkNewRows(entity: String, relationship: String, links: [(own: Int64, others: [Int64])]) throws {
        for (own, others) in links {
            for other in others { try appendLink(entity: entity, relationship: relationship, from: own, to: other) }
        }
    }
}
