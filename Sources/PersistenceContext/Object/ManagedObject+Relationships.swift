import PersistenceModel
import PersistenceStore
extension ManagedObject {
    // MARK: - To-one

    /// A to-one relationship's destination, loading it if needed.
    public func object(forKey key: String) -> ManagedObject? {
        guard let position = schema.propertyIndex[key] else { return nil }
        return object(at: position)
    }

    /// Sets a to-one relationship and keeps the inverse in step. Programmer errors (unknown
    /// key, a to-many key, a destination of the wrong entity) stop the program, as in Core
    /// Data; use `setValue(_:forKey:)` to get a thrown error instead.
    public func setObject(_ object: ManagedObject?, forKey key: String) {
        do { try setValue(object, forKey: key) } catch { preconditionFailure("\(error)") }
    }

    // MARK: - To-many

    /// A to-many relationship's destinations, in order (insertion order for an unordered
    /// relationship), loading them if needed.
    public func objects(forKey key: String) -> [ManagedObject] {
        guard let position = schema.propertyIndex[key] else { return [] }
        return objects(at: position)
    }

    /// Adds an object to a to-many relationship (at the end), keeping the inverse in step.
    public func addObject(_ object: ManagedObject, forKey key: String) {
        guard let position = schema.propertyIndex[key] else { preconditionFailure("\(schema.name) has no relationship '\(key)'") }
        let relationship = relationship(at: position)
        guard !isFault, case .toMany(var current) = slots[position] else {
            var current = objects(at: position)
            guard !current.contains(where: { $0 === object }) else { return }
            current.append(object)
            do { try setObjects(current, at: position) } catch { preconditionFailure("\(error)") }
            return
        }
        // Loaded: test membership in the cached set, append in place (no copy), then the
        // inverse.
        var members = memberships[position] ?? Set(current.map(ObjectIdentifier.init))
        guard members.insert(ObjectIdentifier(object)).inserted else {
            memberships[position] = members
            return
        }
        do { try checkDestination(object, relationship) } catch { preconditionFailure("\(error)") }
        registerUndoBeforeChange()
        withObservedMutation(at: position) {
            slots[position] = .toManyFault
            current.append(object)
            slots[position] = .toMany(current)
        }
        memberships[position] = members
        managedObjectContext?.objectDidChange(self)
        if let inverse = relationship.inverseName { object.inverseAdd(self, key: inverse, isNew: true) }
        didChangeValue(forKey: relationship.name)
    }

    /// Removes an object from a to-many relationship, keeping the inverse in step.
    public func removeObject(_ object: ManagedObject, forKey key: String) {
        guard let position = schema.propertyIndex[key] else { preconditionFailure("\(schema.name) has no relationship '\(key)'") }
        let remaining = objects(at: position).filter { $0 !== object }
        do { try setObjects(remaining, at: position) } catch { preconditionFailure("\(error)") }
    }

    /// The IDs of a relationship's destinations, without loading them (as Core Data's
    /// `objectIDs(forRelationshipNamed:)`).
    public func objectIDs(forRelationshipNamed key: String) -> [ObjectID] {
        guard let position = schema.propertyIndex[key] else { return [] }
        fireFaultIfNeeded()
        switch slots[position] {
        case .toOneFault(let id): return id.map { [$0] } ?? []
        case .toOne(let object): return object.map { [$0.objectID] } ?? []
        case .toManyFault where pendingToMany[position] == nil:
            // Read from the store without making objects.
            if let context = managedObjectContext,
                let ids = context.destinationIDs(self, at: position)
            {
                return ids
            }
            return objects(at: position).map(\.objectID)
        default: return objects(at: position).map(\.objectID)
        }
    }

    // MARK: - Internals

    package func relationship(at position: Int) -> RelationshipDescription {
        guard case .relationship(let r) = schema.properties[position] else {
            preconditionFailure("\(schema.name).\(schema.properties[position].name) is not a relationship")
        }
        return r
    }

    package func object(at position: Int) -> ManagedObject? {
        fireFaultIfNeeded()
        observationAccess(at: position)
        switch slots[position] {
        case .toOne(let object):
            // A destination deleted by a save (a No Action reference) reads as nil.
            if let object, object.isDeleted, object.managedObjectContext == nil { return nil }
            return object
        case .toOneFault(let id):
            guard let id, let context = managedObjectContext else { return nil }
            var object = try? context.object(with: id)
            // A reference to a row that no longer exists (No Action) reads as nil.
            object?.fireFaultIfNeeded()
            if object?.managedObjectContext == nil { object = nil }
            if committedIsCurrent {
                setLoadedSlot(.toOne(object), at: position)
                return object
            }
            slots[position] = .toOne(object)
            if var committed = committedSlots, case .toOneFault = committed[position] {
                committed[position] = .toOne(object)
                committedSlots = committed
            }
            return object
        default: return nil
        }
    }

    package func objects(at position: Int) -> [ManagedObject] {
        fireFaultIfNeeded()
        observationAccess(at: position)
        switch slots[position] {
        case .toMany(let objects): return objects
        case .toManyFault:
            guard let context = managedObjectContext else { return [] }
            return installToMany(context.loadToMany(self, relationship: relationship(at: position)), at: position)
        default: return []
        }
    }

    /// Makes `stored`, the destinations the store holds, the loaded value of the to-many at
    /// `position` (a fault until now), with the edits made while it was a fault applied;
    /// returns the loaded destinations. Prefetching loads many objects' to-manys this way.
    package func installToMany(_ stored: [ManagedObject], at position: Int) -> [ManagedObject] {
        var loaded = stored
        if let pending = pendingToMany.removeValue(forKey: position) {
            loaded.removeAll { pending.removed[ObjectIdentifier($0)] != nil }
            for object in pending.added where !loaded.contains(where: { $0 === object }) { loaded.append(object) }
        }
        // The committed value is what the store holds, so that a save writes the
        // pending edits (join tables are written from this difference).
        if loaded.count == stored.count, zip(loaded, stored).allSatisfy({ $0 === $1 }) {
            setLoadedSlot(.toMany(loaded), at: position)
            return loaded
        }
        slots[position] = .toMany(loaded)
        if committedSlots != nil { committedSlots?[position] = .toMany(stored) }
        return loaded
    }

    package func setObject(_ object: ManagedObject?, at position: Int) throws {
        // The description is copied out of the schema only to check a destination; the
        // plan has the rest.
        if object != nil { try checkDestination(object, relationship(at: position)) }
        let plan = schema.plans[position]
        let old = self.object(at: position)
        guard old !== object else { return }
        registerUndoBeforeChange()
        withObservedMutation(at: position) { slots[position] = .toOne(object) }
        if !isInserted { managedObjectContext?.objectDidChange(self) }
        if let inverse = plan.inverseName {
            old?.inverseRemove(self, key: inverse)
            object?.inverseAdd(self, key: inverse, isNew: true)
        }
        didChangeValue(forKey: plan.name)
    }

    package func setObjects(_ objects: [ManagedObject], at position: Int) throws {
        let relationship = relationship(at: position)
        let old = self.objects(at: position)
        // Only new destinations are checked: one already there may since have been deleted.
        let oldSet = Set(old.map(ObjectIdentifier.init))
        let newSet = Set(objects.map(ObjectIdentifier.init))
        for object in objects where !oldSet.contains(ObjectIdentifier(object)) { try checkDestination(object, relationship) }
        registerUndoBeforeChange()
        withObservedMutation(at: position) { slots[position] = .toMany(objects) }
        managedObjectContext?.objectDidChange(self)
        if let inverse = relationship.inverseName {
            for removed in old where !newSet.contains(ObjectIdentifier(removed)) { removed.inverseRemove(self, key: inverse) }
            for added in objects where !oldSet.contains(ObjectIdentifier(added)) { added.inverseAdd(self, key: inverse, isNew: true) }
        }
        didChangeValue(forKey: relationship.name)
    }

    private func checkDestination(_ object: ManagedObject?, _ relationship: RelationshipDescription) throws {
        guard let object else { return }
        guard object.schema.isKind(of: relationship.destinationEntityName) else {
            throw ObjectAccessError(
                entity: schema.name, key: relationship.name,
                reason: "expected a \(relationship.destinationEntityName), got a \(object.schema.name)")
        }
        guard object.managedObjectContext === managedObjectContext else {
            let theirs = object.managedObjectContext.map { "to \($0.contextDescription)" } ?? "to no context"
            let ours = managedObjectContext.map { "this object's, \($0.contextDescription)" } ?? "this object's"
            throw ObjectAccessError(
                entity: schema.name, key: relationship.name,
                reason: "\(object.objectID) belongs \(theirs), not to \(ours): get it there with object(with:)")
        }
    }

    /// Adds `source` to this object's side `key` of a relationship whose other side changed.
    ///
    /// `isNew` says that `source` has just gained this object, so (inverses being in step)
    /// this object's to-many cannot hold it yet: the linear membership test is skipped,
    /// which keeps adding n objects one by one linear. A self-link is still tested.
    package func inverseAdd(_ source: ManagedObject, key: String, isNew: Bool = false) {
        guard let position = schema.propertyIndex[key] else { return }
        // The plan, not `relationship(at:)`: copying the RelationshipDescription out of the
        // schema per added object costs more than the append.
        let plan = schema.plans[position]
        if plan.kind == .toMany {
            fireFaultIfNeeded()
            if case .toManyFault = slots[position] {
                registerUndoBeforeChange()
                withObservedMutation(at: position) {
                    pendingToMany[position, default: PendingToMany()].added.append(source)
                    pendingToMany[position]?.removed[ObjectIdentifier(source)] = nil
                }
                managedObjectContext?.objectDidChange(self)
                return
            }
            guard case .toMany(var current) = slots[position] else { return }
            if !isNew || source === self {
                guard !current.contains(where: { $0 === source }) else { return }
            }
            registerUndoBeforeChange()
            withObservedMutation(at: position) {
                slots[position] = .toManyFault  // so that appending does not copy the array
                current.append(source)
                slots[position] = .toMany(current)
            }
        } else {
            let previous = object(at: position)
            guard previous !== source else { return }
            registerUndoBeforeChange()
            withObservedMutation(at: position) { slots[position] = .toOne(source) }
            if let previous, let inverse = plan.inverseName { previous.inverseRemove(self, key: inverse) }
        }
        // An inserted object is already in the context's changed set.
        if !isInserted { managedObjectContext?.objectDidChange(self) }
    }

    /// Removes `source` from this object's side `key` of a relationship.
    package func inverseRemove(_ source: ManagedObject, key: String) {
        guard let position = schema.propertyIndex[key] else { return }
        // A fault's slots are placeholders: fire it (one row) so that an unloaded to-many
        // records the removal as pending instead of loading every destination.
        fireFaultIfNeeded()
        if relationship(at: position).isToMany {
            if case .toManyFault = slots[position] {
                registerUndoBeforeChange()
                withObservedMutation(at: position) {
                    pendingToMany[position, default: PendingToMany()].removed[ObjectIdentifier(source)] = source
                    pendingToMany[position]?.added.removeAll { $0 === source }
                }
                managedObjectContext?.objectDidChange(self)
                return
            }
            let current = objects(at: position)
            guard current.contains(where: { $0 === source }) else { return }
            registerUndoBeforeChange()
            withObservedMutation(at: position) { slots[position] = .toMany(current.filter { $0 !== source }) }
        } else {
            guard object(at: position) === source else { return }
            registerUndoBeforeChange()
            withObservedMutation(at: position) { slots[position] = .toOne(nil) }
        }
        managedObjectContext?.objectDidChange(self)
    }
}

extension ManagedObject {
    // MARK: - Relationships by position

    /// A to-one relationship's destination read by position, as generated getters read it:
    /// `object(at: 6, forKey: "author")`. As for attributes (see
    /// `value(at:forKey:default:)`), the name at the position is checked, and the
    /// relationship is found by name when it is elsewhere; nil for an unknown key.
    public func object(at position: Int, forKey key: String) -> ManagedObject? {
        guard let position = self.position(position, ofKey: key) else { return nil }
        return object(at: position)
    }

    /// A to-many relationship's destinations read by position (see `object(at:forKey:)`);
    /// empty for an unknown key.
    public func objects(at position: Int, forKey key: String) -> [ManagedObject] {
        guard let position = self.position(position, ofKey: key) else { return [] }
        return objects(at: position)
    }

    /// `position` when the entity's property there is named `key`, else `key`'s position.
    private func position(_ position: Int, ofKey key: String) -> Int? {
        let names = schema.propertyNames
        if position >= 0, position < names.count, names[position] == key { return position }
        return schema.propertyIndex[key]
    }
}
