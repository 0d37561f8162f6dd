import PersistenceModel
import PersistenceStore
/// The objects a context has registered (uniquing: one object per row), by ID.
///
/// Entries are `RegistryEntry`s: they neither retain nor weakly reference their objects, which
/// remove their own entries as they go (see `ManagedObjectContext.unregister(_:identity:)`).
/// Entries are kept per root entity and store, keyed by the row's primary key (or an unsaved
/// object's number): a fetch then hashes one integer per row into a table of 16-byte
/// entries, where a table keyed by whole `ObjectID`s (three strings and a key, 64 bytes)
/// spends a large share of the fetch on hashing, probing, growing and tearing down.
struct ObjectRegistry {
    /// One root entity's objects of one store.
    private struct Table {
        let rootName: String
        let storeIdentifier: String
        /// The scope of the ID the table was made for: the IDs of one store's rows of one
        /// entity share it, so comparing it first spares most lookups the two name comparisons.
        let scope: ObjectID.Scope
        var saved = PrimaryKeyHashTable()
        var unsaved = PrimaryKeyHashTable()
    }

    /// The tables, few (one per root entity in use): found by a linear search, by the ID's
    /// scope or else by names (whose string comparisons are a word each, as IDs share their
    /// names' storage with the schema).
    private var tables: [Table] = []
    /// Counts the registry's changes, which move entries: a `Lookup` names a bucket only
    /// while this stays the same.
    private var changes: UInt64 = 0

    /// The entry under `id`, if any. Setting nil removes it.
    subscript(id: ObjectID) -> RegistryEntry? {
        get {
            guard let table = tableIndex(of: id) else { return nil }
            switch id.key {
            case .permanent(let key): return tables[table].saved[UInt64(bitPattern: key)]
            case .temporary(let number): return tables[table].unsaved[number]
            }
        }
        set {
            guard let table = newValue == nil ? tableIndex(of: id) : tableIndex(creating: id) else { return }
            changes &+= 1
            switch (id.key, newValue) {
            case (.permanent(let key), let entry?): tables[table].saved.set(entry, forKey: UInt64(bitPattern: key))
            case (.permanent(let key), nil): tables[table].saved.remove(UInt64(bitPattern: key))
            case (.temporary(let number), let entry?): tables[table].unsaved.set(entry, forKey: number)
            case (.temporary(let number), nil): tables[table].unsaved.remove(number)
            }
        }
    }

    /// Where a lookup found `id`'s object, or where a new entry for it goes.
    struct Lookup {
        /// The live object registered under the ID; nil for none.
        let object: ManagedObject?
        fileprivate let table: Int
        fileprivate let index: Int
        /// The registry's `changes` when it was looked up.
        fileprivate let changes: UInt64
    }

    /// The live object under `id`, or where a new entry for it goes: one probe finds either
    /// (see `insert(_:for:at:)`).
    mutating func lookUp(_ id: ObjectID) -> Lookup {
        let table = tableIndex(creating: id)
        let found = switch id.key {
        case .permanent(let key): tables[table].saved.lookUp(UInt64(bitPattern: key))
        case .temporary(let number): tables[table].unsaved.lookUp(number)
        }
        return Lookup(object: found.object, table: table, index: found.index, changes: changes)
    }

    /// Registers `object` under `id`, for which `lookup` found none: where the lookup said,
    /// unless the registry changed since (the object's making let another go), then anew.
    ///
    /// Two steps, so that no access to the registry is open while an object is made: making
    /// one runs an app's property initializers, and an object that goes meanwhile removes
    /// its entry.
    mutating func insert(_ object: ManagedObject, for id: ObjectID, at lookup: Lookup) {
        guard lookup.changes == changes else { return self[id] = RegistryEntry(object) }
        changes &+= 1
        switch id.key {
        case .permanent(let key): tables[lookup.table].saved.insert(object, forKey: UInt64(bitPattern: key), at: lookup.index)
        case .temporary(let number): tables[lookup.table].unsaved.insert(object, forKey: number, at: lookup.index)
        }
    }

    /// Makes room for `count` more saved objects in the table of `id`'s root entity and store.
    mutating func reserveCapacity(_ count: Int, forIDsLike id: ObjectID) {
        let table = tableIndex(creating: id)
        changes &+= 1
        tables[table].saved.reserveCapacity(tables[table].saved.count + count)
    }

    /// Removes the entry under `id` if it is for the object with this identity.
    mutating func remove(_ id: ObjectID, ifHolding identity: ObjectIdentifier) {
        guard let table = tableIndex(of: id) else { return }
        changes &+= 1
        switch id.key {
        case .permanent(let key): tables[table].saved.remove(UInt64(bitPattern: key), ifHolding: identity)
        case .temporary(let number): tables[table].unsaved.remove(number, ifHolding: identity)
        }
    }

    /// Every entry.
    var values: [RegistryEntry] { tables.flatMap { $0.saved.entries + $0.unsaved.entries } }

    /// The number of entries.
    var count: Int {
        var count = 0
        for table in tables { count += table.saved.count + table.unsaved.count }
        return count
    }

    /// Whether there is no entry.
    var isEmpty: Bool { count == 0 }

    /// Removes every entry.
    mutating func removeAll() {
        tables.removeAll()
        changes &+= 1
    }

    // MARK: - Internals

    private func tableIndex(of id: ObjectID) -> Int? {
        let scope = id.scope
        if let index = tables.firstIndex(where: { $0.scope === scope }) { return index }
        return tables.firstIndex { $0.rootName == id.rootName && $0.storeIdentifier == id.storeIdentifier }
    }

    private mutating func tableIndex(creating id: ObjectID) -> Int {
        if let index = tableIndex(of: id) { return index }
        tables.append(Table(rootName: id.rootName, storeIdentifier: id.storeIdentifier, scope: id.scope))
        return tables.count - 1
    }
}
