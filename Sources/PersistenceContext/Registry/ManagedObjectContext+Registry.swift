import PersistenceModel
import PersistenceStore
extension ManagedObjectContext {
    /// Registers `object` under `id`.
    ///
    /// The entry does not keep the object alive, and costs no weak reference: the object
    /// removes it in its `deinit` (see `unregister(_:identity:)`). A weak entry per object
    /// would cost a side-table allocation, and dead entries would have to be swept out, a
    /// large share of a big fetch.
    func register(_ object: ManagedObject, as id: ObjectID) {
        // The object finds its entry by its own ID when it goes: under another ID, the
        // entry would outlive it.
        assert(id == object.objectID, "\(object.objectID) registered under \(id)")
        if let previous = registry[id]?.object, previous !== object { stray(previous) }
        registry[id] = RegistryEntry(object)
        if !strays.isEmpty { strays[ObjectIdentifier(object)] = nil }
    }

    /// Takes a live object out of the context: its own registry or stray entry goes (not
    /// another object's under the same ID), and it belongs to no context.
    func detach(_ object: ManagedObject) {
        unregister(object.objectID, identity: ObjectIdentifier(object))
        object.managedObjectContext = nil
    }

    /// Takes an object out of the context with no values: its row is gone (another context
    /// or process deleted it), or it was merged into the object that stands for its row.
    /// Its unsaved changes are dropped with it, and it reads nil, never values that no row
    /// holds (Core Data's object that can no longer fulfill its fault).
    func discard(_ object: ManagedObject) {
        changed[ObjectIdentifier(object)] = nil
        object.pendingToMany.removeAll()
        object.isInserted = false
        object.isDeleted = false
        object.isFault = false
        object.committedSlots = nil
        object.replaceSlots(with: Slots(nullCount: object.slots.count), becomingFault: true)
        object.invalidateComputedTransients()
        object.rowVersion = 0
        detach(object)
    }

    /// Keeps track of an object that loses its registry entry to another but still belongs
    /// to the context, so that the context can detach it when it goes.
    func stray(_ object: ManagedObject) {
        strays[ObjectIdentifier(object)] = RegistryEntry(object)
    }

    /// Makes room in the registry for `count` more objects with IDs of `id`'s entity and
    /// store, so that registering them does not grow it step by step.
    func reserveRegistryCapacity(_ count: Int, forIDsLike id: ObjectID) {
        registry.reserveCapacity(count, forIDsLike: id)
    }

    /// The live object registered under `id`, or a new one from `make`, registered where the
    /// same probe found none: a fetch asks once per row. `isNew` tells which.
    ///
    /// `make` runs while no access to the registry is open (see `ObjectRegistry.insert`).
    func registeredObject(for id: ObjectID, orMake make: () -> ManagedObject) -> (object: ManagedObject, isNew: Bool) {
        let lookup = registry.lookUp(id)
        if let object = lookup.object { return (object, false) }
        let object = make()
        registry.insert(object, for: id, at: lookup)
        return (object, true)
    }

    /// Removes the entry of the object with this identity, registered under `id`, as the
    /// object goes; an entry under `id` for another object (one that took over the row) is
    /// left alone.
    ///
    /// Every path that takes an object out of the registry while it lives (delete, rollback
    /// of an insert, a save that re-keys it, reset, a dangling fault) removes its entry
    /// before detaching it from the context, so an entry never outlives its object.
    func unregister(_ id: ObjectID, identity: ObjectIdentifier) {
        registry.remove(id, ifHolding: identity)
        if !strays.isEmpty { strays[identity] = nil }
        if !faultBatches.isEmpty { faultBatches[identity] = nil }
        // A kept result goes with its object: a new object of the row reads the store anew.
        if toManyIDBatches.hasKept { toManyIDBatches.dropKept(of: id) }
    }
}

/// A registry entry: the object, neither retained nor weakly referenced. It is valid while
/// the entry exists, because the object removes its entry when it goes (see
/// `ManagedObjectContext.unregister(_:identity:)`).
struct RegistryEntry {
    private var reference: Unmanaged<ManagedObject>?

    /// An entry for `object`.
    init(_ object: ManagedObject) { reference = .passUnretained(object) }

    /// An empty entry: an empty bucket's.
    init() {}

    /// The registered object; nil for an empty entry.
    var object: ManagedObject? { reference?.takeUnretainedValue() }

    /// Whether the entry holds an object, told without retaining it.
    var isOccupied: Bool { reference != nil }

    /// Whether the entry is for the object with this identity, told without retaining the
    /// object (its `deinit` may be running).
    func holds(_ identity: ObjectIdentifier) -> Bool {
        guard let reference else { return false }
        return UInt(bitPattern: reference.toOpaque()) == UInt(bitPattern: identity)
    }
}
