import PersistenceModel
import PersistenceStore

/// Reading what other contexts and processes saved: registered objects keep the values they
/// read until they are refreshed (or fetched again, for unchanged ones), as in Core Data.
extension ManagedObjectContext {
    /// Brings an object up to the store's current state (Core Data's
    /// `refresh(_:mergeChanges:)`).
    ///
    /// Without `mergeChanges`, or for an object without unsaved changes, the object turns
    /// back into a fault: its unsaved changes are dropped, and its next access reads the
    /// row as it then is. With `mergeChanges`, the row is read now and the object's unsaved
    /// changes are kept on top of its values. Either way the object then holds the row's
    /// version, so a later save of it conflicts only with what others save after this.
    /// Its fetched properties' results are dropped, to be fetched again when next read.
    ///
    /// An object whose row is gone (another context or process deleted it) leaves the
    /// context when it is read (now, with `mergeChanges`), with its changes: it reads nil,
    /// never the values of a row that no longer exists. An inserted object, or one of
    /// another context, is left alone, and so is an object whose row cannot be read now
    /// (the store locked past the busy timeout): refresh it again later.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard isOnQueue else { return performAndWait { refresh(object, mergeChanges: mergeChanges) } }
        // Fetched properties are evaluated again when next read, as in Core Data.
        if object.managedObjectContext === self {
            object.fetchedValues.removeAll()
            // So are the to-many IDs read with its siblings.
            toManyIDBatches.dropKept(of: object.objectID)
        }
        guard object.managedObjectContext === self, !object.isInserted, object.objectID.primaryKey != nil else {
            return
        }
        if mergeChanges, object.hasChanges {
            let row: StoreRow?
            do { row = try persistentStoreCoordinator.read { try $0.row(for: object.objectID) } } catch { return }
            guard let row else {
                discard(object)
                return
            }
            let pending = object.changedPositions().map { ($0, object.slots[$0]) }
            // `fill` tells observers of every value the row changes.
            fill(object, from: row)
            for (position, slot) in pending { object.slots[position] = slot }
            object.invalidateComputedTransients()
        } else {
            changed[ObjectIdentifier(object)] = nil
            object.isDeleted = false
            object.isFault = true
            object.committedSlots = nil
            // A fault holds no values (its destinations are released) and has read no
            // version: loading it reads the row's. Observers hear of every property: the
            // values are unknown until the fault loads.
            object.replaceSlots(with: Slots(nullCount: object.slots.count), becomingFault: true)
            object.rowVersion = 0
            object.pendingToMany.removeAll()
        }
    }

    /// Refreshes every registered object (Core Data's `refreshAllObjects()`): objects
    /// without unsaved changes turn back into faults, so that their next access reads what
    /// other contexts and processes saved since; objects with unsaved changes are refreshed
    /// with `mergeChanges`, their changes kept on top of the store's values. Inserted
    /// objects are left as they are. Objects whose rows are gone leave the context (see
    /// `refresh(_:mergeChanges:)`).
    public func refreshAllObjects() {
        guard isOnQueue else { return performAndWait { refreshAllObjects() } }
        var objects = registry.values.compactMap(\.object)
        let registered = Set(objects.map(ObjectIdentifier.init))
        objects += changed.values.filter { !registered.contains(ObjectIdentifier($0)) }
        for object in objects where !object.isInserted {
            refresh(object, mergeChanges: object.hasChanges)
        }
    }
}
