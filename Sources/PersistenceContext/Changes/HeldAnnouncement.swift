import PersistenceStore

/// The saves made inside `performAtomicSaves`, as one, until its transaction commits: what
/// `ContextDidSave.append(_:)` would make of them, held by table and primary key rather than
/// as sets of object IDs.
///
/// An undo of a 200,000-book command saves 200 times inside one transaction and announces
/// every book at the end; three `Set<ObjectID>` of them took 12.7 MB, held while SQLite's own
/// memory for the transaction was at its largest. Here each entity's keys are runs of
/// consecutive keys (`PrimaryKeyRuns`), a few bytes for the whole command, and the IDs are
/// made only if someone reads the announcement (`ContextDidSave.init(held:)`).
struct HeldAnnouncement: Sendable {
    /// Which of a save's three sets.
    enum Change: Int, Sendable { case inserted, updated, deleted }

    /// The objects of one entity (IDs with one scope), by primary key.
    struct EntityKeys: Sendable {
        /// The scope of the IDs these keys make.
        let scope: ObjectID.Scope
        /// The entity's name, told apart from the table's other entities' by it.
        let entityName: String
        var keys: [PrimaryKeyRuns] = [PrimaryKeyRuns(), PrimaryKeyRuns(), PrimaryKeyRuns()]
    }

    /// Where a row is: two IDs with the same table and key are the same object
    /// (`ObjectID.==`).
    struct Table: Hashable, Sendable {
        let rootName: String
        let storeIdentifier: String
    }

    /// The objects with permanent IDs, by table, then by entity (a table holds an entity and
    /// its subentities).
    private(set) var tables: [Table: [EntityKeys]] = [:]
    /// The objects with temporary IDs, which no save announces in practice, held as they were.
    private(set) var others: ContextDidSave
    /// The last save's context name.
    private(set) var contextName: String?
    /// The saving context.
    let origin: ObjectIdentifier?

    init(contextName: String?, origin: ObjectIdentifier?) {
        self.contextName = contextName
        self.origin = origin
        others = ContextDidSave(
            insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: [], contextName: nil,
            origin: origin)
    }

    /// Whether the saves changed nothing.
    var isEmpty: Bool {
        others.isEmpty && tables.values.allSatisfy { $0.allSatisfy { $0.keys.allSatisfy(\.isEmpty) } }
    }

    /// Makes the held saves these and then `next`, as `ContextDidSave.append(_:)` does: an
    /// object inserted and later deleted is neither, one inserted and then updated is
    /// inserted, one deleted and inserted again is updated.
    mutating func append(_ next: ContextDidSave) {
        contextName = next.contextName ?? contextName
        var temporary = ContextDidSave(
            insertedObjectIDs: [], updatedObjectIDs: [], deletedObjectIDs: [], contextName: nil,
            origin: origin)
        for (id, keys) in Self.sortedKeys(next.deletedObjectIDs, temporary: &temporary.deletedObjectIDs) {
            for key in keys {
                remove(key, .updated, in: id)
                if !remove(key, .inserted, in: id) { insert(key, .deleted, as: id) }
            }
        }
        for (id, keys) in Self.sortedKeys(next.insertedObjectIDs, temporary: &temporary.insertedObjectIDs) {
            for key in keys {
                // Inserted again after a delete (a row brought back): it changed.
                if remove(key, .deleted, in: id) {
                    insert(key, .updated, as: id)
                } else {
                    insert(key, .inserted, as: id)
                }
            }
        }
        for (id, keys) in Self.sortedKeys(next.updatedObjectIDs, temporary: &temporary.updatedObjectIDs) {
            for key in keys where !contains(key, .inserted, in: id) {
                insert(key, .updated, as: id)
            }
        }
        if !temporary.isEmpty { others.append(temporary) }
    }

    /// The IDs of one of the three sets.
    func objectIDs(_ change: Change) -> Set<ObjectID> {
        var ids = others[change]
        ids.reserveCapacity(ids.count + tables.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.keys[change.rawValue].count } })
        for entities in tables.values {
            for entity in entities {
                entity.keys[change.rawValue].forEach { ids.insert(ObjectID(scope: entity.scope, key: .permanent($0))) }
            }
        }
        return ids
    }

    // MARK: - Internals

    /// The permanent keys of `ids`, by entity (an ID of it stands for its table and scope),
    /// each entity's in order: a save's set lists them in hash order, and runs grow from keys
    /// in order. Temporary IDs go to `temporary`.
    private static func sortedKeys(
        _ ids: Set<ObjectID>, temporary: inout Set<ObjectID>
    ) -> [(ObjectID, [Int64])] {
        var groups: [(ObjectID, [Int64])] = []
        for id in ids {
            guard let key = id.primaryKey else {
                temporary.insert(id)
                continue
            }
            if let index = groups.firstIndex(where: { Self.sameEntity($0.0, id) }) {
                groups[index].1.append(key)
            } else {
                groups.append((id, [key]))
            }
        }
        for index in groups.indices { groups[index].1.sort() }
        return groups
    }

    private static func sameEntity(_ a: ObjectID, _ b: ObjectID) -> Bool {
        a.scope === b.scope
            || (a.entityName == b.entityName && a.rootName == b.rootName && a.storeIdentifier == b.storeIdentifier)
    }

    private static func table(of id: ObjectID) -> Table {
        Table(rootName: id.rootName, storeIdentifier: id.storeIdentifier)
    }

    /// Whether the key is in the set, under any entity of `id`'s table.
    private func contains(_ key: Int64, _ change: Change, in id: ObjectID) -> Bool {
        tables[Self.table(of: id)]?.contains { $0.keys[change.rawValue].contains(key) } ?? false
    }

    /// Takes the key out of the set, under whichever entity of `id`'s table has it.
    @discardableResult
    private mutating func remove(_ key: Int64, _ change: Change, in id: ObjectID) -> Bool {
        let table = Self.table(of: id)
        guard var entities = tables[table] else { return false }
        // Taken out first, so that its runs are changed in place rather than copied.
        tables[table] = nil
        defer { tables[table] = entities }
        for index in entities.indices {
            if entities[index].keys[change.rawValue].remove(key) { return true }
        }
        return false
    }

    /// Adds the key to the set under `id`'s entity, unless the table has it there already.
    private mutating func insert(_ key: Int64, _ change: Change, as id: ObjectID) {
        if contains(key, change, in: id) { return }
        let table = Self.table(of: id)
        var entities = tables[table] ?? []
        tables[table] = nil
        defer { tables[table] = entities }
        if let index = entities.firstIndex(where: { $0.entityName == id.entityName }) {
            entities[index].keys[change.rawValue].insert(key)
        } else {
            var entity = EntityKeys(scope: id.scope, entityName: id.entityName)
            entity.keys[change.rawValue].insert(key)
            entities.append(entity)
        }
    }
}

extension ContextDidSave {
    /// One of the three sets.
    fileprivate subscript(change: HeldAnnouncement.Change) -> Set<ObjectID> {
        switch change {
        case .inserted: insertedObjectIDs
        case .updated: updatedObjectIDs
        case .deleted: deletedObjectIDs
        }
    }
}
