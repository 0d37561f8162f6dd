import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// Writes a batch insert's rows in one transaction, without making objects (Core Data's
    /// `execute(_:)` of an `NSBatchInsertRequest`). The context's own unsaved changes are
    /// neither saved nor touched.
    ///
    /// On any failure nothing is written. Registered objects that the rows made stale are
    /// reloaded when next used: those of rows updated under object-trump merging, and
    /// destinations whose loaded to-many gained rows, through a row's to-one or its to-many
    /// links (unless that to-many has unsaved changes).
    ///
    /// - Returns: the number of the request's rows (each inserted, merged into a stored row
    ///   under `.mergeByPropertyObjectTrump` and `.overwrite`, or skipped for a stored one
    ///   under `.mergeByPropertyStoreTrump` and `.rollback`).
    /// - Throws: `ObjectAccessError` for an unknown or abstract entity, a value a row cannot
    ///   hold or a destination it cannot link; `ValidationError` for the first invalid row;
    ///   `ConstraintConflictError` naming the row and values; `BatchInsertError`;
    ///   `ValueTransformerError`; the store's `PersistentStoreFailure` when it cannot be
    ///   written; or the error the request's `fill` threw.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> Int {
        try checkQueue("execute a batch insert of \(request.entityName)")
        let writer = try BatchInsertWriter(request, context: self)
        try persistentStoreCoordinator.performWrite(rowCount: request.count) { _, transaction in
            transaction.setHistoryAuthor(transactionAuthor, contextName: name)
            try writer.write(in: transaction)
        }
        toManyIDBatches.dropKept()
        refreshObjects(staleAfter: [writer])
        return request.count
    }

    /// Reloads, when next used, the registered objects that batch rows made stale.
    func refreshObjects(staleAfter writers: [BatchInsertWriter]) {
        let updatedRoots = Set(writers.filter(\.updatesConflicts).map(\.template.schema.rootName))
        let links = writers.flatMap(\.inverseLinks)
        guard !updatedRoots.isEmpty || !links.isEmpty else { return }
        for case let object? in registry.values.map(\.object) where !object.isFault && !object.isInserted {
            if updatedRoots.contains(object.schema.rootName) {
                refresh(object, mergeChanges: true)
                continue
            }
            for link in links {
                guard object.schema.isKind(of: link.destinationEntity),
                    let position = object.schema.propertyIndex[link.inverse], case .toMany = object.slots[position]
                else { continue }
                // Unchanged there: loaded again from the store when next read.
                if let committed = object.committedSlots, object.slots[position].isSame(as: committed[position]) {
                    object.setLoadedSlot(.toManyFault, at: position)
                }
            }
        }
    }
}
