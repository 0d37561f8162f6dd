import PersistenceModel
import PersistenceStore

/// Undo and redo of a context's changes (Core Data's `undoManager`, `undo()`, `redo()`).
///
/// A context with an undo manager records, before an object first changes in an undo group,
/// the object's state: its values and relationships, its pending edits of unloaded to-many
/// relationships, whether it is inserted or deleted, and whether it belongs to the context.
/// Undoing the group puts every object it touched back in that state, which undoes inserts,
/// attribute changes, deletes (with their delete rules) and relationship changes on both
/// sides at once, ordered moves included; each restore records the state it replaces, so
/// redo puts the changes back.
///
/// ```swift
/// context.undoManager = UndoManager()
/// let book = try context.insert(Book.self)
/// book.title = "Solaris"
/// context.processPendingChanges()   // ends the undo group (a command line has no run loop)
/// book.title = "Solaris (1961)"
/// context.undo()                    // the title is "Solaris" again
/// context.redo()                    // and "Solaris (1961)"
/// ```
///
/// As in Core Data:
/// - An undone change is an unsaved change, also across a save: undoing a saved insert
///   deletes the object at the next save; undoing a saved delete inserts the object again
///   (with a new ID); undoing a saved update changes the values back.
/// - `rollback()` and `reset()` empty the undo manager.
/// - A child context's undo manager records the child's changes: undoing them leaves the
///   parent alone. A child's save is a change of the parent, which the parent's undo
///   manager (if it has one) records like any other.
/// - Values computed by the context (derived attributes at save, computed transients) are
///   not recorded: they are computed again from what undo restores.
///
/// With no undo manager (the default) nothing is recorded: a change costs one flag read.
extension ManagedObjectContext {
    /// Undoes the last group of changes (Core Data's `undo()`); nothing without an undo
    /// manager.
    public func undo() {
        onQueue { undoManager?.undo() }
    }

    /// Redoes the last undone group of changes (Core Data's `redo()`).
    public func redo() {
        onQueue { undoManager?.redo() }
    }

    /// Ends the current event (Core Data's `processPendingChanges()`): with an undo manager
    /// that groups by event, everything changed since the last event is one undo step.
    ///
    /// Foundation ends an event when the run loop turns; a command-line program turns none,
    /// so call this where one user action ends (`save()` and `undo()` end the event too).
    public func processPendingChanges() {
        onQueue { undoManager?.endEventGroup() }
    }

    // MARK: - Recording

    /// Records `object`'s current state in the undo manager, once per undo group, so that
    /// undoing the group restores it. Called before each change to the object.
    package func registerUndo(restoring object: ManagedObject) {
        guard let undoManager else { return }
        let snapshot = ObjectSnapshot(object, inContext: object.managedObjectContext === self)
        undoManager.register(once: ObjectIdentifier(object)) { [self] in restore(object, to: snapshot) }
    }

    /// Records that `object` was just inserted: undoing the group takes it out again.
    func registerUndoOfInsert(_ object: ManagedObject) {
        guard let undoManager else { return }
        let snapshot = ObjectSnapshot(object, inContext: false)
        undoManager.register(once: ObjectIdentifier(object)) { [self] in restore(object, to: snapshot) }
    }

    /// Gives every object of the context the flag that makes its changes register undo.
    func undoManagerDidChange() {
        let registers = undoManager != nil
        onQueue { forEachObject { $0.registersUndo = registers } }
    }

    /// Calls `body` with every live object that belongs to the context.
    func forEachObject(_ body: (ManagedObject) -> Void) {
        for case let object? in registry.values.map(\.object) { body(object) }
        for case let object? in strays.values.map(\.object) { body(object) }
        for object in changed.values { body(object) }
    }

    // MARK: - Restoring

    /// Puts `object` back in `snapshot`'s state, recording the state it replaces first (for
    /// redo, or for undo while redoing).
    private func restore(_ object: ManagedObject, to snapshot: ObjectSnapshot) {
        let isInContext = object.managedObjectContext === self
        // An object of another context now (it cannot be: objects never move) or whose
        // context is gone is left alone.
        guard isInContext || object.managedObjectContext == nil else { return }
        undoManager?.register(once: ObjectIdentifier(object)) { [self, current = ObjectSnapshot(object, inContext: isInContext)] in
            restore(object, to: current)
        }
        switch (isInContext, snapshot.isInContext) {
        case (false, false):
            return
        case (true, false):
            if object.objectID.primaryKey == nil {
                // Unsaved: the insert is undone, and the object leaves the context.
                object.isInserted = false
                object.isDeleted = false
                changed[ObjectIdentifier(object)] = nil
                detach(object)
            } else {
                // Saved since it was inserted: undoing the insert deletes its row at the next save.
                object.isDeleted = true
                changed[ObjectIdentifier(object)] = object
            }
            return
        case (false, true):
            attachAgain(object)
        case (true, true):
            object.isDeleted = snapshot.isDeleted
        }
        object.isFault = false
        object.replaceSlots(with: snapshot.slots)
        object.pendingToMany = snapshot.pendingToMany
        object.invalidateComputedTransients()
        changed[ObjectIdentifier(object)] = object
    }

    /// Brings back an object that left the context: an insert undone (it keeps its
    /// temporary ID), or a deletion that was saved (its row is gone, so it is inserted anew
    /// under a new temporary ID).
    private func attachAgain(_ object: ManagedObject) {
        object.managedObjectContext = self
        if object.objectID.primaryKey != nil {
            object.objectID = makeTemporaryID(for: object.schema)
            object.committedSlots = nil
            object.rowVersion = 0
        }
        object.isInserted = true
        object.isDeleted = false
        register(object, as: object.objectID)
    }
}

/// An object's state as undo restores it.
struct ObjectSnapshot {
    let slots: Slots
    let pendingToMany: [Int: PendingToMany]
    let isDeleted: Bool
    /// Whether the object belonged to the context (false before it was inserted).
    let isInContext: Bool

    init(_ object: ManagedObject, inContext: Bool) {
        slots = object.slots
        pendingToMany = object.pendingToMany
        isDeleted = object.isDeleted
        isInContext = inContext
    }
}

extension ManagedObject {
    /// Records the object's state for undo before a change, when its context has an undo
    /// manager (see `ManagedObjectContext.registerUndo(restoring:)`).
    @inline(__always)
    package func registerUndoBeforeChange() {
        if registersUndo { managedObjectContext?.registerUndo(restoring: self) }
    }
}
