import PersistenceModel
import PersistenceStore

/// Uniqueness conflicts under store-trump and rollback merging: an inserted object whose
/// unique values another object of the save or a stored row already has is merged into
/// that one, which keeps its state (see `MergePolicy`).
extension ManagedObjectContext {
    /// An inserted object merged into the object or row that stands for its unique values.
    struct Duplicate {
        let object: ManagedObject
        /// The stored row it was merged into, as the save read it; nil when it was merged
        /// into another object of the save.
        let row: StoreRow?
    }

    /// An inserted object of a save with the unique values of another object of the same
    /// save, which it is merged into.
    struct InMemoryDuplicate {
        let object: ManagedObject
        let original: ManagedObject
    }

    /// Two changed objects in this save with the same unique values conflict: the save
    /// throws. Under store-trump and rollback merging, where the save checks once version
    /// conflicts are resolved, an inserted object that duplicates an earlier inserted or a
    /// saved object is merged into it instead (it is left out of the save); between two
    /// saved objects the save throws all the same.
    ///
    /// With `skippingUnchanged` (a save without inserted objects), an updated object whose
    /// constrained values are the saved ones is left out: it cannot conflict with another
    /// unchanged one, and an object changed to its values is refused by the store's UNIQUE
    /// index, reported naming the changed object. With inserted objects every object
    /// counts, so that an insert meets the conflict here rather than taking over the
    /// updated object's row under object-trump merging.
    ///
    /// - Returns: the inserted objects merged into others.
    /// - Throws: `ConstraintConflictError` naming the later object and the values.
    func checkUniquenessInMemory(
        inserted: [ManagedObject], updated: [ManagedObject], skippingUnchanged: Bool = false
    ) throws -> [InMemoryDuplicate] {
        let merging = mergePolicy.keepsStoredRows
        // Saved objects first when merging, so that an insert meets the saved object it
        // duplicates rather than the other way round.
        let objects = merging ? updated + inserted : inserted + updated
        // Each value list's first object, by its index in `objects` (an index, not the
        // object: a retain per registered object costs more than the check).
        var seen: [UniquenessKey: Int] = [:]
        seen.reserveCapacity(objects.count)
        var groups = UniquenessGroups()
        var duplicates: [InMemoryDuplicate] = []
        for (index, object) in objects.enumerated() where !object.schema.uniquenessConstraints.isEmpty {
            let mergeable = merging && object.isInserted
            // A mergeable object's keys, recorded once it is known to duplicate nothing.
            var keys: [UniquenessKey] = []
            var original: Int?
            for entry in groups.entries(for: object.schema) {
                if skippingUnchanged, !object.isInserted, let committed = object.committedSlots,
                    entry.positions.allSatisfy({ $0.map { object.slots[$0].isSame(as: committed[$0]) } ?? true })
                {
                    continue
                }
                let values = entry.values(of: object)
                // As in the store's UNIQUE indexes, values with a nil never conflict.
                guard !values.contains(where: \.isNull) else { continue }
                let key = UniquenessKey(group: entry.group, values: values)
                if mergeable {
                    original = seen[key]
                    if original != nil { break }
                    keys.append(key)
                } else if seen.updateValue(index, forKey: key) != nil {
                    throw ConstraintConflictError(
                        entity: object.schema.name, keys: entry.constraint, values: values.map(\.description),
                        object: object.objectID.description)
                }
            }
            if let original {
                duplicates.append(InMemoryDuplicate(object: object, original: objects[original]))
            } else {
                for key in keys { seen[key] = index }
            }
        }
        return duplicates
    }

    /// After the save: each merged object stands for its row, with the row's values and
    /// version, unless another object already does or the row is of another entity: then
    /// it leaves the context with no values. Loaded relationships that held it are read
    /// again when next used, and so reach the row's object.
    func settle(_ duplicates: [Duplicate]) {
        guard !duplicates.isEmpty else { return }
        var merged: Set<ObjectIdentifier> = []
        for duplicate in duplicates {
            let object = duplicate.object
            guard let key = object.savingKey else { continue }
            unregister(object.objectID, identity: ObjectIdentifier(object))
            object.savingKey = nil
            object.isInserted = false
            object.objectID = ObjectID(scope: duplicate.row?.idScope ?? object.objectID.scope, key: .permanent(key))
            if let row = duplicate.row, row.schema.name == object.schema.name, registry[object.objectID]?.object == nil {
                register(object, as: object.objectID)
                fill(object, from: row)
            } else {
                discard(object)
            }
            merged.insert(ObjectIdentifier(object))
        }
        refaultRelationships(holding: merged)
    }
}
