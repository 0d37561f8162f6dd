import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// Saves every change in one transaction of the store: derived values are computed, every
    /// object is validated, uniqueness constraints are checked, and the rows are written.
    ///
    /// On any failure nothing is written, and the context keeps its changes so that they
    /// can be fixed and saved again.
    ///
    /// Updated and deleted objects whose rows another context or process wrote or deleted
    /// since they were read are found before anything is written (optimistic locking) and
    /// resolved by `mergePolicy`.
    ///
    /// - Throws: `MergeConflictError` for such objects under the `.error` merge policy;
    ///   `ValidationError` listing every failing object, property and rule;
    ///   `ConstraintConflictError` for a uniqueness conflict under the `.error` merge
    ///   policy; `ValueTransformerError`; the store's `PersistentStoreFailure` when it
    ///   cannot be written (read-only, locked past the busy timeout, full disk).
    public func save() throws {
        try save(inserting: [])
    }

    /// Saves every change and writes batch inserts' rows in the same transaction, after the
    /// objects: a row may link to an object inserted by this save (Core Data would need two
    /// transactions, a save and then an `NSBatchInsertRequest`). Everything is written, or
    /// nothing is.
    ///
    /// The rows are checked as `execute(_:)` checks them, and registered objects they made
    /// stale are reloaded when next used.
    ///
    /// - Throws: as `save()` and `execute(_:)`.
    public func save(inserting batches: [BatchInsertRequest]) throws {
        try checkQueue("save")
        if parent != nil {
            guard batches.isEmpty else {
                throw ObjectAccessError(
                    entity: batches[0].entityName, key: batches[0].entityName,
                    reason: "a child context saves into its parent, which keeps no rows: execute the batch in a context of the store")
            }
            return try saveIntoParent()
        }
        let pending = changed.values.filter { $0.hasChanges }
        guard !pending.isEmpty || !batches.isEmpty else { return }
        let writers = try batches.map { try BatchInsertWriter($0, context: self) }
        // Inserted objects in insertion order, so that keys follow it (deterministic stores).
        // Sorted on precomputed numbers: reading `objectID` in the comparator copied the ID
        // (three strings retained and released) n log n times.
        let inserted = pending.filter { $0.isInserted }.map { ($0.objectID.insertionNumber, $0) }
            .sorted { $0.0 < $1.0 }.map(\.1)
        var deleted = pending.filter { $0.isDeleted }
        // In table and key order, so that the writes walk each table, its indexes and its
        // search index in order rather than at random: updating 10,000 of 100,000 books took
        // 258 ms so against 337 ms in the context's (hash) order.
        var updated = pending.filter { !$0.isInserted && !$0.isDeleted }
            .map { (root: $0.schema.rootName, key: $0.objectID.primaryKey ?? 0, object: $0) }
            .sorted { ($0.root, $0.key) < ($1.root, $1.key) }.map(\.object)
        // One array of the objects whose rows are written: each `inserted + updated` made a
        // new one, retaining every object (registered objects' counts live in side tables,
        // where a retain is several times dearer).
        var saved = inserted + updated
        for object in saved { object.willSave() }
        for object in saved { try DerivedValues.compute(object) }

        var failures: [ValidationFailure] = []
        for object in saved {
            let objectFailures = ObjectValidator.failures(of: object)
            if !objectFailures.isEmpty { failures += objectFailures }
        }
        for object in deleted { failures += ObjectValidator.denyFailures(of: object) }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
        try checkUniquenessInMemory(saved, skippingUnchanged: inserted.isEmpty)

        var trumped: [ObjectID] = []
        // Objects whose rows another context deleted, which the merge policy lets go.
        var gone: [ManagedObject] = []
        let rowCount = saved.count + deleted.count + batches.reduce(0) { $0 + $1.count }
        // A failed save leaves no key behind: the objects are still unsaved.
        do {
            try persistentStoreCoordinator.performWrite(rowCount: rowCount) { store, transaction in
                // Optimistic locking, before anything is written: rows changed or deleted
                // since their objects read them are resolved by the merge policy (or the
                // save throws, leaving store and context as they were).
                let conflicts = try versionConflicts(among: updated + deleted, in: transaction)
                if !conflicts.isEmpty {
                    gone = try resolve(conflicts, reading: store)
                    if !gone.isEmpty {
                        let left = Set(gone.map(ObjectIdentifier.init))
                        updated.removeAll { left.contains(ObjectIdentifier($0)) }
                        deleted.removeAll { left.contains(ObjectIdentifier($0)) }
                    }
                    // Under `.rollback` an object may have nothing left to write.
                    updated.removeAll { !$0.hasChanges }
                    saved = inserted + updated
                }
                try allocateKeys(for: inserted, in: transaction)
                if mergePolicy.adoptsExistingRows { trumped = try adoptExistingRows(inserted, in: transaction) }
                let trumpedRows = Set(trumped.compactMap { id in id.primaryKey.map { TrumpedRow(rootName: id.rootName, key: $0) } })
                try reportingConflicts(inserted) {
                    for (tag, object) in inserted.enumerated() {
                        guard let key = object.savingKey else { continue }
                        if !trumpedRows.isEmpty, trumpedRows.contains(TrumpedRow(rootName: object.schema.rootName, key: key)) {
                            try transaction.overwrite(object, key: key, tag: tag)
                        } else {
                            try transaction.insert(object, key: key, tag: tag, replacingConflicts: false)
                        }
                    }
                    try transaction.flush()
                }
                // Only the changed columns are written, not the whole row.
                try reportingConflicts(updated) {
                    for (tag, object) in updated.enumerated() {
                        guard let key = object.objectID.primaryKey else { continue }
                        try transaction.update(object, key: key, positions: object.changedPositions(), tag: tag)
                    }
                    try transaction.flush()
                }
                // Deleted rows go many per statement, in key order.
                var deletions: [String: [Int64]] = [:]
                for object in deleted {
                    guard let key = object.objectID.primaryKey else { continue }
                    try transaction.recordTombstone(of: object, key: key)
                    deletions[object.schema.rootName, default: []].append(key)
                }
                for (rootEntity, keys) in deletions.sorted(by: { $0.key < $1.key }) {
                    try transaction.deleteRows(rootEntity: rootEntity, keys: keys.sorted())
                }
                try writeLinks(deleted: deleted, in: transaction)
                for writer in writers { try writer.write(in: transaction) }
                if !trumped.isEmpty { try readVersions(ofTrumping: inserted, in: transaction) }
            }
        } catch {
            for object in inserted {
                object.savingKey = nil
                object.rowVersion = 0
            }
            throw error
        }
        let updatedIDs = Set(updated.map(\.objectID)).union(trumped)
        didSave(inserted: inserted, saved: saved, deleted: deleted, trumped: trumped)
        for object in gone { forget(deletedElsewhere: object) }
        refreshObjects(staleAfter: writers)
        announce(
            ContextDidSave(
                insertedObjectIDs: Set(inserted.map(\.objectID)), updatedObjectIDs: updatedIDs,
                deletedObjectIDs: Set(deleted.map(\.objectID)), contextName: name, origin: ObjectIdentifier(self)))
    }

    // MARK: - Steps

    private func allocateKeys(for inserted: [ManagedObject], in transaction: any StoreTransaction) throws {
        let byTable = Dictionary(grouping: inserted) { $0.schema.rootName }
        for (table, objects) in byTable.sorted(by: { $0.key < $1.key }) {
            var next = try transaction.allocateKeys(rootEntity: table, count: objects.count)
            // In insertion order, so that rows (and to-manys read by `_id`) keep it: `inserted`
            // is sorted by insertion number, and grouping keeps each group in that order.
            for object in objects {
                object.savingKey = next
                next += 1
            }
        }
    }

    /// Two changed objects in this save with the same unique values conflict before the
    /// store is touched.
    ///
    /// With `skippingUnchanged` (a save without inserted objects), an updated object whose
    /// constrained values are the saved ones is left out: it cannot conflict with another
    /// unchanged one, and an object changed to its values is refused by the store's UNIQUE
    /// index, reported naming the changed object. With inserted objects every object
    /// counts, so that an insert meets the conflict here rather than taking over the
    /// updated object's row under object-trump merging.
    private func checkUniquenessInMemory(_ objects: [ManagedObject], skippingUnchanged: Bool = false) throws {
        var seen: Set<UniquenessKey> = []
        seen.reserveCapacity(objects.count)
        var groups = UniquenessGroups()
        for object in objects {
            guard !object.schema.uniquenessConstraints.isEmpty else { continue }
            for entry in groups.entries(for: object.schema) {
                if skippingUnchanged, !object.isInserted, let committed = object.committedSlots,
                    entry.positions.allSatisfy({ $0.map { object.slots[$0].isSame(as: committed[$0]) } ?? true })
                {
                    continue
                }
                let values = entry.values(of: object)
                if !entry.record(values, in: &seen) {
                    throw ConstraintConflictError(
                        entity: object.schema.name, keys: entry.constraint, values: values.map(\.description),
                        object: object.objectID.description)
                }
            }
        }
    }

    /// Runs `body`, which writes `objects` with their indexes as tags, and reports a
    /// uniqueness constraint the store refused as a conflict naming the object and values.
    func reportingConflicts(_ objects: [ManagedObject], _ body: () throws -> Void) throws {
        do { try body() } catch let violation as UniquenessViolation where objects.indices.contains(violation.tag) {
            let object = objects[violation.tag]
            let constraint = violation.constraintIndex.map { object.schema.uniquenessConstraints[$0] } ?? []
            let values = constraint.map { key in
                object.schema.propertyIndex[key].map { object.attributeValue(at: $0).description } ?? "nil"
            }
            throw ConstraintConflictError(entity: object.schema.name, keys: constraint, values: values, object: object.objectID.description)
        }
    }

    private func didSave(inserted: [ManagedObject], saved: [ManagedObject], deleted: [ManagedObject], trumped: [ObjectID]) {
        // Each update bumped its row's version once (see `StoreTransaction.update`).
        for object in saved where !object.isInserted && object.rowVersion > 0 { object.rowVersion += 1 }
        var replaced: Set<ObjectIdentifier> = []
        for id in trumped {
            // A registered object for a row an insert took over is stale: reload it when used.
            // (Inserted objects are registered under temporary IDs, so it is never one of them.)
            if let stale = registry[id]?.object, !stale.isInserted {
                stale.isFault = true
                registry[id] = nil
                stray(stale)
                replaced.insert(ObjectIdentifier(stale))
            }
        }
        // Re-keying removes an entry for each one it adds, so the registry does not grow here
        // (reserving room first only rehashed it: a quarter of this function, by profile).
        for object in inserted {
            guard let key = object.savingKey else { continue }
            object.savingKey = nil
            registry[object.objectID] = nil
            object.objectID = ObjectID(scope: object.objectID.scope, key: .permanent(key))
            object.isInserted = false
            registry[object.objectID] = RegistryEntry(object)
            // A new row's version is 1; a row taken over was read back after the writes.
            if object.rowVersion == 0 { object.rowVersion = 1 }
        }
        for object in saved { object.committedSlots = object.slots }
        for object in deleted { detach(object) }
        // The store now holds what pending inverse edits described.
        for object in changed.values { object.pendingToMany.removeAll() }
        changed.removeAll()
        if !replaced.isEmpty { refaultRelationships(holding: replaced) }
    }

    /// Loaded relationships that hold an object whose row an insert took over are read from
    /// the store again when next used: the row's links are now the inserted object's (a
    /// tag's loaded `books` must lose a book whose new object has other tags), and its ID
    /// names the inserted object, so a shelf that held the old object gets the new one. The
    /// save has just committed every registered object, so nothing unsaved is dropped.
    func refaultRelationships(holding replaced: Set<ObjectIdentifier>) {
        for case let object? in registry.values.map(\.object) where !object.isFault {
            for position in object.slots.indices {
                switch object.slots[position] {
                case .toOne(let destination?) where replaced.contains(ObjectIdentifier(destination)):
                    object.slots[position] = .toOneFault(destination.objectID)
                case .toMany(let destinations) where destinations.contains(where: { replaced.contains(ObjectIdentifier($0)) }):
                    object.slots[position] = .toManyFault
                default:
                    continue
                }
                object.committedSlots?[position] = object.slots[position]
            }
        }
    }
}
