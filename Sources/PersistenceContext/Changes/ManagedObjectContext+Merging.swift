import Foundation
import PersistenceModel
import PersistenceStore

/// Keeping a context current with what other contexts save: Core Data's
/// `mergeChanges(fromContextDidSave:)` and `automaticallyMergesChangesFromParent`.
extension ManagedObjectContext {
    /// Brings the context's registered objects up to date with another context's save.
    ///
    /// An object the save updated is read again from the store: one without unsaved changes
    /// becomes a fault (its next use reads the saved values); one with unsaved changes keeps
    /// them on top of the saved values, and its next save does not take the other save for a
    /// conflict. An object the save deleted leaves the context: it reads as empty (never as
    /// the values it had) and loaded relationships that held it are read again. Inserted
    /// objects need nothing: the next fetch finds them.
    public func mergeChanges(fromContextDidSave save: ContextDidSave) {
        onQueue {
            // To-many IDs read before the other save may have changed.
            toManyIDBatches.dropKept()
            for id in save.updatedObjectIDs {
                guard let object = registry[id]?.object, !object.isInserted else { continue }
                refresh(object, mergeChanges: object.hasChanges)
            }
            var gone: Set<ObjectIdentifier> = []
            for id in save.deletedObjectIDs {
                guard let object = registry[id]?.object else { continue }
                discard(object)
                gone.insert(ObjectIdentifier(object))
            }
            if !gone.isEmpty { refaultRelationships(holding: gone) }
            // A loaded to-many may lack an inserted object that links to it.
            if !save.insertedObjectIDs.isEmpty { refaultUnchangedToManys() }
        }
    }

    /// Loaded to-many relationships of objects without unsaved changes are read again when
    /// next used.
    private func refaultUnchangedToManys() {
        for case let object? in registry.values.map(\.object) where !object.isFault && !object.hasChanges {
            for (position, property) in object.schema.properties.enumerated() {
                guard case .relationship(let r) = property, r.isToMany, case .toMany = object.slots[position] else { continue }
                object.setLoadedSlot(.toManyFault, at: position)
            }
        }
    }

    /// Starts or stops merging the coordinator's other contexts' saves as they happen.
    func updateAutomaticMerging() {
        automaticMerging?.cancel()
        automaticMerging = nil
        guard automaticallyMergesChangesFromParent else { return }
        persistentStoreCoordinator.listenForOtherProcessesSaves()
        let identity = ObjectIdentifier(self)
        automaticMerging = persistentStoreCoordinator.saves.subscribe { [weak self] save in
            guard save.origin != identity, let self else { return }
            self.perform { [weak self] in self?.mergeChanges(fromContextDidSave: save) }
        }
    }

    /// Announces a save that changed the store (see `ContextDidSave`).
    func announce(_ save: ContextDidSave) {
        guard !save.isEmpty else { return }
        if var held = heldAnnouncements {
            // Taken out first, so that its sets are changed in place rather than copied.
            heldAnnouncements = nil
            held.append(save)
            heldAnnouncements = held
            return
        }
        persistentStoreCoordinator.saves.announce(save)
        NotificationCenter.default.post(
            name: Self.didSaveObjectIDsNotification, object: self, userInfo: [ContextDidSave.userInfoKey: save])
    }
}

extension PersistentStoreCoordinator {
    /// The saves of every context of the coordinator, from now on, as they commit: one
    /// stream per call, which ends when the task iterating it is cancelled.
    ///
    /// ```swift
    /// for await save in coordinator.contextDidSaves() {
    ///     await viewContext.perform { viewContext.mergeChanges(fromContextDidSave: save) }
    /// }
    /// ```
    public func contextDidSaves() -> AsyncStream<ContextDidSave> {
        AsyncStream { continuation in
            let subscription = saves.subscribe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
