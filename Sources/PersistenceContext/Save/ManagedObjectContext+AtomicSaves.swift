import Foundation
import PersistenceStore

/// Several saves as one change of the store: what a context does when a change is too large
/// to hold in memory at once (an undo of a command that added 200,000 books) yet must land
/// whole or not at all.
///
/// ```swift
/// try context.performAtomicSaves {
///     for chunk in chunks {
///         try apply(chunk, in: context)
///         try context.save()  // a savepoint of the one transaction
///         context.reset()     // its objects are in the store: let them go
///     }
/// }
/// ```
///
/// Core Data has no such call (its saves commit one by one); here each `save()` inside the
/// closure writes into one write transaction of the store, which commits when the closure
/// returns and is rolled back, with every save made in it, when the closure throws or the
/// process dies before the end. Until then other connections (other processes, other
/// threads' readers) see the store as it was; this context's own reads see its saves.
extension ManagedObjectContext {
    /// Runs `body`, every save of this context (and every other write of the coordinator on
    /// this thread) made in it joining one transaction of the store, committed when `body`
    /// returns: all of them land, or none.
    ///
    /// Each save inside is checked and written as a save is (a save that fails is rolled
    /// back alone, and throws; the context keeps its changes), and is recorded in the
    /// persistent history as its own transaction. Other contexts hear of the saves once the
    /// whole commits, in one `ContextDidSave`. Other threads' saves wait until it returns.
    ///
    /// When `body` throws, the store is left exactly as it was before the call, and the
    /// context is reset (`reset()`): its objects were saved into a transaction that no longer
    /// exists. A call inside another is part of the outer one.
    ///
    /// - Throws: what `body` throws; the store's failure when the transaction cannot begin or
    ///   commit; `PersistentStoreWriteGroupError` for a store that cannot group saves (one
    ///   in Core Data's layout), before `body` runs.
    public func performAtomicSaves<T>(_ body: () throws -> T) throws -> T {
        try checkQueue("perform atomic saves")
        if heldAnnouncements != nil { return try body() }
        heldAnnouncements = HeldAnnouncement(contextName: name, origin: ObjectIdentifier(self))
        let result: T
        do {
            result = try persistentStoreCoordinator.performWriteGroup(body)
        } catch {
            heldAnnouncements = nil
            if !(error is PersistentStoreWriteGroupError) { reset() }
            throw error
        }
        let saves = heldAnnouncements
        heldAnnouncements = nil
        // One announcement of every save: an object several saves changed is named once (a
        // large undo updates the same authors in each of its saves). Its IDs are made only
        // when a listener reads them (see `HeldAnnouncement`).
        if let saves, !saves.isEmpty { announce(ContextDidSave(held: saves)) }
        return result
    }
}

extension PersistentStoreCoordinator {
    /// Runs `body` holding the writer, in one transaction of the store that every write of
    /// this thread meanwhile joins (see `PersistentStore.performWriteGroup`): committed when
    /// `body` returns, rolled back when it throws. Other threads' writes wait; their reads
    /// see the store as it was until the commit.
    ///
    /// - Throws: as `ManagedObjectContext.performAtomicSaves(_:)`.
    public func performWriteGroup<T>(_ body: () throws -> T) throws -> T {
        try connections.write { try $0.performWriteGroup(body) }
    }
}

extension ContextDidSave {
    /// Makes this save this one and then `next`, as one: an object inserted and later deleted is neither,
    /// an object inserted and then updated is inserted, one deleted is deleted.
    mutating func append(_ next: ContextDidSave) {
        contextName = next.contextName ?? contextName
        for id in next.deletedObjectIDs {
            updatedObjectIDs.remove(id)
            if insertedObjectIDs.remove(id) == nil { deletedObjectIDs.insert(id) }
        }
        for id in next.insertedObjectIDs {
            // Inserted again after a delete (a row brought back): it changed.
            if deletedObjectIDs.remove(id) != nil {
                updatedObjectIDs.insert(id)
            } else {
                insertedObjectIDs.insert(id)
            }
        }
        for id in next.updatedObjectIDs where !insertedObjectIDs.contains(id) {
            updatedObjectIDs.insert(id)
        }
    }
}
