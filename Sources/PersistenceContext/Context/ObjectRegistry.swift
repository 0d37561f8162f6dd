import PersistenceModel
import PersistenceStore
/// The objects a context has registered (uniquing: one object per row), by ID.
///
/// Entries are `RegistryEntry`s: they neither retain nor weakly reference their objects, which
/// remove their own entries as they go (see `ManagedObjectContext.unregister(_:identity:)`).
/// Entries are kept per root entity and store, keyed by the row's primary key (or an unsaved
/// object's number): a fetch of 100,000 books then hashes one integer per row into a table
/// of 16-byte entries, where a table keyed by whole `ObjectID`s (three strings and a key,
/// 64 bytes) spent about 15% of the fetch on hashing, probing, growing and tearing down.
struct ObjectRegistry {
    /// One root entity's objects of one store.
    private struct Table {
        let rootName: String
        let storeIdentifier: String
        /// The scope of the ID the table was made for: the IDs of one store's rows of one
        /// entity share it, so comparing it first spares most lookups the two name comparisons.
        let scope: ObjectID.Scope
        var saved = RegistryTable()
        var unsaved = RegistryTable()
    }

    /// The tables, few (one per root entity in use): found by a linear search, by the ID's
    /// scope or else by names (whose string comparisons are a word each, as IDs share their
    /// names' storage with the schema).
    private var tables: [Table] = []

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
            switch (id.key, newValue) {
            case (.permanent(let key), let entry?): tables[table].saved.set(entry, forKey: UInt64(bitPattern: key))
            case (.permanent(let key), nil): tables[table].saved.remove(UInt64(bitPattern: key))
            case (.temporary(let number), let entry?): tables[table].unsaved.set(entry, forKey: number)
            case (.temporary(let number), nil): tables[table].unsaved.remove(number)
            }
        }
    }

    /// The live object under `id`, or a new one from `make`, registered in the same probe.
    mutating func object(for id: ObjectID, orMake make: () -> ManagedObject) -> (object: ManagedObject, isNew: Bool) {
        let table = tableIndex(creating: id)
        switch id.key {
        case .permanent(let key): return tables[table].saved.object(forKey: UInt64(bitPattern: key), orMake: make)
        case .temporary(let number): return tables[table].unsaved.object(forKey: number, orMake: make)
        }
    }

    /// Removes the entry under `id` if it is for the object with this identity.
    mutating func remove(_ id: ObjectID, ifHolding identity: ObjectIdentifier) {
        guard let table = tableIndex(of: id) else { return }
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
    mutating func removeAll() { tables.removeAll() }

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
