import Foundation
import PersistenceModel
import PersistenceStore

/// Child contexts: Core Data's nested contexts, the scratch pad for an edit that may be
/// thrown away.
///
/// A child reads what its parent holds: rows from the store with the parent's unsaved
/// changes on top, the objects the parent inserted and has not saved, and not those it
/// deleted. Its `save()` pushes its changes into the parent without touching the store; the
/// parent's own save writes them. Its `rollback()` (or simply dropping it) leaves the parent
/// as it was.
///
/// What a child does not do: batch inserts (they write rows, which a parent does not keep),
/// and its objects keep the temporary IDs of objects the parent inserted after the parent
/// saves them (as in Core Data: fetch them again, or use a new child).
extension ManagedObjectContext {
    /// A new context whose saves go into this one (Core Data's `parent`): on the main queue,
    /// or on a queue of its own.
    public func newChildContext(concurrencyType: ConcurrencyType = .mainQueue, name: String? = nil) -> ManagedObjectContext {
        let child = ManagedObjectContext(
            coordinator: persistentStoreCoordinator, classes: classes, concurrencyType: concurrencyType, name: name,
            parent: self)
        child.mergePolicy = mergePolicy
        return child
    }

    // MARK: - Reading through the parent

    /// Gives a child's object just filled from its row the parent's state of it.
    func adoptParentState(of object: ManagedObject) {
        guard let parent, let state = parent.performAndWait({ parent.heldState(of: object.objectID) }) else { return }
        if state.isDeleted {
            // Deleted in the parent: deleted here too, and so left out of fetches.
            object.isDeleted = true
            return
        }
        object.slots = slots(from: state, for: object.schema)
    }

    /// Fulfils a child's fault from the parent's object, when the parent holds it with its
    /// values (or changes): as in Core Data, a child sees what its parent holds, however
    /// stale, without reading the store — so a child can edit an object whose row another
    /// context has deleted or changed since the parent read it, and the parent's save then
    /// meets that as the conflict it is. Returns false when the parent holds no such object.
    func fillFromParent(_ object: ManagedObject) -> Bool {
        guard let parent, let state = parent.performAndWait({ parent.heldState(of: object.objectID) }) else { return false }
        object.isFault = false
        if state.isDeleted {
            object.isDeleted = true
            return true
        }
        object.replaceSlots(with: slots(from: state, for: object.schema))
        object.committedSlots = nil
        object.invalidateComputedTransients()
        object.awakeFromFetch()
        object.committedSlots = object.slots
        return true
    }

    /// The child's object for an object the parent inserted, or nil when the parent has no
    /// such object.
    func objectFromParent(with id: ObjectID) throws -> ManagedObject? {
        guard let parent, let schema = model.schema(for: id.entityName),
            let state = parent.performAndWait({ parent.heldState(of: id) })
        else { return nil }
        let object = makeObject(schema: schema, id: id, isFault: false, slots: slots(from: state, for: schema))
        register(object, as: id)
        object.invalidateComputedTransients()
        object.awakeFromFetch()
        object.committedSlots = object.slots
        return object
    }

    /// The child's objects for those its parent inserted, of the entities `included` accepts.
    func objectsInsertedInParent(where included: (String) -> Bool) throws -> [ManagedObject] {
        guard let parent else { return [] }
        let ids = parent.performAndWait { parent.changed.values.filter { $0.isInserted && included($0.entityName) }.map(\.objectID) }
        return try ids.map { try object(with: $0) }.filter { !$0.isDeleted }
    }

    /// An object's state in this context when it holds its values (not a fault) or has
    /// unsaved changes (or was inserted), with destinations as IDs so that a child can take it.
    private func heldState(of id: ObjectID) -> UnsavedState? {
        guard let object = registry[id]?.object, !object.isFault || object.hasChanges else { return nil }
        if object.isDeleted { return UnsavedState(slots: [], isDeleted: true) }
        return UnsavedState(
            slots: object.slots.map { slot in
                switch slot {
                case .value(let value): return .value(value)
                case .toOne(let destination): return .toOne(destination?.objectID)
                case .toOneFault(let id): return .toOne(id)
                case .toMany(let destinations): return .toMany(destinations.map(\.objectID))
                case .toManyFault: return .toManyFault
                }
            }, isDeleted: false)
    }

    /// A parent's state as slots of this context: destinations become this context's
    /// objects (faults until used).
    private func slots(from state: UnsavedState, for schema: EntitySchema) -> Slots {
        Slots(
            state.slots.map { slot in
                switch slot {
                case .value(let value): return .value(value)
                case .toOne(let id): return .toOneFault(id)
                case .toMany(let ids): return .toMany(ids.compactMap { try? object(with: $0) })
                case .toManyFault: return .toManyFault
                }
            }, storingNullsAt: schema.transientAttributePositions)
    }

    // MARK: - Saving into the parent

    /// Pushes every change into the parent, as the parent's own edits: inserted objects are
    /// inserted there, changed values set, relationships set through the parent's objects
    /// (so their inverses follow), deleted objects deleted. Objects are validated first, as
    /// a save to the store would; nothing reaches the parent when one fails.
    func saveIntoParent() throws {
        guard let parent else { return }
        let pending = changed.values.filter { $0.hasChanges }
        guard !pending.isEmpty else { return }
        let inserted = pending.filter { $0.isInserted }.sorted { $0.objectID.insertionNumber < $1.objectID.insertionNumber }
        let updated = pending.filter { !$0.isInserted && !$0.isDeleted }
        let deleted = pending.filter { $0.isDeleted && !$0.isInserted }
        var failures: [ValidationFailure] = []
        for object in inserted + updated { failures += ObjectValidator.failures(of: object) }
        for object in deleted { failures += ObjectValidator.denyFailures(of: object) }
        if !failures.isEmpty { throw ValidationError(failures: failures) }

        let newIDs = try parent.performAndWait { () throws -> [ObjectIdentifier: ObjectID] in
            // Inserted objects first, so that every destination has its parent object.
            var counterparts: [ObjectIdentifier: ManagedObject] = [:]
            for object in inserted {
                counterparts[ObjectIdentifier(object)] = try parent.insertObject(forEntityName: object.entityName)
            }
            func counterpart(_ object: ManagedObject) throws -> ManagedObject {
                try counterparts[ObjectIdentifier(object)] ?? parent.object(with: object.objectID)
            }
            for object in inserted + updated {
                let target = try counterpart(object)
                for position in object.slots.indices {
                    let unchanged = object.committedSlots.map { object.slots[position].isSame(as: $0[position]) } ?? false
                    if unchanged && object.pendingToMany[position] == nil { continue }
                    try push(object, position, into: target, of: parent, counterpart)
                }
            }
            for object in deleted { parent.delete(try counterpart(object)) }
            return counterparts.mapValues(\.objectID)
        }
        // The child's state is now the parent's: its inserted objects take the parent's IDs.
        for object in inserted {
            guard let id = newIDs[ObjectIdentifier(object)] else { continue }
            registry[object.objectID] = nil
            object.objectID = id
            object.isInserted = false
            register(object, as: id)
        }
        for object in inserted + updated {
            object.pendingToMany.removeAll()
            object.committedSlots = object.slots
        }
        for object in deleted { detach(object) }
        changed.removeAll()
    }

    /// Sets one property of `parent`'s object `target` from the child's `object`.
    private func push(
        _ object: ManagedObject, _ position: Int, into target: ManagedObject, of parent: ManagedObjectContext,
        _ counterpart: (ManagedObject) throws -> ManagedObject
    ) throws {
        switch object.schema.properties[position] {
        case .attribute(let attribute):
            guard !attribute.isDerived else { return }
            target.setAttributeValue(object.attributeValue(at: position), at: position)
        case .relationship(let relationship):
            switch object.slots[position] {
            case .toOne(let destination):
                try target.setObject(try destination.map(counterpart), at: position)
            case .toOneFault(let id):
                try target.setObject(try id.map { try parent.object(with: $0) }, at: position)
            case .toMany(let destinations):
                try target.setObjects(try destinations.map(counterpart), at: position)
            case .toManyFault:
                guard let edits = object.pendingToMany[position] else { return }
                for added in edits.added { target.addObject(try counterpart(added), forKey: relationship.name) }
                for removed in edits.removed.values { target.removeObject(try counterpart(removed), forKey: relationship.name) }
            case .value:
                return
            }
        }
    }
}

/// An object's unsaved state in a parent context, as a child takes it.
private struct UnsavedState {
    enum PortableSlot {
        case value(AttributeValue)
        case toOne(ObjectID?)
        case toMany([ObjectID])
        case toManyFault
    }

    var slots: [PortableSlot]
    var isDeleted: Bool
}
