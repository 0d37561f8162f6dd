import Foundation
import PersistenceModel
import PersistenceStore

/// One save of a context into its store, phase by phase: what `save(inserting:)` does, in
/// the order it does it.
///
/// 1. ``init(context:batches:)`` gathers the changed objects, in the orders the writes want.
/// 2. ``prepare()`` lets objects see the save coming (`willSave`) and computes derived values,
///    also of saved objects that read the changed ones.
/// 3. ``validate()`` checks every rule of the model and, unless the merge policy merges
///    duplicates away, uniqueness among the save's own objects: all before the store is
///    touched.
/// 4. ``write(to:in:)`` runs inside the store's write transaction: version conflicts resolved by
///    the merge policy, duplicates merged, keys allocated, then inserts, updates, deletes,
///    links and batch rows written.
/// 5. ``undoFailedWrite()`` puts the objects back as they were if the transaction failed, or
///    ``finish()`` makes the context match the committed store and announces the save.
///
/// A plan is used once, on the context's queue.
final class SavePlan {
    let context: ManagedObjectContext
    let writers: [BatchInsertWriter]
    /// Inserted objects in insertion order, so that keys follow it (deterministic stores);
    /// those merged into another object or a stored row leave it.
    private(set) var inserted: [ManagedObject]
    /// Every inserted object, for undoing a failed save: some are merged into others.
    let insertedBeforeSave: [ManagedObject]
    /// In table and key order, so that the writes walk each table, its indexes and its
    /// search index in order rather than at random.
    private(set) var updated: [ManagedObject]
    private(set) var deleted: [ManagedObject]
    /// The objects whose rows are written: `inserted + updated`, kept as one array (each
    /// concatenation would retain every object again).
    private(set) var saved: [ManagedObject]
    /// Inserted objects merged into another object of the save or a stored row, of which
    /// nothing is written (store-trump and rollback merging).
    private(set) var duplicates: [ManagedObjectContext.Duplicate] = []
    /// Stored rows an insert took over (object-trump and overwrite merging).
    private(set) var trumped: [ObjectID] = []
    /// Objects whose rows another context deleted, which the merge policy lets go.
    private(set) var gone: [ManagedObject] = []
    /// Whether `.rollback` undid the delete of an object whose row changed.
    private(set) var restoredDeletes = false
    /// The merged objects' states before, put back if the save fails after all.
    private var beforeMerging: [ManagedObjectContext.ConflictSnapshot] = []
    /// A save with inserted objects checks every updated object's unique values; one with
    /// none only the values that changed.
    private let skippingUnchanged: Bool
    /// The rows the batch inserts bring.
    private let batchRows: Int

    /// The plan of saving `context`'s pending changes and `batches`; nil when there is
    /// nothing to save.
    ///
    /// - Throws: what checking a batch's rows throws (`BatchInsertWriter`).
    init?(context: ManagedObjectContext, batches: [BatchInsertRequest]) throws {
        // One pass over the changed objects into the three kinds, each sorted in place on
        // precomputed numbers (reading `objectID` in a comparator would copy the ID n log n
        // times): a filter per kind and a sorted copy of each retained and released every
        // object several times over.
        var insertedByNumber: [(number: UInt64, object: ManagedObject)] = []
        var updatedByKey: [(root: String, key: Int64, object: ManagedObject)] = []
        var deleted: [ManagedObject] = []
        for object in context.changed.values {
            // `hasChanges` is true for an inserted or a deleted object.
            if object.isInserted { insertedByNumber.append((object.objectID.insertionNumber, object)) }
            if object.isDeleted { deleted.append(object) }
            if !object.isInserted, !object.isDeleted, object.hasChanges {
                updatedByKey.append((object.schema.rootName, object.objectID.primaryKey ?? 0, object))
            }
        }
        guard !insertedByNumber.isEmpty || !updatedByKey.isEmpty || !deleted.isEmpty || !batches.isEmpty else {
            return nil
        }
        self.context = context
        writers = try batches.map { try BatchInsertWriter($0, context: context) }
        insertedByNumber.sort { $0.number < $1.number }
        updatedByKey.sort { ($0.root, $0.key) < ($1.root, $1.key) }
        var saved: [ManagedObject] = []
        saved.reserveCapacity(insertedByNumber.count + updatedByKey.count)
        for entry in insertedByNumber { saved.append(entry.object) }
        inserted = saved
        insertedBeforeSave = saved
        for entry in updatedByKey { saved.append(entry.object) }
        updated = Array(saved[insertedByNumber.count...])
        self.deleted = deleted
        self.saved = saved
        skippingUnchanged = inserted.isEmpty
        batchRows = batches.reduce(0) { $0 + $1.count }
    }

    /// The rows the save writes, for the store's bulk-load preparation.
    var rowCount: Int { saved.count + deleted.count + batchRows }

    // MARK: - Before the store

    /// Tells each saved object (`willSave`) and computes derived values; saved objects whose
    /// derived values read the changed ones (`books.@sum.price`) join the save as updates.
    func prepare() throws {
        for object in saved { object.willSave() }
        for object in saved { try DerivedValues.compute(object) }
        let dependents = try DerivedValues.recomputeDependents(of: saved, deleted: deleted, in: context)
        if !dependents.isEmpty {
            updated += dependents
            saved += dependents
        }
    }

    /// Every rule of the model on every saved object and every Deny rule on deleted ones;
    /// then two objects of the save with the same unique values, unless store-trump and
    /// rollback merging will merge such an insert away (after conflicts are resolved, since a
    /// merge may change the values).
    ///
    /// - Throws: `ValidationError` listing every failure; `ConstraintConflictError`.
    func validate() throws {
        var failures: [ValidationFailure] = []
        for object in saved {
            let objectFailures = ObjectValidator.failures(of: object)
            if !objectFailures.isEmpty { failures += objectFailures }
        }
        for object in deleted { failures += ObjectValidator.denyFailures(of: object) }
        if !failures.isEmpty { throw ValidationError(failures: failures) }
        if !context.mergePolicy.keepsStoredRows {
            _ = try context.checkUniquenessInMemory(inserted: inserted, updated: updated, skippingUnchanged: skippingUnchanged)
        }
    }

    // MARK: - In the write transaction

    /// Writes the save in `transaction` of `store`: nothing is written before conflicts and
    /// duplicates are settled.
    func write(to store: any PersistentStore, in transaction: any StoreTransaction) throws {
        transaction.setHistoryAuthor(context.transactionAuthor, contextName: context.name)
        let hadConflicts = try resolveVersionConflicts(reading: store, in: transaction)
        if let spent = updated.first(where: { $0.rowVersion == Int64.max }) {
            // A row whose version was set to its limit by hand cannot be bumped (SQLite
            // would store the sum as a REAL).
            throw RowVersionExhaustedError(object: spent.objectID.description)
        }
        var inMemoryDuplicates: [ManagedObjectContext.InMemoryDuplicate] = []
        if context.mergePolicy.keepsStoredRows {
            inMemoryDuplicates = try context.checkUniquenessInMemory(
                inserted: inserted, updated: updated, skippingUnchanged: skippingUnchanged)
            duplicates = inMemoryDuplicates.map { .init(object: $0.object, row: nil) }
            leaveOut(duplicates)
        }
        try allocateKeys(in: transaction)
        if context.mergePolicy.adoptsExistingRows { trumped = try context.adoptExistingRows(inserted, in: transaction) }
        if context.mergePolicy.keepsStoredRows {
            let stored = try context.mergeIntoExistingRows(inserted, sparing: deleted, in: transaction)
            leaveOut(stored)
            duplicates += stored
            // What links to an object merged into another of the save links to its row.
            for duplicate in inMemoryDuplicates { duplicate.object.savingKey = duplicate.original.rowKey }
        }
        if hadConflicts || !duplicates.isEmpty { saved = inserted + updated }
        try writeInserts(in: transaction)
        try writeUpdates(in: transaction)
        try writeDeletes(in: transaction)
        try context.writeLinks(deleted: deleted, skipping: duplicates.map(\.object), in: transaction)
        for writer in writers { try writer.write(in: transaction) }
        if !trumped.isEmpty { try context.readVersions(ofTrumping: inserted, in: transaction) }
    }

    /// Optimistic locking: rows changed or deleted since their objects read them are resolved
    /// by the merge policy, or the save throws, leaving store and context as they were.
    /// Returns whether there were any.
    private func resolveVersionConflicts(reading store: any PersistentStore, in transaction: any StoreTransaction) throws -> Bool {
        let conflicts = try context.versionConflicts(among: updated + deleted, in: transaction)
        guard !conflicts.isEmpty else { return false }
        gone = try context.resolve(conflicts, reading: store, undo: &beforeMerging)
        if !gone.isEmpty {
            let left = Set(gone.map(ObjectIdentifier.init))
            updated.removeAll { left.contains(ObjectIdentifier($0)) }
            deleted.removeAll { left.contains(ObjectIdentifier($0)) }
        }
        // Under `.rollback` an object may have nothing left to write, and a deleted one may
        // be deleted no more.
        updated.removeAll { !$0.hasChanges }
        restoredDeletes = deleted.contains { !$0.isDeleted }
        deleted.removeAll { !$0.isDeleted }
        return true
    }

    /// Removes merged objects from the inserted ones.
    private func leaveOut(_ merged: [ManagedObjectContext.Duplicate]) {
        guard !merged.isEmpty else { return }
        let objects = Set(merged.map { ObjectIdentifier($0.object) })
        inserted.removeAll { objects.contains(ObjectIdentifier($0)) }
    }

    /// Gives each inserted object its row's key, table by table, in insertion order (so
    /// rows, and to-manys read by `_id`, keep it).
    private func allocateKeys(in transaction: any StoreTransaction) throws {
        let byTable = Dictionary(grouping: inserted) { $0.schema.rootName }
        for (table, objects) in byTable.sorted(by: { $0.key < $1.key }) {
            var next = try transaction.allocateKeys(rootEntity: table, count: objects.count)
            for object in objects {
                object.savingKey = next
                next += 1
            }
        }
    }

    /// Inserts each new row, or overwrites the stored row it took over.
    private func writeInserts(in transaction: any StoreTransaction) throws {
        let trumpedRows = Set(trumped.compactMap { id in id.primaryKey.map { TrumpedRow(rootName: id.rootName, key: $0) } })
        try context.reportingConflicts(inserted) {
            for tag in Self.positionsByEntity(inserted) {
                let object = inserted[tag]
                guard let key = object.savingKey else { continue }
                if !trumpedRows.isEmpty, trumpedRows.contains(TrumpedRow(rootName: object.schema.rootName, key: key)) {
                    try transaction.overwrite(object, key: key, tag: tag)
                } else {
                    try transaction.insert(object, key: key, tag: tag, onConflict: .fail)
                }
            }
            try transaction.flush()
        }
    }

    /// The positions of `objects`, entity by entity: each entity's objects in the order they
    /// came, the entities in the order of their first object. A store writes a run of one
    /// entity's rows many per statement, and objects of two entities made in turn (a book,
    /// then its author, then the next book) would otherwise be runs of one row each: a
    /// statement (on a server, a round trip) a row.
    private static func positionsByEntity(_ objects: [ManagedObject]) -> [Int] {
        var runs: [[Int]] = []
        var runOfEntity: [ObjectIdentifier: Int] = [:]
        for (position, object) in objects.enumerated() {
            let entity = ObjectIdentifier(object.schema)
            if let run = runOfEntity[entity] {
                runs[run].append(position)
            } else {
                runOfEntity[entity] = runs.count
                runs.append([position])
            }
        }
        return runs.count == 1 ? Array(objects.indices) : runs.flatMap { $0 }
    }

    /// Writes only the changed columns of each updated row.
    private func writeUpdates(in transaction: any StoreTransaction) throws {
        try context.reportingConflicts(updated) {
            for tag in Self.positionsByEntity(updated) {
                let object = updated[tag]
                guard let key = object.objectID.primaryKey else { continue }
                try transaction.update(object, key: key, positions: object.changedPositions(), tag: tag)
            }
            try transaction.flush()
        }
    }

    /// Records the deleted objects' tombstones (and history) all at once, then deletes the
    /// rows many per statement, in table and key order.
    private func writeDeletes(in transaction: any StoreTransaction) throws {
        var deletions: [String: [Int64]] = [:]
        var objects: [any SavedObject] = []
        var keys: [Int64] = []
        objects.reserveCapacity(deleted.count)
        keys.reserveCapacity(deleted.count)
        for object in deleted {
            guard let key = object.objectID.primaryKey else { continue }
            objects.append(object)
            keys.append(key)
            deletions[object.schema.rootName, default: []].append(key)
        }
        try transaction.recordTombstones(of: objects, keys: keys)
        for (rootEntity, keys) in deletions.sorted(by: { $0.key < $1.key }) {
            try transaction.deleteRows(rootEntity: rootEntity, keys: keys.sorted())
        }
    }

    // MARK: - After the transaction

    /// After a failed transaction: the inserted objects have no key and no version again, and
    /// objects a merge changed are as they were, so the context can save again.
    func undoFailedWrite() {
        for object in insertedBeforeSave {
            object.savingKey = nil
            object.rowVersion = 0
        }
        for snapshot in beforeMerging { snapshot.restore() }
    }

    /// After the commit: the context's objects match the store (new IDs, versions, committed
    /// values), merged and gone objects are settled, objects the batch rows made stale are
    /// refreshed, and the save is announced.
    func finish() {
        let updatedIDs = Set(updated.map(\.objectID)).union(trumped)
        context.didSave(inserted: inserted, saved: saved, deleted: deleted, trumped: trumped)
        context.settle(duplicates)
        // Another context's delete stands: the object reads nil rather than a row that is
        // gone, and relationships that held it read the store again when next used.
        if !gone.isEmpty {
            for object in gone { context.discard(object) }
            context.refaultRelationships(holding: Set(gone.map(ObjectIdentifier.init)))
        }
        // A delete undone under `.rollback` may have left loaded to-manys without the object.
        if restoredDeletes {
            for case let object? in context.registry.values.map(\.object) where !object.isFault {
                context.resetRelationshipFaults(object)
            }
        }
        context.refreshObjects(staleAfter: writers)
        context.announce(
            ContextDidSave(
                insertedObjectIDs: Set(inserted.map(\.objectID)), updatedObjectIDs: updatedIDs,
                deletedObjectIDs: Set(deleted.map(\.objectID)), contextName: context.name,
                origin: ObjectIdentifier(context)))
    }
}
