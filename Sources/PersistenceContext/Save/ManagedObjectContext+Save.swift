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
        guard let plan = try SavePlan(context: self, batches: batches) else { return }
        try plan.prepare()
        try plan.validate()
        do {
            try persistentStoreCoordinator.performWrite(rowCount: plan.rowCount) { store, transaction in
                try plan.write(to: store, in: transaction)
            }
        } catch {
            plan.undoFailedWrite()
            throw error
        }
        // The save may have changed links that to-many IDs read before it hold.
        toManyIDBatches.dropKept()
        plan.finish()
    }

    // MARK: - What the plan asks of the context

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

    func didSave(inserted: [ManagedObject], saved: [ManagedObject], deleted: [ManagedObject], trumped: [ObjectID]) {
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
            object.clearSavingKey()
            registry[object.objectID] = nil
            object.objectID = ObjectID(scope: object.objectID.scope, key: .permanent(key))
            object.isInserted = false
            registry[object.objectID] = RegistryEntry(object)
            // A new row's version is 1; a row taken over was read back after the writes.
            if object.rowVersion == 0 { object.rowVersion = 1 }
        }
        for object in saved { object.committedSlots = object.slots }
        for object in deleted { detach(object) }
        // The store now holds what pending inverse edits described. Read first: the
        // `pendingToMany` accessor yields the extras' dictionary for a change even when it is
        // empty, as nearly every one is.
        for object in changed.values where object.hasPendingToMany { object.pendingToMany.removeAll() }
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
