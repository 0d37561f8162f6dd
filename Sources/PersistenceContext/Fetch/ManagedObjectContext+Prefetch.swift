import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// The steps of each of the request's `relationshipKeyPathsForPrefetching`, checked
    /// against the model before the fetch reads anything.
    ///
    /// - Throws: `FetchError` for a key path that is not a chain of relationships of the
    ///   entity.
    func prefetchKeyPaths(_ request: FetchRequest) throws -> [[String]] {
        guard !request.relationshipKeyPathsForPrefetching.isEmpty, let entity = model.schema(for: request.entityName)
        else { return [] }
        return try request.relationshipKeyPathsForPrefetching.map { try prefetchSteps($0, from: entity) }
    }

    /// Loads the destinations of each key path's steps (see `prefetchKeyPaths(_:)`) for the
    /// fetched `objects` (those that are not faults): one store read per step, for every
    /// object at once, where using each relationship would read once per object.
    /// Destinations already loaded are not read again.
    ///
    /// - Throws: the store's failure.
    func prefetchRelationships(_ keyPaths: [[String]], of objects: [ManagedObject]) throws {
        let fetched = objects.filter { !$0.isFault && $0.managedObjectContext === self }
        for steps in keyPaths {
            var sources = fetched
            for step in steps where !sources.isEmpty { sources = try prefetch(step, from: sources) }
        }
    }

    /// The relationship names of a key path to prefetch, checked against the model.
    private func prefetchSteps(_ keyPath: String, from entity: EntitySchema) throws -> [String] {
        let steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        for step in steps {
            guard let relationship = current.relationship(named: step),
                let destination = model.schema(for: relationship.destinationEntityName)
            else {
                throw FetchError(
                    entity: entity.name,
                    reason: "\(current.name) has no relationship named '\(QuotedText.excerpt(step))' to prefetch "
                        + "(in '\(QuotedText.excerpt(keyPath))')")
            }
            current = destination
        }
        return steps
    }

    /// Loads the relationship `name` of each source in one store read, and returns the
    /// destinations of all of them, each once: the sources of the key path's next step.
    private func prefetch(_ name: String, from sources: [ManagedObject]) throws -> [ManagedObject] {
        // Sources may be of several sub-entities, which share the relationship's position.
        let pairs = sources.compactMap { source in source.schema.propertyIndex[name].map { (source, $0) } }
        guard let (first, position) = pairs.first else { return [] }
        let relationship = first.relationship(at: position)
        var destinations: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        func add(_ object: ManagedObject?) {
            if let object, seen.insert(ObjectIdentifier(object)).inserted { destinations.append(object) }
        }
        if relationship.isToMany {
            let unloaded = pairs.filter { source, position in
                guard source.objectID.primaryKey != nil, case .toManyFault = source.slots[position] else { return false }
                return true
            }
            if !unloaded.isEmpty {
                let rowsBySource = try persistentStoreCoordinator.read { store in
                    try store.destinationRows(of: relationship, from: unloaded.map(\.0.objectID))
                }
                for (source, position) in unloaded {
                    let stored = (rowsBySource[source.objectID] ?? []).map { object(for: $0) }
                    _ = source.installToMany(stored, at: position)
                }
            }
            for (source, position) in pairs {
                if case .toMany(let objects) = source.slots[position] { objects.forEach(add) }
            }
            return destinations
        }
        // A to-one: the destinations not loaded yet, read by ID; each source then finds its
        // destination registered and keeps it.
        var wanted: [ObjectID] = []
        var wantedIDs = Set<ObjectID>()
        for (source, position) in pairs {
            guard case .toOneFault(let id?) = source.slots[position], registry[id]?.object?.isFault != false,
                wantedIDs.insert(id).inserted
            else { continue }
            wanted.append(id)
        }
        let loaded = wanted.isEmpty ? [] : try persistentStoreCoordinator.read { try $0.rows(for: wanted) }.map { object(for: $0) }
        for (source, position) in pairs { add(source.object(at: position)) }
        withExtendedLifetime(loaded) {}
        return destinations
    }
}
