import Foundation
import PersistenceModel
import PersistenceStore
import Synchronization

/// A scratch pad of managed objects: insert, change and delete objects in memory, then save
/// them to the store atomically.
///
/// The context registers one object per row (uniquing), tracks inserted, updated and deleted
/// objects, and on `save()` computes derived values, validates, checks constraints and
/// writes everything in one store transaction; on any failure nothing is written and the
/// context keeps its changes so that they can be fixed and saved again.
///
/// A context runs on a queue of its own kind (`ConcurrencyType`): see
/// `ManagedObjectContext+Concurrency` for `perform`, `performAndWait` and what is checked.
///
/// `@unchecked Sendable`, argued. A context may be handed to any task so that the task can
/// call `perform`; the compiler cannot check that, since its state is mutable and confined to
/// its queue, which no Swift type expresses (an actor would make every access `await`). What
/// keeps it sound:
/// - any thread may use the `let`s (the coordinator, `concurrencyType`, `parent`, `classes`,
///   the queue), which never change and are Sendable; `name`, kept in a `Mutex`; and
///   `perform`, `performAndWait` and `isOnQueue`, which only enqueue on the queue or ask it.
/// - everything else (the registry, changed objects, faults, merging, undo) is reached only
///   on the context's queue: every method that reaches it checks (`checkQueue` throws a
///   `ConcurrencyError` off the queue, `onQueue` hops onto it; see
///   `ManagedObjectContext+Concurrency`). The plain settings (`mergePolicy`,
///   `transactionAuthor`, `undoManager`, `automaticallyMergesChangesFromParent`,
///   `isObservationEnabled`) are, as in Core Data, set on the queue (in `perform`) or before
///   the context is shared; nothing checks those.
/// - objects, which hold references into that state, are not Sendable, so the compiler keeps
///   them on the queue's side; across queues an app passes `ObjectID`s.
///
/// `ConcurrencyStressTests` runs contexts on several queues against one coordinator (saves,
/// fetches, merges) and CI runs it under ThreadSanitizer and AddressSanitizer.
public final class ManagedObjectContext: @unchecked Sendable {
    /// Where the context's objects are read from and saved to (Core Data's
    /// `persistentStoreCoordinator`).
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// Where the context runs.
    public let concurrencyType: ConcurrencyType
    /// The context this one saves into, or nil when it saves to the store (Core Data's
    /// `parent`): see `newChildContext(concurrencyType:name:)`.
    public let parent: ManagedObjectContext?
    /// What a save does with conflicts: rows other contexts or processes changed or
    /// deleted since they were read, and stored unique values (see `MergePolicy`).
    /// `.error` by default.
    public var mergePolicy: MergePolicy = .error
    /// Whether saves of the coordinator's other contexts are merged into this one as they
    /// happen (Core Data's `automaticallyMergesChangesFromParent`): see
    /// `mergeChanges(fromContextDidSave:)`.
    public var automaticallyMergesChangesFromParent = false {
        didSet { updateAutomaticMerging() }
    }
    /// Records the context's changes so that they can be undone and redone (Core Data's
    /// `undoManager`); nil, the default, records nothing and costs nothing. See
    /// `ManagedObjectContext+Undo`.
    ///
    /// Read for every object made, as is `isObservationEnabled`: both without the run-time
    /// exclusivity check, since neither is ever passed `inout` nor held across a call (their
    /// `didSet` runs after the write).
    @exclusivity(unchecked) public var undoManager: UndoManager? {
        didSet { undoManagerDidChange() }
    }

    /// Whether the context's objects are observable with Swift's Observation
    /// (`withObservationTracking`, `Observations`): false by default, so that reading objects
    /// costs nothing for it; set it on a context whose objects a user interface or a task
    /// observes, typically the view context. See `ManagedObject+Observation`.
    @exclusivity(unchecked) public var isObservationEnabled = false {
        didSet { observationDidChange() }
    }

    /// A name for messages and for the saves it announces (Core Data's `name`).
    public var name: String? {
        get { nameStorage.withLock { $0 } }
        set { nameStorage.withLock { $0 = newValue } }
    }
    /// Read off the queue by errors, so kept under its own lock.
    private let nameStorage = Mutex<String?>(nil)
    /// Who makes the context's saves, as the persistent history records them in each
    /// transaction's `author` (Core Data's `transactionAuthor`): an app names its importer,
    /// its extension or its user so that a reader of the history can tell whose changes
    /// it reads (and skip its own).
    public var transactionAuthor: String?

    package let classes: [String: ManagedObject.Type]
    let contextQueue: ContextQueue
    var queue: DispatchQueue { contextQueue.queue }
    /// Registered objects by ID: not retained while unchanged, so memory follows what the app
    /// keeps, not what it has fetched; an object removes its entry when it goes.
    ///
    /// Read and changed twice per fetched object (registered, then unregistered as it goes),
    /// so without the run-time exclusivity check (a thread-local access set per access): no
    /// access to it calls out, since entries neither retain nor release objects and
    /// `registeredObject(for:orMake:)` makes an object between two accesses, not inside one.
    @exclusivity(unchecked) var registry = ObjectRegistry()
    /// Each entity's class and computed transients, resolved once (see `resolvedClass(for:)`).
    var resolvedClasses: [ObjectIdentifier: ResolvedEntityClass] = [:]
    /// The kind last made: a fetch makes many objects of one entity in a row. Read per
    /// fetched object, and only ever assigned: without the exclusivity check.
    @exclusivity(unchecked) var lastResolvedClass: ResolvedEntityClass?
    /// The scope of each entity's IDs, made once (see `idScope(for:)`).
    private var idScopes: [String: ObjectID.Scope] = [:]
    /// Objects with unsaved changes, held strongly until saved or rolled back.
    var changed: [ObjectIdentifier: ManagedObject] = [:]
    /// Objects that still belong to the context but have no registry entry: a stale object
    /// whose row an insert took over. Not retained; each removes its entry as it goes. With
    /// the registry and `changed`, they are every object whose `managedObjectContext` is
    /// this context.
    ///
    /// Read as every object goes, so without the exclusivity check, as `registry`: its
    /// entries do not retain their objects, so no access to it lets one go.
    @exclusivity(unchecked) var strays: [ObjectIdentifier: RegistryEntry] = [:]
    /// The batch of each fault a batched fetch returned, until the batch loads (see
    /// `FetchRequest.fetchBatchSize`); an object's entry goes with it. Read as every object
    /// goes, and unchecked as `strays`: a batch holds IDs, not objects.
    @exclusivity(unchecked) var faultBatches: [ObjectIdentifier: FaultBatch] = [:]
    /// The recent fetches' objects and the to-many IDs last read for many of them at once
    /// (see `ToManyIDBatches`). Read as every object goes, and unchecked as `strays`: it
    /// holds keys and IDs, not objects.
    @exclusivity(unchecked) var toManyIDBatches = ToManyIDBatches()
    /// The subscription to the coordinator's saves while merging automatically.
    var automaticMerging: SaveAnnouncer.Subscription?
    /// The saves made inside `performAtomicSaves`, as one, announced once its transaction
    /// commits (nil outside one): another context must not merge a save that may yet be
    /// rolled back. Held by table and key (see `HeldAnnouncement`).
    var heldAnnouncements: HeldAnnouncement?
    private var nextTemporaryKey: UInt64 = 1

    package init(
        coordinator: PersistentStoreCoordinator, classes: [String: ManagedObject.Type],
        concurrencyType: ConcurrencyType = .mainQueue, name: String? = nil, parent: ManagedObjectContext? = nil
    ) {
        self.persistentStoreCoordinator = coordinator
        self.parent = parent
        self.classes = classes
        self.concurrencyType = concurrencyType
        contextQueue = concurrencyType == .mainQueue ? .main : .makePrivate(label: "Persistence.context.\(name ?? "background")")
        nameStorage.withLock { $0 = name }
    }

    /// Detaches every object that still refers to the context (see
    /// `ManagedObject.managedObjectContext`).
    deinit {
        automaticMerging?.cancel()
        detachAll()
    }

    /// The frozen model of the context's store.
    public var model: ManagedObjectModel { persistentStoreCoordinator.managedObjectModel }

    // MARK: - Inserting and deleting

    /// Inserts a new object of the named entity, with the attributes' default values.
    ///
    /// - Throws: `ObjectAccessError` for an unknown or abstract entity.
    @discardableResult
    public func insertObject(forEntityName name: String) throws -> ManagedObject {
        try checkQueue("insert \(name)")
        let schema = try insertableSchema(named: name)
        let id = makeTemporaryID(for: schema)
        let slots = resolvedClass(for: schema).newObjectSlots.duplicated()
        let object = makeObject(schema: schema, id: id, isFault: false, slots: slots)
        object.isInserted = true
        object.invalidateComputedTransients()
        register(object, as: id)
        changed[ObjectIdentifier(object)] = object
        if undoManager != nil { registerUndoOfInsert(object) }
        object.awakeFromInsert()
        return object
    }

    /// Inserts a new object of a registered subclass's entity.
    ///
    /// - Throws: `ObjectAccessError` when the class is registered for no entity.
    public func insert<T: ManagedObject>(_ type: T.Type) throws -> T {
        guard let name = classes.first(where: { $0.value == type })?.key else {
            throw ObjectAccessError(entity: "\(type)", key: "\(type)", reason: "\(type) is registered for no entity")
        }
        guard let object = try insertObject(forEntityName: name) as? T else {
            preconditionFailure("\(name) is registered as \(type) but made another class")
        }
        return object
    }

    /// The entity named `name`, if objects or rows of it can be inserted.
    ///
    /// - Throws: `ObjectAccessError` for an unknown or abstract entity.
    func insertableSchema(named name: String) throws -> EntitySchema {
        guard let schema = model.schema(for: name) else {
            throw ObjectAccessError(entity: name, key: name, reason: "the model has no entity named '\(name)'")
        }
        guard !schema.isAbstract else {
            throw ObjectAccessError(entity: name, key: name, reason: "\(name) is abstract: insert one of its sub-entities")
        }
        return schema
    }

    /// A new temporary ID of the entity, unique in this context.
    func makeTemporaryID(for schema: EntitySchema) -> ObjectID {
        defer { nextTemporaryKey += 1 }
        return ObjectID(scope: idScope(for: schema), key: .temporary(nextTemporaryKey))
    }

    /// The scope of the entity's IDs in this context's store, made once.
    func idScope(for schema: EntitySchema) -> ObjectID.Scope {
        if let scope = idScopes[schema.name] { return scope }
        let scope = ObjectID.Scope(
            entityName: schema.name, rootName: schema.rootName, storeIdentifier: persistentStoreCoordinator.storeIdentifier)
        idScopes[schema.name] = scope
        return scope
    }

    // MARK: - Changes

    /// Objects inserted since the last save.
    public var insertedObjects: [ManagedObject] { onQueue { changed.values.filter { $0.isInserted } } }
    /// Saved objects with changed values.
    public var updatedObjects: [ManagedObject] { onQueue { changed.values.filter { $0.isUpdated } } }
    /// Objects marked for deletion.
    public var deletedObjects: [ManagedObject] { onQueue { changed.values.filter { $0.isDeleted } } }
    /// Whether there is anything to save.
    public var hasChanges: Bool { onQueue { changed.values.contains { $0.hasChanges } } }

    /// Discards every unsaved change: inserted objects are forgotten, updated ones take
    /// their saved values back, deleted ones are restored. As in Core Data, the undo
    /// manager's actions go too.
    public func rollback() {
        onQueue { rollbackOnQueue() }
    }

    private func rollbackOnQueue() {
        // Core Data's rollback empties the undo stack: its actions restore states on top of
        // changes that are gone.
        undoManager?.removeAllActions()
        for object in changed.values {
            object.pendingToMany.removeAll()
            if object.isInserted {
                object.isInserted = false
                detach(object)
            } else if let committed = object.committedSlots {
                object.replaceSlots(with: committed)
                object.committedSlots = committed  // one storage again, no copy kept apart
                object.isDeleted = false
                object.invalidateComputedTransients()
            }
        }
        changed.removeAll()
        // Relationship slots of unchanged objects may hold inverses of discarded edits:
        // reload them from the store when next touched.
        for case let object? in registry.values.map(\.object) where !object.isFault { resetRelationshipFaults(object) }
    }

    /// Forgets every object: registered objects are detached, unsaved changes dropped, and
    /// the undo manager emptied.
    public func reset() {
        onQueue { resetOnQueue() }
    }

    private func resetOnQueue() {
        undoManager?.removeAllActions()
        detachAll()
        registry.removeAll()
        faultBatches.removeAll()
        toManyIDBatches.removeAll()
        strays.removeAll()
        changed.removeAll()
    }

    /// Sets the context of every object that refers to it to nil.
    private func detachAll() {
        for case let object? in registry.values.map(\.object) { object.managedObjectContext = nil }
        for case let object? in strays.values.map(\.object) { object.managedObjectContext = nil }
        for object in changed.values { object.managedObjectContext = nil }
    }

    // MARK: - Objects by ID

    /// The object with this ID: the registered one, or a fault that loads on first use.
    ///
    /// - Throws: `ObjectAccessError` when the ID is of another store or an unknown entity.
    public func object(with id: ObjectID) throws -> ManagedObject {
        try checkQueue("get the object \(id)")
        if let object = registry[id]?.object { return object }
        if id.primaryKey == nil, let object = try objectFromParent(with: id) { return object }
        guard id.storeIdentifier == persistentStoreCoordinator.storeIdentifier, id.primaryKey != nil,
            let schema = model.schema(for: id.entityName)
        else {
            throw ObjectAccessError(entity: id.entityName, key: "\(id)", reason: "no such object in this store", action: "get")
        }
        let object = makeObject(schema: schema, id: id, isFault: true)
        register(object, as: id)
        return object
    }

    /// The object with this ID, loaded from the store.
    ///
    /// - Throws: `ObjectAccessError` when no such object exists: its row was deleted (by
    ///   this context's save, another context's or another process's) or never saved.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = try self.object(with: id)
        object.fireFaultIfNeeded()
        if object.isFault || object.managedObjectContext == nil {
            // Core Data's "could not fulfill a fault": never an object with no values.
            throw ObjectAccessError(
                entity: id.entityName, key: "\(id)",
                reason: "could not fulfill a fault: the store has no such row (deleted, or never saved)", action: "get")
        }
        return object
    }

    // MARK: - Internals

    func makeObject(schema: EntitySchema, id: ObjectID, isFault: Bool, slots: Slots? = nil) -> ManagedObject {
        let kind = resolvedClass(for: schema)
        return kind.type.init(
            ObjectConstruction(
                schema: schema, objectID: id, context: self, isFault: isFault, slots: slots,
                transientComputation: kind.transientComputation, registersUndo: undoManager != nil,
                isObservable: isObservationEnabled))
    }

    package func objectDidChange(_ object: ManagedObject) {
        onQueue { changed[ObjectIdentifier(object)] = object }
    }

    /// The registered object for a fetched row, or a new one filled from it. A registered
    /// object without unsaved changes takes the row's values when another context or
    /// process saved the row since the object read it (its version differs), so that a
    /// new fetch sees what they saved (Core Data's `shouldRefreshRefetchedObjects`, on for
    /// unchanged objects); one with unsaved changes keeps them (refresh it to merge).
    package func object(for row: StoreRow) -> ManagedObject {
        let id = ObjectID(scope: row.idScope, key: .permanent(row.primaryKey))
        // A new object is made with the row's slots, so that filling does not replace a fresh array.
        let (object, isNew) = registeredObject(for: id) {
            makeObject(schema: row.schema, id: id, isFault: true, slots: row.slots.adopted(by: ManagedObject.self))
        }
        if isNew || object.isFault {
            fill(object, from: row, isNew: isNew)
        } else if object.rowVersion != row.version, !object.hasChanges {
            fill(object, from: row)
        }
        return object
    }

    /// Gives a fault the row's values and wakes it. As in Core Data, change tracking is off
    /// while `awakeFromFetch()` runs: what it sets (a transient cache, say) counts as fetched,
    /// not as a change. The committed values are taken afterwards, which also spares the
    /// copy a write to shared slots would make.
    ///
    /// - Parameter isNew: whether the object was just made with the row's slots, which then
    ///   need no second assignment.
    func fill(_ object: ManagedObject, from row: StoreRow, isNew: Bool = false) {
        // The row's slots are final (see RowDecodePlan): transients hold their defaults.
        if !isNew { object.replaceSlots(with: row.slots.adopted(by: ManagedObject.self)) }
        object.rowVersion = row.version
        object.committedSlots = nil
        object.isFault = false
        if parent != nil { adoptParentState(of: object) }
        object.invalidateComputedTransients()
        object.awakeFromFetch()
        object.committedSlots = object.slots
    }

    /// Loads a fault's row. A row that is gone (a dangling reference) detaches the object. A
    /// row that cannot be read (the store locked past the busy timeout, a missing external
    /// data file) leaves the object a fault, so that the next access tries again: a property
    /// getter cannot throw, so the value reads as nil this time, but nothing is detached or
    /// taken for a deletion. Fetches throw such errors.
    package func fulfillFault(_ object: ManagedObject, force: Bool = false) {
        guard object.isFault || force, object.objectID.primaryKey != nil else { return }
        guard isOnQueue else { return performAndWait { fulfillFault(object, force: force) } }
        // A fault of a batched fetch loads its whole batch.
        if !force, !faultBatches.isEmpty, let batch = faultBatches.removeValue(forKey: ObjectIdentifier(object)) {
            loadBatch(batch)
            if !object.isFault { return }
        }
        if parent != nil, !force, fillFromParent(object) { return }
        let row: StoreRow?
        do { row = try persistentStoreCoordinator.read { try $0.row(for: object.objectID) } } catch { return }
        object.isFault = false
        if let row {
            fill(object, from: row)
        } else if object.committedSlots == nil {
            // No such row (a dangling reference): the object belongs to no context.
            detach(object)
        }
    }

    /// Loads a to-many relationship's destinations from the store (none when the store cannot
    /// be read now: the relationship stays a fault and the next access tries again).
    package func loadToMany(_ object: ManagedObject, relationship: RelationshipDescription) -> [ManagedObject] {
        guard isOnQueue else { return performAndWait { loadToMany(object, relationship: relationship) } }
        var rows: [StoreRow] = []
        try? persistentStoreCoordinator.read { store in
            try store.forEachDestinationRow(of: relationship, from: object.objectID) { row in
                rows.append(row)
                return true
            }
        }
        return rows.map { self.object(for: $0) }
    }

    func resetRelationshipFaults(_ object: ManagedObject) {
        guard object.committedSlots != nil, !object.isInserted else { return }
        for (position, property) in object.schema.properties.enumerated() {
            if case .relationship(let r) = property, r.isToMany { object.slots[position] = .toManyFault }
        }
        object.committedSlots = object.slots
    }
}
