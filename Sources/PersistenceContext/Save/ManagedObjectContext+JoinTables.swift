import Foundation
import PersistenceModel
import PersistenceStore

// To-many relationships whose links a store keeps apart from rows (join tables, in the SQLite
// store): reading their IDs, and writing their links at save from the difference between
// committed and current values.

extension ManagedObjectContext {
    // MARK: - Loading

    /// The IDs of a saved object's to-many destinations (the relationship at `position`, a
    /// fault without pending edits), read without making objects; nil when they cannot be
    /// read now (the caller then loads the objects).
    ///
    /// Read together with those of the object's fetched siblings whose same relationship is
    /// still a fault, in one store read, and kept for them (see `ToManyIDBatches`): a loop
    /// over fetched objects reading their to-many IDs reads the store once a batch, not once
    /// an object.
    func destinationIDs(_ object: ManagedObject, at position: Int) -> [ObjectID]? {
        guard let key = object.objectID.primaryKey else { return nil }
        let relationship = object.relationship(at: position)
        let kept = ToManyIDBatches.Relationship(rootName: object.schema.rootName, name: relationship.name)
        if let ids = toManyIDBatches.keptIDs(kept, key: key) { return ids }
        let sources = toManyIDBatches.siblings(of: object, key: key) { scope, key in
            guard let sibling = registry[ObjectID(scope: scope, key: .permanent(key))]?.object,
                sibling !== object, sibling.managedObjectContext === self, !sibling.isFault,
                let position = sibling.schema.propertyIndex[relationship.name],
                case .toManyFault = sibling.slots[position], sibling.pendingToMany[position] == nil,
                toManyIDBatches.keptIDs(kept, key: key) == nil
            else { return nil }
            return sibling.objectID
        }
        guard sources.count > 1 else {
            return try? persistentStoreCoordinator.read { try $0.destinationIDs(of: relationship, from: object.objectID) }
        }
        guard let found = try? persistentStoreCoordinator.read({ try $0.destinationIDs(of: relationship, from: sources) })
        else { return nil }
        toManyIDBatches.keep(found, of: sources, for: kept)
        return found[object.objectID] ?? []
    }

    // MARK: - Saving

    /// Writes the links of every changed object's join-table relationships, then removes
    /// the links of deleted objects. Call inside the save's write transaction, after rows
    /// are written and with each inserted object's `savingKey` set.
    ///
    /// Both sides of a many-to-many write the same row: inserting is idempotent (the row is
    /// unique per pair) and deleting a missing row does nothing, so whichever sides are
    /// loaded agree. A side that is still a fault writes the edits recorded on it.
    ///
    /// Objects in `skipping` (inserted objects merged into a stored row under store-trump
    /// merging) write none of their own links: the row's stay as they are.
    func writeLinks(deleted: [ManagedObject], skipping: [ManagedObject] = [], in transaction: any StoreTransaction) throws {
        guard transaction.storesAnyLinksInJoinTables else { return }
        let skipped = Set(skipping.map(ObjectIdentifier.init))
        func key(of object: ManagedObject) -> Int64? {
            guard !object.isDeleted, object.managedObjectContext === self else { return nil }
            return object.rowKey
        }
        // In a fixed order, so that the rows of unordered relationships (read back in row
        // order) come out the same on every run.
        let objects = changed.values.filter { !$0.isDeleted && !skipped.contains(ObjectIdentifier($0)) }.sorted {
            ($0.objectID.insertionOrder, $0.schema.rootName) < ($1.objectID.insertionOrder, $1.schema.rootName)
        }
        var linkedApart: [ObjectIdentifier: [(Int, String, Bool)]] = [:]
        for object in objects {
            let entity = object.schema.name
            let apart = linkedApart[ObjectIdentifier(object.schema)] ?? {
                // The entity's to-manys whose links the store keeps apart, worked out once per save.
                let found = object.schema.properties.enumerated().compactMap { position, property in
                    guard case .relationship(let relationship) = property, relationship.isToMany,
                        transaction.storesLinksInJoinTable(entity: entity, relationship: relationship.name)
                    else { return nil }
                    return (position, relationship.name, relationship.isOrdered)
                } as [(Int, String, Bool)]
                linkedApart[ObjectIdentifier(object.schema)] = found
                return found
            }()
            guard !apart.isEmpty, !object.isFault, let own = key(of: object) else { continue }
            for (position, relationship, isOrdered) in apart {
                let link = LinkWriter(
                    transaction: transaction, entity: entity, relationship: relationship, isOrdered: isOrdered, own: own)
                switch object.slots[position] {
                case .toMany(let current):
                    let old: [ManagedObject]?
                    if object.committedSlots == nil {
                        old = []
                    } else if case .toMany(let committed)? = object.committedSlots?[position] {
                        old = committed
                    } else {
                        old = nil
                    }
                    try writeLinks(link, old: old, current: current, key: key)
                case .toManyFault:
                    guard let pending = object.pendingToMany[position] else { continue }
                    for removed in pending.removed.values {
                        guard let other = removed.objectID.primaryKey else { continue }
                        try link.remove(other)
                    }
                    for added in pending.added {
                        guard let other = key(of: added) else { continue }
                        try link.append(other)
                    }
                default:
                    continue
                }
            }
        }
        // The deleted rows' links, a list of keys per hierarchy (in key order, so that the
        // store walks its indexes forward).
        var deletedKeys: [String: [Int64]] = [:]
        for object in deleted {
            guard let primaryKey = object.objectID.primaryKey else { continue }
            deletedKeys[object.schema.rootName, default: []].append(primaryKey)
        }
        for (rootEntity, keys) in deletedKeys.sorted(by: { $0.key < $1.key }) {
            try transaction.removeAllLinks(rootEntity: rootEntity, keys: keys.sorted())
        }
    }

    /// Writes one relationship's links from its committed (`old`, nil when unknown) and
    /// current destinations.
    private func writeLinks(
        _ link: LinkWriter, old: [ManagedObject]?, current: [ManagedObject],
        key: (ManagedObject) -> Int64?
    ) throws {
        guard let old else {
            try link.removeAll()
            for (index, object) in current.enumerated() {
                if let other = key(object) { try link.set(other, position: index) }
            }
            return
        }
        if old.count == current.count, zip(old, current).allSatisfy({ $0 === $1 }) { return }
        let currentSet = Set(current.map(ObjectIdentifier.init))
        let oldSet = Set(old.map(ObjectIdentifier.init))
        for removed in old where !currentSet.contains(ObjectIdentifier(removed)) {
            if let other = removed.objectID.primaryKey { try link.remove(other) }
        }
        let added = current.filter { !oldSet.contains(ObjectIdentifier($0)) }
        let kept = current.filter { oldSet.contains(ObjectIdentifier($0)) }
        let keptInOrder = old.filter { currentSet.contains(ObjectIdentifier($0)) }
        let onlyAppended = zip(kept, keptInOrder).allSatisfy { $0 === $1 }
            && current.prefix(kept.count).elementsEqual(kept, by: ===)
        if !link.isOrdered || onlyAppended {
            // Unordered, or ordered with the old order kept and new objects at the end.
            for object in added {
                guard let other = key(object) else { continue }
                if link.isOrdered {
                    try link.append(other)
                } else {
                    try link.set(other, position: nil)
                }
            }
        } else {
            for (index, object) in current.enumerated() {
                if let other = key(object) { try link.set(other, position: index) }
            }
        }
    }
}

extension ObjectID {
    /// The order in which temporary IDs were made (permanent IDs sort after, by key).
    var insertionOrder: UInt64 {
        switch key {
        case .temporary(let n): return n
        case .permanent(let k): return UInt64.max / 2 + UInt64(truncatingIfNeeded: k)
        }
    }
}

/// The links of one object's to-many relationship that the store keeps apart from rows, as
/// a save writes them.
private struct LinkWriter {
    let transaction: any StoreTransaction
    let entity: String
    let relationship: String
    let isOrdered: Bool
    let own: Int64

    func remove(_ other: Int64) throws {
        try transaction.removeLink(entity: entity, relationship: relationship, from: own, to: other)
    }

    func removeAll() throws {
        try transaction.removeLinks(entity: entity, relationship: relationship, from: own)
    }

    func append(_ other: Int64) throws {
        try transaction.appendLink(entity: entity, relationship: relationship, from: own, to: other)
    }

    func set(_ other: Int64, position: Int?) throws {
        try transaction.setLink(entity: entity, relationship: relationship, from: own, to: other, position: position)
    }
}
