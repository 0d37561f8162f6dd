import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// How many objects one probe query covers: their values stay well under SQLite's
    /// historical limit of 999 bound parameters.
    private static let probeParameterBudget = 900

    /// Under object-trump merging, an inserted object whose unique values match an
    /// existing row takes that row's key: the save updates the row instead of inserting.
    ///
    /// The rows are found as `existingRows(matching:in:)` says: seeding new rows, where
    /// nothing matches, costs one query per batch of objects instead of one per object.
    ///
    /// The adopted row's join-table links are dropped here (see `dropLinks(ofAdopted:)`):
    /// object-trump means the inserted object's state wins, so the links it has, written
    /// later in the save, replace the row's old ones instead of adding to them.
    ///
    /// - Returns: the IDs of the adopted rows; each adopting object's `savingKey` is its row's.
    func adoptExistingRows(_ inserted: [ManagedObject], in transaction: any StoreTransaction) throws -> [ObjectID] {
        var adopted: [ObjectID] = []
        for (object, existing) in try existingRows(matching: inserted, in: transaction) {
            object.savingKey = existing
            try dropLinks(ofAdopted: object, key: existing, transaction)
            adopted.append(ObjectID(scope: object.objectID.scope, key: .permanent(existing)))
        }
        return adopted
    }

    /// Under store-trump and rollback merging, an inserted object whose unique values match
    /// an existing row is merged into that row, which keeps its values: the save writes
    /// nothing of the object, and gives it the row's key so that what links to it links to
    /// the row. The rows are read here, in the save's transaction, so that the object can
    /// take their values and versions once the save is done (see `settle(_:)`).
    ///
    /// A row of one of the save's `deleted` objects is no row to merge into: an object
    /// inserted to replace it meets the stored row's UNIQUE index as under `.error` (save
    /// the delete first).
    ///
    /// - Returns: the merged objects with their rows; each one's `savingKey` is its row's.
    func mergeIntoExistingRows(
        _ inserted: [ManagedObject], sparing deleted: [ManagedObject], in transaction: any StoreTransaction
    ) throws -> [Duplicate] {
        let deletedRows = Set(deleted.compactMap { object in
            object.objectID.primaryKey.map { TrumpedRow(rootName: object.schema.rootName, key: $0) }
        })
        var merged: [Duplicate] = []
        for (object, existing) in try existingRows(matching: inserted, acrossHierarchy: true, in: transaction)
        where !deletedRows.contains(TrumpedRow(rootName: object.schema.rootName, key: existing)) {
            object.savingKey = existing
            let id = ObjectID(scope: object.objectID.scope, key: .permanent(existing))
            merged.append(Duplicate(object: object, row: try persistentStoreCoordinator.read { try $0.row(for: id) }))
        }
        return merged
    }

    /// The inserted objects whose unique values match a stored row, each with that row's key:
    /// a row of the object's entity or its sub-entities, or `acrossHierarchy` of any entity
    /// of its table (whose UNIQUE index the object would meet), which an object may merge
    /// into but not take over.
    ///
    /// The store is first asked once per batch of objects (per entity and constraint)
    /// whether any of them matches a row; only a batch with a match is looked up object by
    /// object.
    private func existingRows(
        matching inserted: [ManagedObject], acrossHierarchy: Bool = false, in transaction: any StoreTransaction
    ) throws -> [(object: ManagedObject, key: Int64)] {
        var found: [(object: ManagedObject, key: Int64)] = []
        let constrained = inserted.filter { !$0.schema.uniquenessConstraints.isEmpty }
        var start = 0
        while start < constrained.count {
            let end = min(constrained.count, start + Self.probeParameterBudget)
            let batch = constrained[start..<end]
            let matching = try constraintsWithMatches(in: batch, acrossHierarchy: acrossHierarchy, transaction)
            for object in batch {
                for (index, constraint) in object.schema.uniquenessConstraints.enumerated()
                where matching.contains(ProbeGroup(entity: object.schema.name, constraint: index)) {
                    let values = uniqueValues(of: object, constraint)
                    let entity = acrossHierarchy ? object.schema.rootName : object.schema.name
                    if let existing = try transaction.existingKey(entity: entity, constraint: constraint, values: values) {
                        found.append((object, existing))
                        break
                    }
                }
            }
            start = end
        }
        return found
    }

    /// Removes the links an adopted row has through the relationships of `object`'s
    /// entity: every join table of its to-many relationships (many-to-many, ordered,
    /// inverse-less), and the join table of an ordered to-many that is the inverse of one
    /// of its to-ones (the row's old place in another object's ordered list). Links that
    /// other objects hold through inverse-less to-manys stay: the inserted object does not
    /// model them, and the row they point at is updated, not replaced.
    private func dropLinks(ofAdopted object: ManagedObject, key: Int64, _ transaction: any StoreTransaction) throws {
        let entity = object.schema.name
        for case .relationship(let r) in object.schema.properties where !r.isTransient {
            if transaction.storesLinksInJoinTable(entity: entity, relationship: r.name) {
                try transaction.removeLinks(entity: entity, relationship: r.name, from: key)
                // A relationship that is its own inverse (`friends`) keeps a link per direction.
                if r.inverseName == r.name { try transaction.removeLinks(entity: entity, relationship: r.name, to: key) }
            } else if !r.isToMany, let inverse = r.inverseName,
                transaction.storesLinksInJoinTable(entity: r.destinationEntityName, relationship: inverse)
            {
                try transaction.removeLinks(entity: r.destinationEntityName, relationship: inverse, to: key)
            }
        }
    }

    /// An entity and the position of one of its uniqueness constraints.
    private struct ProbeGroup: Hashable {
        let entity: String
        let constraint: Int
    }

    /// The (entity, constraint) groups of a batch for which the store holds a row matching
    /// at least one object of the batch.
    private func constraintsWithMatches(
        in batch: ArraySlice<ManagedObject>, acrossHierarchy: Bool, _ transaction: any StoreTransaction
    ) throws -> Set<ProbeGroup> {
        var candidates: [ProbeGroup: [[AttributeValue]]] = [:]
        var order: [ProbeGroup] = []
        for object in batch {
            for (index, constraint) in object.schema.uniquenessConstraints.enumerated() {
                let group = ProbeGroup(entity: object.schema.name, constraint: index)
                if candidates[group] == nil { order.append(group) }
                candidates[group, default: []].append(uniqueValues(of: object, constraint))
            }
        }
        var matching: Set<ProbeGroup> = []
        for group in order {
            guard let schema = model.schema(for: group.entity), let lists = candidates[group] else { continue }
            let keys = schema.uniquenessConstraints[group.constraint]
            let perQuery = max(1, Self.probeParameterBudget / max(1, keys.count))
            var start = 0
            while start < lists.count {
                let end = min(lists.count, start + perQuery)
                let entity = acrossHierarchy ? schema.rootName : group.entity
                if try transaction.hasRow(entity: entity, constraint: keys, anyOf: Array(lists[start..<end])) {
                    matching.insert(group)
                    break
                }
                start = end
            }
        }
        return matching
    }

    /// An object's values for a uniqueness constraint's keys, as the store holds them.
    private func uniqueValues(of object: ManagedObject, _ constraint: [String]) -> [AttributeValue] {
        constraint.map { key in object.schema.propertyIndex[key].map { object.attributeValue(at: $0) } ?? .null }
    }
}

/// A stored row by its table (root entity) and key: one an insert took over under
/// object-trump merging, or one a save deletes.
struct TrumpedRow: Hashable {
    let rootName: String
    let key: Int64
}
