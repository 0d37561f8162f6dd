import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObjectContext {
    /// The key paths a dictionary result reads straight from the store: `keys`, or every
    /// attribute of the entity when empty. Nil when the objects must be read instead: a key
    /// path the store does not hold (a transient, a to-many, a sub-entity's property, an
    /// unknown key, which then fails as a fetch of objects does), or every attribute of an
    /// entity whose sub-entities' objects have attributes of their own.
    func storedKeyPaths(_ request: FetchRequest, _ keys: [String]) -> [String]? {
        guard let entity = model.schema(for: request.entityName) else { return nil }
        let keyPaths: [String]
        if keys.isEmpty {
            guard !request.includesSubentities || entity.hierarchyNames.count == 1 else { return nil }
            keyPaths = entity.entity.attributes.map(\.name)
        } else {
            keyPaths = keys
        }
        for keyPath in keyPaths where (try? StoredKeyPath(keyPath, entity: entity, model: model)) == nil { return nil }
        return keyPaths
    }

    /// Hands `body` a dictionary per row the request selects, of the values of `keyPaths`
    /// read from the store alone: no row is decoded whole and no object made.
    func forEachStoredDictionary(
        _ request: FetchRequest, keyPaths: [String], _ body: ([String: Any]) throws -> Bool
    ) throws {
        try persistentStoreCoordinator.read { store in
            try store.forEachValues(of: keyPaths, request) { values in
                var row: [String: Any] = [:]
                for (key, value) in zip(keyPaths, values) {
                    switch value {
                    case .value(let value): if let plain = value.dictionaryValue { row[key] = plain }
                    case .toOneFault(let id?): row[key] = id
                    default: continue
                    }
                }
                return try body(row)
            }
        }
    }

    /// The number of objects a request selects when unsaved objects of its entity may change
    /// the store's answer, without making objects: the store's matching IDs, less the
    /// unsaved objects among them, plus the unsaved objects that match in memory (not
    /// deleted, their unsaved values checked). A search, a limit or an offset depends on
    /// the merged order: such a request counts its fetched objects.
    func countWithUnsavedChanges(_ request: FetchRequest, _ pending: [ManagedObject]) throws -> Int {
        guard request.searchText == nil, request.fetchLimit == nil, request.fetchOffset == 0 else {
            var objects = request
            objects.resultType = .managedObjectResultType
            objects.relationshipKeyPathsForPrefetching = []
            return try fetch(objects).count
        }
        let stored = Set(try persistentStoreCoordinator.read { try $0.objectIDs(for: request) })
        let evaluator = request.predicate.map(PredicateEvaluator.init)
        var count = stored.count
        var seen = Set<ObjectIdentifier>()
        for object in pending where object.managedObjectContext === self && seen.insert(ObjectIdentifier(object)).inserted {
            if object.objectID.primaryKey != nil, stored.contains(object.objectID) { count -= 1 }
            if object.isDeleted { continue }
            if let evaluator {
                do { guard try evaluator.evaluate(object) else { continue } } catch {
                    throw FetchError(entity: request.entityName, reason: "\(error)")
                }
            }
            count += 1
        }
        return count
    }
}

extension AttributeValue {
    /// The value in a dictionary result, as the objects' key-path values give it: a
    /// transformable value only as its bytes.
    fileprivate var dictionaryValue: Any? {
        guard case .transformable(let value) = self else { return anyValue }
        if let data = value as? Data { return data }
        if let bytes = value as? TransformableBytes { return bytes.data }
        return nil
    }
}
