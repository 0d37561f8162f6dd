import Foundation

extension ManagedObjectContext {
    /// How many objects one probe query covers: their values stay well under SQLite's
    /// historical limit of 999 bound parameters.
    private static let probeParameterBudget = 900

    /// Under object-trump merging, an inserted object whose unique values match an
    /// existing row takes that row's key: the save updates the row instead of inserting.
    ///
    /// The store is first asked once per batch of objects (per entity and constraint)
    /// whether any of them matches a row; only a batch with a match is looked up object by
    /// object. Seeding new rows, where nothing matches, so costs one query per batch
    /// instead of one per object; the result is the same either way.
    ///
    /// - Returns: the IDs of the adopted rows; `keys` maps each adopting object to its row.
    func adoptExistingRows(_ inserted: [ManagedObject], keys: inout [ObjectIdentifier: Int64]) throws -> [ObjectID] {
        var adopted: [ObjectID] = []
        let constrained = inserted.filter { !$0.schema.uniquenessConstraints.isEmpty }
        var start = 0
        while start < constrained.count {
            let end = min(constrained.count, start + Self.probeParameterBudget)
            let batch = constrained[start..<end]
            let matching = try constraintsWithMatches(in: batch)
            for object in batch {
                guard let mapping = store.schema.entities[object.schema.name] else { continue }
                for (index, constraint) in object.schema.uniquenessConstraints.enumerated()
                where matching.contains(ProbeGroup(entity: object.schema.name, constraint: index)) {
                    let values = try uniqueValues(of: object, constraint)
                    if let existing = try store.primaryKey(in: mapping, matching: constraint, values: values) {
                        keys[ObjectIdentifier(object)] = existing
                        adopted.append(
                            ObjectID(entityName: object.schema.name, rootName: object.schema.rootName,
                                     storeIdentifier: store.identifier, key: .permanent(existing)))
                        break
                    }
                }
            }
            start = end
        }
        return adopted
    }

    /// An entity and the position of one of its uniqueness constraints.
    private struct ProbeGroup: Hashable {
        let entity: String
        let constraint: Int
    }

    /// The (entity, constraint) groups of a batch for which the store holds a row matching
    /// at least one object of the batch.
    private func constraintsWithMatches(in batch: ArraySlice<ManagedObject>) throws -> Set<ProbeGroup> {
        var candidates: [ProbeGroup: [[SQLiteValue]]] = [:]
        var order: [ProbeGroup] = []
        for object in batch {
            for (index, constraint) in object.schema.uniquenessConstraints.enumerated() {
                let group = ProbeGroup(entity: object.schema.name, constraint: index)
                if candidates[group] == nil { order.append(group) }
                candidates[group, default: []].append(try uniqueValues(of: object, constraint))
            }
        }
        var matching: Set<ProbeGroup> = []
        for group in order {
            guard let mapping = store.schema.entities[group.entity], let lists = candidates[group] else { continue }
            let keys = mapping.schema.uniquenessConstraints[group.constraint]
            let perQuery = max(1, Self.probeParameterBudget / max(1, keys.count))
            var start = 0
            while start < lists.count {
                let end = min(lists.count, start + perQuery)
                if try store.hasRow(in: mapping, matching: keys, anyOf: Array(lists[start..<end])) {
                    matching.insert(group)
                    break
                }
                start = end
            }
        }
        return matching
    }

    /// An object's values for a uniqueness constraint's keys, as the store holds them.
    private func uniqueValues(of object: ManagedObject, _ constraint: [String]) throws -> [SQLiteValue] {
        try constraint.map { key -> SQLiteValue in
            guard let position = object.schema.propertyIndex[key],
                case .attribute(let attribute) = object.schema.properties[position]
            else { return .null }
            return try RowCodec.encode(object.attributeValue(at: position), for: attribute, entity: object.schema.name)
        }
    }
}
