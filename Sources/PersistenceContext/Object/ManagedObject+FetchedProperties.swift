import Foundation
import PersistenceModel
import PersistenceStore

/// Fetched properties: a model's named, predicate-defined queries from an object
/// (Core Data's `NSFetchedPropertyDescription`), evaluated when first read.
///
/// As in Core Data, a fetched property is a fetch request of its destination entity whose
/// predicate may name the object it is read from as `$FETCH_SOURCE`
/// (`shelf == $FETCH_SOURCE`, `price < $FETCH_SOURCE.budget`) and the property itself as
/// `$FETCHED_PROPERTY` (its `name` and `entityName`). The first read runs the fetch, unsaved
/// changes included as in any fetch, and the object keeps the result: **a fetched property
/// is not kept current**. Later changes, saved or not, show only after the object is
/// refreshed (`refresh(_:mergeChanges:)` or `refreshAllObjects()`), which drops the kept
/// results, exactly as Core Data documents for its fetched properties.
///
/// A predicate without variables runs in the store; one with them fetches the destination
/// entity's objects and filters them in memory, with the evaluator's semantics (an object
/// compares with an object by identity), since a store cannot bind an object.
extension ManagedObject {
    /// The objects of the fetched property `key`, from its kept result or by running its
    /// fetch now (and keeping the result until the object is refreshed).
    ///
    /// - Throws: `ObjectAccessError` when the entity has no fetched property `key`, or the
    ///   object has no context; `FetchPredicateError` or `FetchError` when the predicate
    ///   does not parse or cannot be evaluated; `ContextConcurrencyError` off the context's
    ///   queue; the store's `PersistentStoreFailure` when it cannot be read.
    public func fetchedObjects(forKey key: String) throws -> [ManagedObject] {
        guard let property = fetchedPropertyDescription(named: key) else {
            throw ObjectAccessError(entity: schema.name, key: key, reason: "\(schema.name) has no fetched property named '\(key)'")
        }
        guard let context = managedObjectContext else {
            throw ObjectAccessError(entity: schema.name, key: key, reason: "the object has no context to fetch in")
        }
        try context.checkQueue("read the fetched property \(schema.name).\(key)")
        if let kept = fetchedValues[key] { return kept }
        let result = try context.evaluate(property, from: self)
        fetchedValues[key] = result
        return result
    }

    /// The fetched property named `key` of the object's entity or one of its ancestors.
    package func fetchedPropertyDescription(named key: String) -> FetchedPropertyDescription? {
        if let own = schema.entity.fetchedProperties.first(where: { $0.name == key }) { return own }
        guard let model = managedObjectContext?.model else { return nil }
        for ancestor in schema.ancestors {
            if let inherited = model.schema(for: ancestor)?.entity.fetchedProperties.first(where: { $0.name == key }) {
                return inherited
            }
        }
        return nil
    }
}

extension ManagedObjectContext {
    /// Runs a fetched property's request from `source`.
    func evaluate(_ property: FetchedPropertyDescription, from source: ManagedObject) throws -> [ManagedObject] {
        guard let format = property.predicateString, !format.isEmpty else {
            return try fetch(FetchRequest(entityName: property.entityName))
        }
        let predicate = try FetchPredicate(format)
        guard !predicate.variableNames.isEmpty else {
            return try fetch(FetchRequest(entityName: property.entityName, predicate: predicate))
        }
        var evaluator = PredicateEvaluator(predicate)
        evaluator.variables = [
            "FETCH_SOURCE": .object(source),
            "FETCHED_PROPERTY": .object(FetchedPropertySubject(property: property)),
        ]
        return try fetch(FetchRequest(entityName: property.entityName)).filter { try evaluator.evaluate($0) }
    }
}

/// `$FETCHED_PROPERTY` in a fetched property's predicate: the property's description.
private struct FetchedPropertySubject: PredicateEvaluable {
    let property: FetchedPropertyDescription

    func predicateValue(forKey key: String) throws -> PredicateValue {
        switch key {
        case "name": return .string(property.name)
        case "entityName": return .string(property.entityName)
        default: throw FetchPredicateError.unknownKey(key, on: "the fetched property \(property.name)")
        }
    }
}
