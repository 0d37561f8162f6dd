import Foundation
import PersistenceModel
import PersistenceStore

/// A group of fetched objects that share one value of a section key path.
public struct FetchedSection {
    /// The section's value as text: empty for nil.
    public var name: String
    /// The section's objects, in the request's order.
    public var objects: [ManagedObject]
    /// The number of objects.
    public var count: Int { objects.count }
}

extension ManagedObjectContext {
    /// The objects a request selects, in order.
    ///
    /// Unsaved changes count, as in Core Data: inserted objects that match are included,
    /// deleted ones left out, and changed objects are checked against their unsaved values.
    ///
    /// The request's tools for large fetches apply: `fetchBatchSize`,
    /// `includesPropertyValues` and `returnsObjectsAsFaults` return faults that load in
    /// batches or one by one when first used, and `relationshipKeyPathsForPrefetching` loads
    /// the named relationships of every object in one read per key path (see `FetchRequest`).
    ///
    /// - Throws: `FetchError` for an unknown entity or key, a transient key, a type mismatch
    ///   or an unbound variable, a key path to prefetch that is not a relationship, or a
    ///   `resultType` other than objects (see `execute(_:)`); the store's
    ///   `PersistentStoreFailure` when it cannot be read.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        try checkQueue("fetch \(request.entityName)")
        guard request.resultType == .managedObjectResultType else {
            throw FetchError(
                entity: request.entityName,
                reason: "the request's resultType is \(request.resultType), not objects: use execute(_:), "
                    + "fetchObjectIDs(_:), fetchDictionaries(_:properties:) or count(for:)")
        }
        let prefetching = try prefetchKeyPaths(request)
        var result: [ManagedObject] = []
        if request.returnsFaults, try unsavedCandidates(request).isEmpty {
            result = try fetchFaults(request)
        } else {
            try forEach(request, keepingEvery: true) { object in
                result.append(object)
                return true
            }
        }
        if !prefetching.isEmpty { try prefetchRelationships(prefetching, of: result) }
        if result.count > 1, result[0].schema.hasToManyRelationships { toManyIDBatches.remember(result) }
        return result
    }

    /// Streams the objects a request selects, in order, calling `body` with each until it
    /// returns false. Without unsaved changes of the entity, rows become objects one at a
    /// time straight from SQL; with them, the result is merged and sorted in memory first.
    ///
    /// - Throws: as `fetch(_:)`, and whatever `body` throws.
    public func forEach(_ request: FetchRequest, _ body: (ManagedObject) throws -> Bool) throws {
        try forEach(request, keepingEvery: false, body)
    }

    /// `forEach(_:_:)`; `keepingEvery` when the caller keeps every object it is given, so
    /// that the store may read every row first (`PersistentStore.forEachRowForArray`).
    private func forEach(_ request: FetchRequest, keepingEvery: Bool, _ body: (ManagedObject) throws -> Bool) throws {
        try checkQueue("fetch \(request.entityName)")
        let pending = try unsavedCandidates(request)
        guard !pending.isEmpty else {
            try persistentStoreCoordinator.read { store in
                // The number of rows a store reading them all first says will come: room is
                // made for them in the registry at the first, rather than as they come.
                var expected = 0
                func deliver(_ row: consuming StoreRow) throws -> Bool {
                    if expected > 0 {
                        reserveRegistryCapacity(expected, forIDsLike: ObjectID(scope: row.idScope, key: .permanent(row.primaryKey)))
                        expected = 0
                    }
                    let object = self.object(for: row)
                    // The row goes before `body` runs: its slots are the object's, and a
                    // second holder would make the object's first write (a transient
                    // computed by `body`, say) copy them.
                    _ = consume row
                    if object.isDeleted { return true }
                    return try body(object)
                }
                if keepingEvery {
                    try store.forEachRowForArray(request, expecting: { expected = $0 }, deliver)
                } else {
                    try store.forEachRow(request, deliver)
                }
            }
            return
        }
        for object in try merged(request, pending) where try !body(object) { return }
    }

    /// The number of objects a request would fetch, unsaved changes included.
    ///
    /// - Throws: as `fetch(_:)`.
    /// Makes no object: without unsaved changes of the entity the store counts; with them,
    /// the store's IDs are read and the unsaved objects checked in memory (a request with a
    /// search, a limit or an offset is counted from its fetched objects instead).
    public func count(for request: FetchRequest) throws -> Int {
        try checkQueue("count \(request.entityName)")
        let pending = try unsavedCandidates(request)
        if pending.isEmpty { return try persistentStoreCoordinator.read { try $0.count(for: request) } }
        return try countWithUnsavedChanges(request, pending)
    }

    /// The IDs of the objects a request selects, in order.
    ///
    /// - Throws: as `fetch(_:)`.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        try checkQueue("fetch the IDs of \(request.entityName)")
        // With unsaved changes of the entity the objects decide, as in `fetch`; without
        // them only keys are read: no row is decoded and no object made.
        guard try unsavedCandidates(request).isEmpty else {
            var objects = request
            objects.resultType = .managedObjectResultType
            objects.relationshipKeyPathsForPrefetching = []
            return try fetch(objects).map(\.objectID)
        }
        return try persistentStoreCoordinator.read { try $0.objectIDs(for: request) }.filter { id in
            registry[id]?.object?.isDeleted != true
        }
    }

    /// The selected objects as dictionaries of the given key paths (Core Data's dictionary
    /// result): `properties`, else the request's `propertiesToFetch`, else every attribute.
    /// Nil values are left out, and a to-one relationship gives its destination's
    /// `ObjectID`, as in Core Data.
    ///
    /// Without unsaved changes of the entity, only the named columns are read and no object
    /// is made (see `ManagedObjectContext+Dictionaries`); with them, the objects are fetched
    /// and read, so that the changes count.
    ///
    /// - Throws: as `fetch(_:)`.
    public func fetchDictionaries(_ request: FetchRequest, properties: [String] = []) throws -> [[String: Any]] {
        var result: [[String: Any]] = []
        try forEachDictionary(request, properties: properties) { row in
            result.append(row)
            return true
        }
        return result
    }

    /// Hands each dictionary `fetchDictionaries(_:properties:)` would return to `body`, in
    /// order, without collecting them; `body` returns false to stop. As `forEach(_:_:)` is to
    /// `fetch(_:)`: a pass over many rows (every book's UUID, say) keeps one row at a time.
    ///
    /// - Throws: as `fetch(_:)`, or what `body` throws.
    public func forEachDictionary(
        _ request: FetchRequest, properties: [String] = [], _ body: ([String: Any]) throws -> Bool
    ) throws {
        try checkQueue("fetch \(request.entityName) as dictionaries")
        let keys = properties.isEmpty ? request.propertiesToFetch : properties
        if try unsavedCandidates(request).isEmpty, let keyPaths = storedKeyPaths(request, keys) {
            return try forEachStoredDictionary(request, keyPaths: keyPaths, body)
        }
        var objects = request
        objects.resultType = .managedObjectResultType
        objects.relationshipKeyPathsForPrefetching = []
        try forEach(objects) { object in
            let keys = keys.isEmpty ? object.entity.attributes.map(\.name) : keys
            var row: [String: Any] = [:]
            for key in keys {
                let value = try Self.keyPathValue(object, key)
                if case .object(let destination as ManagedObject) = value {
                    row[key] = destination.objectID
                } else if let value = value.plainValue {
                    row[key] = value
                }
            }
            return try body(row)
        }
    }

    /// The selected objects grouped by the value of `sectionKeyPath` (evaluated in memory,
    /// so transient keys work), sections in the order of their first object. Sort the
    /// request by the section key first for one section per value.
    ///
    /// - Throws: as `fetch(_:)`.
    public func fetchSections(_ request: FetchRequest, sectionKeyPath: String) throws -> [FetchedSection] {
        var grouping = SectionGrouping()
        // The key path is split once, not per object.
        let components = sectionKeyPath.split(separator: ".").map(String.init)
        let walker = PredicateEvaluator(.alwaysTrue)
        // A property of the fetched entity itself (the usual section key) is read by its
        // position, which sub-entities share, instead of walking the key path per object.
        let position = components.count == 1
            ? model.schema(for: request.entityName)?.propertyIndex[components[0]] : nil
        func sectionName(_ object: ManagedObject) throws -> String {
            let names = object.schema.propertyNames
            guard let position, position < names.count, names[position] == components[0] else {
                return try walker.walk(.object(object), components).sectionName
            }
            // A string attribute is its own name, without a predicate value made for it.
            if case .string(let name) = object.attributeValue(at: position) { return name }
            return object.predicateValue(at: position).sectionName
        }
        // Each object joins its section as it is made, so that no array of every object is
        // kept beside the sections. The large-fetch tools (faults, batches, prefetching) need
        // the whole result first, as `fetch(_:)` makes it.
        if request.resultType == .managedObjectResultType, !request.returnsFaults,
            request.relationshipKeyPathsForPrefetching.isEmpty
        {
            try forEach(request, keepingEvery: true) { object in
                grouping.add(object, to: try sectionName(object))
                return true
            }
        } else {
            for object in try fetch(request) { grouping.add(object, to: try sectionName(object)) }
        }
        return grouping.sections
    }

    // MARK: - Internals

    /// Unsaved objects that can change the request's result: every changed object when a
    /// predicate or sort may read them; empty when the store's answer stands.
    func unsavedCandidates(_ request: FetchRequest) throws -> [ManagedObject] {
        guard let schema = model.schema(for: request.entityName) else {
            throw FetchError(entity: request.entityName, reason: "the model has no entity named '\(request.entityName)'")
        }
        guard request.includesPendingChanges else { return [] }
        let included = { (name: String) in request.includesSubentities ? schema.includes(name) : name == schema.name }
        var candidates = changed.values.filter { $0.hasChanges && included($0.entityName) }
        // A child context's fetch finds the objects its parent inserted and has not saved.
        if parent != nil { candidates += try objectsInsertedInParent(where: included) }
        return candidates
    }

    private func merged(_ request: FetchRequest, _ pending: [ManagedObject]) throws
        -> [ManagedObject]
    {
        var unbounded = request
        unbounded.fetchLimit = nil
        unbounded.fetchOffset = 0
        var seen = Set<ObjectIdentifier>()
        var candidates: [ManagedObject] = []
        try persistentStoreCoordinator.read { store in
            try store.forEachRow(unbounded) { row in
                let object = self.object(for: row)
                if seen.insert(ObjectIdentifier(object)).inserted { candidates.append(object) }
                return true
            }
        }
        for object in pending where seen.insert(ObjectIdentifier(object)).inserted { candidates.append(object) }
        let evaluator = request.predicate.map(PredicateEvaluator.init)
        var result: [ManagedObject] = []
        for object in candidates where !object.isDeleted && object.managedObjectContext === self {
            if let evaluator {
                do { guard try evaluator.evaluate(object) else { continue } } catch {
                    throw FetchError(entity: request.entityName, reason: "\(error)")
                }
            }
            result.append(object)
        }
        try FetchSorter(request.sortDescriptors).sort(&result)
        result = try searched(request, result)
        let start = min(request.fetchOffset, result.count)
        let end = request.fetchLimit.map { min(start + max($0, 0), result.count) } ?? result.count
        return Array(result[start..<end])
    }

    static func keyPathValue(_ object: ManagedObject, _ keyPath: String) throws -> PredicateValue {
        let components = keyPath.split(separator: ".").map(String.init)
        return try PredicateEvaluator(.alwaysTrue).walk(.object(object), components)
    }
}

extension FetchRequest {
    /// Whether `fetch(_:)` answers with faults: batches, objects without their values, or
    /// faults asked for.
    fileprivate var returnsFaults: Bool { fetchBatchSize > 0 || !includesPropertyValues || returnsObjectsAsFaults }
}
