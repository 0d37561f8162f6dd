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
        case .attribute, .derivedAttribute:
            switch attributeValue(at: position) {
            case .null: return .null
            case .integer(let v): return .integer(v)
            case .double(let v): return .double(v)
            case .decimal(let v): return .decimal(v)
            case .bool(let v): return .bool(v)
            case .string(let v): return .string(v)
            case .date(let v): return .date(v)
            case .uuid(let v): return .uuid(v)
            case .url(let v): return .url(v)
            case .data(let v): return .data(v)
            case .transformable(let v):
                if let data = v as? Data { return .data(data) }
                if let bytes = v as? TransformableBytes { return .data(bytes.data) }
                return .null
            }
        case .toMany: return .collection(objects(at: position).map { .object($0) })
        case .toOne: return object(at: position).map { .object($0) } ?? .null
        }
    }
}
