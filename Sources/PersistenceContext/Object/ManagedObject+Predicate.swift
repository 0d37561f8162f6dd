import Foundation
import PersistenceModel
import PersistenceStore

extension ManagedObject: PredicateEvaluable {
    /// The value of one property for the in-memory predicate evaluator: an attribute by its
    /// type, a to-one as ``PredicateValue/object(_:)``, a to-many as
    /// ``PredicateValue/collection(_:)``; a transformable value is `.data` when it is bytes,
    /// otherwise `.null`.
    ///
    /// - Throws: ``FetchPredicateError`` for a key the entity does not have.
    public func predicateValue(forKey key: String) throws -> PredicateValue {
        guard let position = schema.propertyIndex[key] else {
            throw FetchPredicateError(
                kind: .unknownKey, format: "", message: "\(schema.name) has no property named '\(key)'")
        }
        return predicateValue(at: position)
    }

    /// The value of the property at `position` of the object's entity, as a predicate sees it.
    package func predicateValue(at position: Int) -> PredicateValue {
        // The flat plan, not `schema.properties[position]`, whose payload a switch would copy
        // (a dozen strings retained and released per object read).
        switch schema.plans[position].kind {
        case .attribute, .derivedAttribute: return PredicateValue(attributeValue(at: position))
        case .toMany: return .collection(objects(at: position).map { .object($0) })
        case .toOne: return object(at: position).map { .object($0) } ?? .null
        }
    }
}
