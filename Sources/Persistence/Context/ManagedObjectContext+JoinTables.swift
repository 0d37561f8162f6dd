import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteStore

// To-many relationships stored in join tables (see `JoinTableMapping`): loading them, and
// writing their links at save from the difference between committed and current values.

extension ManagedObjectContext {
    // MARK: - Loading

    /// The IDs of a saved object's to-many destinations, read without making objects; nil
    /// when they cannot be read now (the caller then loads the objects).
    func destinationIDs(_ object: ManagedObject, relationship: RelationshipDescription) -> [ObjectID]? {
        guard object.objectID.primaryKey != nil else { return nil }
        return try? persistentStoreCoordinator.store.destinationIDs(of: relationship, from: object.objectID)
    }

    // MARK: - Saving

    /// Writes the links of every changed object's join-table relationships, then removes
    /// the links of deleted objects. Call inside the save's write transaction, after rows
    /// are written and with each inserted object's `savingKey` set.
    ///
    /// Both sides of a many-to-many write the same row: inserting is idempotent (the row is
    /// unique per pair) and deleting a missing row does nothing, so whichever sides are
    /// loaded agree. A side that is still a fault writes the edits recorded on it.
    func writeJoinRows(deleted: [ManagedObject]) throws {
        guard !store.schema.joinTables.isEmpty else { return }
        func key(of object: ManagedObject) -> Int64? {
            guard !object.isDeleted, object.managedObjectContext === self else { return nil }
            return object.rowKey
        }
        // In a fixed order, so that the rows of unordered relationships (read back in row
        // order) come out the same on every run.
        let objects = changed.values.filter { !$0.isDeleted }.sorted {
            ($0.objectID.insertionOrder, $0.schema.rootName) < ($1.objectID.insertionOrder, $1.schema.rootName)
        }
        for object in objects {
            guard let sides = store.schema.joinSides[object.schema.name], !object.isFault,
                let own = key(of: object)
            else { continue }
            for (name, side) in sides {
                guard let position = object.schema.propertyIndex[name] else { continue }
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
                    try writeLinks(side, own: own, old: old, current: current, key: key)
                case .toManyFault:
                    guard let pending = object.pendingToMany[position] else { continue }
                    for removed in pending.removed.values {
                        guard let other = removed.objectID.primaryKey else { continue }
                        try store.deleteJoinRow(side, own: own, other: other)
                    }
                    for added in pending.added {
                        guard let other = key(of: added) else { continue }
                        try store.appendJoinRow(side, own: own, other: other)
                    }
                default:
                    continue
                }
            }
        }
        for object in deleted {
            guard let primaryKey = object.objectID.primaryKey else { continue }
            try store.deleteJoinRows(rootTable: object.schema.rootName, primaryKey: primaryKey)
        }
    }

    /// Writes one relationship's links from its committed (`old`, nil when unknown) and
    /// current destinations.
    private func writeLinks(
        _ side: JoinSide, own: Int64, old: [ManagedObject]?, current: [ManagedObject],
        key: (ManagedObject) -> Int64?
    ) throws {
        guard let old else {
            try store.deleteJoinRows(side, own: own)
            for (index, object) in current.enumerated() {
                if let other = key(object) { try store.upsertJoinRow(side, own: own, other: other, position: index) }
            }
            return
        }
        if old.count == current.count, zip(old, current).allSatisfy({ $0 === $1 }) { return }
        let currentSet = Set(current.map(ObjectIdentifier.init))
        let oldSet = Set(old.map(ObjectIdentifier.init))
        for removed in old where !currentSet.contains(ObjectIdentifier(removed)) {
            if let other = removed.objectID.primaryKey { try store.deleteJoinRow(side, own: own, other: other) }
        }
        let added = current.filter { !oldSet.contains(ObjectIdentifier($0)) }
        let kept = current.filter { oldSet.contains(ObjectIdentifier($0)) }
        let keptInOrder = old.filter { currentSet.contains(ObjectIdentifier($0)) }
        let onlyAppended = zip(kept, keptInOrder).allSatisfy { $0 === $1 }
            && current.prefix(kept.count).elementsEqual(kept, by: ===)
        if !side.isOrdered || onlyAppended {
            // Unordered, or ordered with the old order kept and new objects at the end.
            for object in added {
                guard let other = key(object) else { continue }
                if side.isOrdered {
                    try store.appendJoinRow(side, own: own, other: other)
                } else {
                    try store.upsertJoinRow(side, own: own, other: other, position: nil)
                }
            }
        } else {
            for (index, object) in current.enumerated() {
                if let other = key(object) { try store.upsertJoinRow(side, own: own, other: other, position: index) }
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
