import Observation

/// The state of a managed object that most objects never need, kept in a box of its own that
/// the object makes at first use (see `ManagedObject.extras`).
///
/// A fetched object that is read and let go uses none of it: to-many membership caches,
/// inverse edits to unloaded to-many relationships, the key a running save gives an insert,
/// the results of fetched properties, the Observation registrar, and committed values that
/// differ from the current ones (see `ManagedObject.committedSlots`). Stored in the object,
/// they would take room in each of the many objects a large fetch makes; here they take one
/// optional reference.
package final class LazyObjectState {
    /// See `ManagedObject.memberships`.
    var memberships: [Int: Set<ObjectIdentifier>] = [:]
    /// See `ManagedObject.pendingToMany`.
    var pendingToMany: [Int: PendingToMany] = [:]
    /// See `ManagedObject.savingKey`.
    var savingKey: Int64?
    /// See `ManagedObject.committedSlots`: the committed values while they are not the
    /// current ones.
    var committedSlots: Slots?
    /// See `ManagedObject.fetchedValues`.
    var fetchedValues: [String: [ManagedObject]] = [:]
    /// See `ManagedObject.observationRegistrar`. Unchecked for the reason given at
    /// `ManagedObject.slots`: only this module touches it, never across a call out.
    @exclusivity(unchecked) var observationRegistrar: ObservationRegistrar?

    /// Whether nothing is kept here.
    var isEmpty: Bool {
        memberships.isEmpty && pendingToMany.isEmpty && savingKey == nil && committedSlots == nil
            && fetchedValues.isEmpty && observationRegistrar == nil
    }
}

extension ManagedObject {
    /// The object's extras, made now if it has none yet.
    var madeExtras: LazyObjectState {
        if let extras { return extras }
        let made = LazyObjectState()
        extras = made
        return made
    }

    /// The members of loaded to-many slots, by property position, built by `addObject` so
    /// that adding many objects one by one is linear; valid until `slots` changes.
    package var memberships: [Int: Set<ObjectIdentifier>] {
        get { extras?.memberships ?? [:] }
        _modify {
            if let extras {
                yield &extras.memberships
            } else {
                var memberships: [Int: Set<ObjectIdentifier>] = [:]
                yield &memberships
                if !memberships.isEmpty { madeExtras.memberships = memberships }
            }
        }
    }

    /// Inverse edits made to to-many relationships that are still faults, by property
    /// position: applied when the fault loads, so that adding a book to an author with
    /// thousands of books does not load them all.
    package var pendingToMany: [Int: PendingToMany] {
        get { extras?.pendingToMany ?? [:] }
        _modify {
            if let extras {
                yield &extras.pendingToMany
            } else {
                var pending: [Int: PendingToMany] = [:]
                yield &pending
                if !pending.isEmpty { madeExtras.pendingToMany = pending }
            }
        }
    }

    /// The primary key a running save gives the inserted object (its own new row's, or
    /// under object-trump merging the row it takes over); nil outside a save. Kept on the
    /// object, not in a table beside the save: each lookup hashed the object, several times
    /// per row.
    package var savingKey: Int64? {
        get { extras?.savingKey }
        set {
            if newValue == nil, extras == nil { return }
            madeExtras.savingKey = newValue
        }
    }

    /// Whether the object has inverse edits waiting for an unloaded to-many, without
    /// touching the extras for a change.
    package var hasPendingToMany: Bool {
        guard let extras else { return false }
        return !extras.pendingToMany.isEmpty
    }

    /// Clears `savingKey` at the end of a save, and lets the extras go when nothing else is
    /// kept there: a save made them for every inserted object only to hold its key, and they
    /// would otherwise stay with each saved object for its life (memory a large insert keeps).
    package func clearSavingKey() {
        guard let extras else { return }
        extras.savingKey = nil
        if extras.isEmpty { self.extras = nil }
    }

    /// The results of the fetched properties read so far, by name, kept until the object is
    /// refreshed (see `fetchedObjects(forKey:)`).
    package var fetchedValues: [String: [ManagedObject]] {
        get { extras?.fetchedValues ?? [:] }
        _modify {
            if let extras {
                yield &extras.fetchedValues
            } else {
                var values: [String: [ManagedObject]] = [:]
                yield &values
                if !values.isEmpty { madeExtras.fetchedValues = values }
            }
        }
    }

    /// Where observations of the object's properties are registered; made at the object's
    /// first read (see `ManagedObject+Observation`).
    package var observationRegistrar: ObservationRegistrar? {
        get { extras?.observationRegistrar }
        set {
            if newValue == nil, extras == nil { return }
            madeExtras.observationRegistrar = newValue
        }
    }
}
