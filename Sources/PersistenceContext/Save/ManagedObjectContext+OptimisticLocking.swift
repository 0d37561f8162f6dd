import PersistenceModel
import PersistenceStore

/// Optimistic locking: a save compares the version each updated or deleted object read
/// with its row's current one, inside its write transaction and before anything is written,
/// and resolves the differences by the context's `mergePolicy`.
extension ManagedObjectContext {
    /// An object whose row changed or vanished since the object read it.
    struct VersionConflict {
        let object: ManagedObject
        /// The row's current version; nil when the row is gone.
        let storeVersion: Int64?
    }

    // MARK: - Finding conflicts

    /// The objects among `objects` whose rows' versions differ from the ones they read, or
    /// whose rows are gone: one query per table. Objects that never read their row (faults
    /// deleted unread) are not checked.
    func versionConflicts(among objects: [ManagedObject], in transaction: any StoreTransaction) throws -> [VersionConflict] {
        var byTable: [String: [(key: Int64, object: ManagedObject)]] = [:]
        for object in objects where object.rowVersion > 0 {
            guard let key = object.objectID.primaryKey else { continue }
            byTable[object.schema.rootName, default: []].append((key, object))
        }
        var conflicts: [VersionConflict] = []
        for (table, members) in byTable.sorted(by: { $0.key < $1.key }) {
            let versions = try transaction.currentVersions(rootEntity: table, keys: members.map(\.key))
            for (key, object) in members where versions[key] != object.rowVersion {
                conflicts.append(VersionConflict(object: object, storeVersion: versions[key]))
            }
        }
        return conflicts
    }

    // MARK: - Resolving them

    /// Applies the merge policy to `conflicts`, reading the rows' current values from `store`
    /// (the writer, inside the save's transaction), and returns the objects whose rows are
    /// gone, which the save leaves out and then discards (another context's delete stands).
    /// Under `.rollback` a deleted object whose row changed is deleted no more.
    ///
    /// Each object's state before it was merged goes to `undo`, for a save that fails after
    /// this to leave the context as it was.
    ///
    /// - Throws: `MergeConflictError` under `.error`, before anything changed.
    func resolve(
        _ conflicts: [VersionConflict], reading store: any PersistentStore, undo: inout [ConflictSnapshot]
    ) throws -> [ManagedObject] {
        if mergePolicy == .error {
            throw MergeConflictError(
                conflicts: try conflicts.map { conflict in
                    let row = conflict.storeVersion == nil ? nil : try store.row(for: conflict.object.objectID)
                    return Self.describe(conflict.object, against: row)
                })
        }
        var gone: [ManagedObject] = []
        for conflict in conflicts {
            let object = conflict.object
            guard conflict.storeVersion != nil, let row = try store.row(for: object.objectID) else {
                gone.append(object)
                continue
            }
            undo.append(ConflictSnapshot(object))
            object.rowVersion = row.version
            if object.isDeleted {
                // Deleted all the same, but under `.rollback`, which undoes the delete with
                // the object's other changes: it stays, with the store's values and links.
                guard mergePolicy == .rollback else { continue }
                object.isDeleted = false
                object.pendingToMany.removeAll()
                merge(object, with: row)
                resetRelationshipFaults(object)
            } else {
                merge(object, with: row)
            }
        }
        return gone
    }

    /// Merges the row's values into `object` by the merge policy (see `MergePolicy`): the
    /// row's values become the committed ones, so that the save writes exactly the
    /// object's values that win.
    private func merge(_ object: ManagedObject, with row: StoreRow) {
        let stored = row.slots.adopted(by: ManagedObject.self)
        let committed = object.committedSlots ?? stored
        var slots = object.slots
        var newCommitted = committed
        for position in slots.indices where Self.isStored(object.schema.properties[position]) {
            let objectChanged = !slots[position].isSame(as: committed[position])
            let storeChanged = !stored[position].isSame(as: committed[position])
            switch mergePolicy {
            case .mergeByPropertyStoreTrump:
                if !objectChanged || storeChanged { slots[position] = stored[position] }
            case .mergeByPropertyObjectTrump:
                if !objectChanged { slots[position] = stored[position] }
            case .overwrite, .error:
                break
            case .rollback:
                slots[position] = stored[position]
            }
            newCommitted[position] = stored[position]
        }
        object.replaceSlots(with: slots)  // observers hear of the values the store won
        object.committedSlots = newCommitted
        object.invalidateComputedTransients()
    }

    /// After a save's writes: the versions of the rows inserted objects took over (which
    /// were bumped from versions the context never read).
    func readVersions(ofTrumping inserted: [ManagedObject], in transaction: any StoreTransaction) throws {
        var byTable: [String: [ManagedObject]] = [:]
        for object in inserted where object.savingKey != nil {
            byTable[object.schema.rootName, default: []].append(object)
        }
        for (table, objects) in byTable {
            let versions = try transaction.currentVersions(rootEntity: table, keys: objects.compactMap(\.savingKey))
            for object in objects {
                if let key = object.savingKey, let version = versions[key], version > 1 { object.rowVersion = version }
            }
        }
    }

    /// An object's state before a merge resolved its conflict.
    struct ConflictSnapshot {
        let object: ManagedObject
        let slots: Slots
        let committedSlots: Slots?
        let pendingToMany: [Int: PendingToMany]
        let isDeleted: Bool
        let rowVersion: Int64

        init(_ object: ManagedObject) {
            self.object = object
            slots = object.slots
            committedSlots = object.committedSlots
            pendingToMany = object.pendingToMany
            isDeleted = object.isDeleted
            rowVersion = object.rowVersion
        }

        /// Puts the object back as it was.
        func restore() {
            object.slots = slots
            object.committedSlots = committedSlots
            object.pendingToMany = pendingToMany
            object.isDeleted = isDeleted
            object.rowVersion = rowVersion
            object.invalidateComputedTransients()
        }
    }

    // MARK: - Internals

    /// Whether a property is one a row holds and a merge compares: a stored attribute or a
    /// to-one (to-many links are written apart, as the object edited them).
    private static func isStored(_ property: SchemaProperty) -> Bool {
        switch property {
        case .attribute(let attribute): return !attribute.isTransient
        case .relationship(let relationship): return !relationship.isToMany && !relationship.isTransient
        }
    }

    /// The conflict of `object` with its row (nil: deleted), for `MergeConflictError`.
    private static func describe(_ object: ManagedObject, against row: StoreRow?) -> MergeConflictError.Conflict {
        var conflict = MergeConflictError.Conflict(
            entity: object.schema.name, object: object.objectID.description, rowDeleted: row == nil, properties: [])
        guard let row else { return conflict }
        let stored = row.slots.adopted(by: ManagedObject.self)
        for position in stored.indices where isStored(object.schema.properties[position]) {
            if let committed = object.committedSlots?[position], stored[position].isSame(as: committed) { continue }
            conflict.properties.append(
                MergeConflictError.PropertyConflict(
                    name: object.schema.propertyNames[position], objectValue: describe(object.slots[position]),
                    storeValue: describe(stored[position])))
        }
        return conflict
    }

    /// A slot's value as it reads in a message.
    private static func describe(_ slot: Slot) -> String {
        switch slot {
        case .value(let value): return value.description
        case .toOne(let destination): return destination.map { "\($0.objectID)" } ?? "nil"
        case .toOneFault(let id): return id.map { "\($0)" } ?? "nil"
        case .toManyFault, .toMany: return "(to-many)"
        }
    }
}
