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
    ///   `ConstraintConflictError` for a uniqueness conflict the merge policy does not
    ///   resolve (every one under `.error`); `ValueTransformerError`; the store's `PersistentStoreFailure` when it
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
        // A save ends the undo manager's event: what follows is another undo step.
        undoManager?.endEventGroup()
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
        var inserted = pending.filter { $0.isInserted }.map { ($0.objectID.insertionNumber, $0) }
            .sorted { $0.0 < $1.0 }.map(\.1)
        // Every inserted object, for undoing a failed save: some are merged into others below.
        let insertedBeforeSave = inserted
        var deleted = pending.filter { $0.isDeleted }
        // In table and key order, so that the writes walk each table, its indexes and its
        // search index in order rather than at random, as they would in the context's (hash) order.
        var updated = pending.filter { !$0.isInserted && !$0.isDeleted }
            .map { (root: $0.schema.rootName, key: $0.objectID.primaryKey ?? 0, object: $0) }
            .sorted { ($0.root, $0.key) < ($1.root, $1.key) }.map(\.object)
        // One array of the objects whose rows are written: each `inserted + updated` made a
        // new one, retaining every object (registered objects' counts live in side tables,
        // where a retain is several times dearer).
        var saved = inserted + updated
        for object in saved { object.willSave() }
        for object in saved { try DerivedValues.compute(object) }
        // Saved objects whose derived values read the changed ones (`books.@sum.price`) and
        // so changed too (never inserted ones: those are in the save already).
        let dependents = try DerivedValues.recomputeDependents(of: saved, deleted: deleted, in: self)
        if !dependents.isEmpty {
            updated += dependents
            saved += dependents
        }

        var failures: [ValidationFailure] = []
        for object in saved {
            let objectFailures = ObjectValidator.failures(of: object)
            if !objectFailures.isEmpty { failures += objectFailures }
        }
        for object in deleted { failures += ObjectValidator.denyFailures(of: object) }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
        // Two objects of the save with the same unique values fail it here, before the store
        // is touched; under store-trump and rollback merging, which merge such an insert
        // away, after version conflicts are resolved (a merge may change the values).
        let skippingUnchanged = inserted.isEmpty
        if !mergePolicy.keepsStoredRows {
            _ = try checkUniquenessInMemory(inserted: inserted, updated: updated, skippingUnchanged: skippingUnchanged)
        }
        // Inserted objects merged into another object of the save or a stored row, of which
        // nothing is written (store-trump and rollback merging).
        var inMemoryDuplicates: [InMemoryDuplicate] = []
        var duplicates: [Duplicate] = []

        var trumped: [ObjectID] = []
        // Objects whose rows another context deleted, which the merge policy lets go.
        var gone: [ManagedObject] = []
        // Whether `.rollback` undid the delete of an object whose row changed.
        var restoredDeletes = false
        // The merged objects' states before, put back if the save fails after all.
        var beforeMerging: [ConflictSnapshot] = []
        let rowCount = saved.count + deleted.count + batches.reduce(0) { $0 + $1.count }
        // A failed save leaves no key behind: the objects are still unsaved.
        do {
            try persistentStoreCoordinator.performWrite(rowCount: rowCount) { store, transaction in
                transaction.setHistoryAuthor(transactionAuthor, contextName: name)
                // Optimistic locking, before anything is written: rows changed or deleted
                // since their objects read them are resolved by the merge policy (or the
                // save throws, leaving store and context as they were).
                let conflicts = try versionConflicts(among: updated + deleted, in: transaction)
                if !conflicts.isEmpty {
                    gone = try resolve(conflicts, reading: store, undo: &beforeMerging)
                    if !gone.isEmpty {
                        let left = Set(gone.map(ObjectIdentifier.init))
                        updated.removeAll { left.contains(ObjectIdentifier($0)) }
                        deleted.removeAll { left.contains(ObjectIdentifier($0)) }
                    }
                    // Under `.rollback` an object may have nothing left to write, and a
                    // deleted one may be deleted no more.
                    updated.removeAll { !$0.hasChanges }
                    restoredDeletes = deleted.contains { !$0.isDeleted }
                    deleted.removeAll { !$0.isDeleted }
                }
                // A row whose version was set to its limit by hand cannot be bumped: refused
                // before anything is written (SQLite would store the sum as a REAL).
                if let spent = updated.first(where: { $0.rowVersion == Int64.max }) {
                    throw RowVersionExhaustedError(object: spent.objectID.description)
                }
                if mergePolicy.keepsStoredRows {
                    inMemoryDuplicates = try checkUniquenessInMemory(
                        inserted: inserted, updated: updated, skippingUnchanged: skippingUnchanged)
                    duplicates = inMemoryDuplicates.map { Duplicate(object: $0.object, row: nil) }
                    leaveOut(duplicates, from: &inserted)
                }
                try allocateKeys(for: inserted, in: transaction)
                if mergePolicy.adoptsExistingRows { trumped = try adoptExistingRows(inserted, in: transaction) }
                if mergePolicy.keepsStoredRows {
                    let stored = try mergeIntoExistingRows(inserted, sparing: deleted, in: transaction)
                    leaveOut(stored, from: &inserted)
                    duplicates += stored
                    // What links to an object merged into another of the save links to its row.
                    for duplicate in inMemoryDuplicates { duplicate.object.savingKey = duplicate.original.rowKey }
                }
                if !conflicts.isEmpty || !duplicates.isEmpty { saved = inserted + updated }
                let trumpedRows = Set(trumped.compactMap { id in id.primaryKey.map { TrumpedRow(rootName: id.rootName, key: $0) } })
                try reportingConflicts(inserted) {
                    for (tag, object) in inserted.enumerated() {
                        guard let key = object.savingKey else { continue }
                        if !trumpedRows.isEmpty, trumpedRows.contains(TrumpedRow(rootName: object.schema.rootName, key: key)) {
                            try transaction.overwrite(object, key: key, tag: tag)
                        } else {
                            try transaction.insert(object, key: key, tag: tag, onConflict: .fail)
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
                try writeLinks(deleted: deleted, skipping: duplicates.map(\.object), in: transaction)
                for writer in writers { try writer.write(in: transaction) }
                if !trumped.isEmpty { try readVersions(ofTrumping: inserted, in: transaction) }
            }
        } catch {
            for object in insertedBeforeSave {
                object.savingKey = nil
                object.rowVersion = 0
            }
            for snapshot in beforeMerging { snapshot.restore() }
            throw error
        }
        let updatedIDs = Set(updated.map(\.objectID)).union(trumped)
        didSave(inserted: inserted, saved: saved, deleted: deleted, trumped: trumped)
        settle(duplicates)
        // Another context's delete stands: the object reads nil rather than a row that is
        // gone, and relationships that held it read the store again when next used.
        if !gone.isEmpty {
            for object in gone { discard(object) }
            refaultRelationships(holding: Set(gone.map(ObjectIdentifier.init)))
        }
        // A delete undone under `.rollback` may have left loaded to-manys without the object.
        if restoredDeletes {
            for case let object? in registry.values.map(\.object) where !object.isFault { resetRelationshipFaults(object) }
        }
        refreshObjects(staleAfter: writers)
        announce(
            ContextDidSave(
                insertedObjectIDs: Set(inserted.map(\.objectID)), updatedObjectIDs: updatedIDs,
                deletedObjectIDs: Set(deleted.map(\.objectID)), contextName: name, origin: ObjectIdentifier(self)))
    }

    // MARK: - Steps

    /// Removes merged objects from the save's inserted ones.
    private func leaveOut(_ duplicates: [Duplicate], from inserted: inout [ManagedObject]) {
        guard !duplicates.isEmpty else { return }
        let merged = Set(duplicates.map { ObjectIdentifier($0.object) })
        inserted.removeAll { merged.contains(ObjectIdentifier($0)) }
    }

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
        // (reserving room first would only rehash it).
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
    /// names the inserted object, so a shelf that held the old object gets the new one. So
    /// are those holding an object merged into another (they reach the row's object) or
    /// whose row another context deleted (they lose it). The save has just committed every
    /// registered object, so nothing unsaved is dropped.
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
