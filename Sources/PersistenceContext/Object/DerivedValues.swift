import Foundation
import PersistenceModel
import PersistenceStore

/// Computes derived attributes during save, from their parsed derivation expressions.
enum DerivedValues {
    /// Recomputes every derived attribute of an object.
    ///
    /// - Throws: ``ObjectAccessError`` when a Decimal `@sum` leaves `Decimal`'s range, or a
    ///   derived value does not fit its attribute (an Integer 64 sum past its range).
    static func compute(_ object: ManagedObject) throws {
        for (position, derivation) in object.schema.derivations {
            guard case .derivedAttribute = object.schema.plans[position].kind else { continue }
            let raw: AttributeValue
            do {
                raw = try value(of: derivation, on: object)
            } catch {
                throw ObjectAccessError(
                    entity: object.entityName, key: object.schema.plans[position].name,
                    reason: "it derives '\(derivation)', but \(error)")
            }
            guard let converted = try converted(raw, at: position, of: object.schema, derivation: derivation) else { continue }
            if case .value(let current) = object.slots[position], current == converted { continue }
            object.setAttributeValue(converted, at: position, notify: false)
        }
    }

    /// A derived value as the attribute at `position` holds it; nil when the position is not a
    /// derived attribute.
    ///
    /// - Throws: ``ObjectAccessError`` when the attribute cannot hold the value (an integer
    ///   sum beyond the attribute's type, say): never silent garbage.
    static func converted(
        _ raw: AttributeValue, at position: Int, of schema: EntitySchema, derivation: Derivation
    ) throws -> AttributeValue? {
        guard case .derivedAttribute(let type) = schema.plans[position].kind else { return nil }
        // A value already of the attribute's kind needs no trip through `Any`.
        if raw.isStored(as: type) { return raw }
        guard case .attribute(let attribute) = schema.properties[position] else { return nil }
        do {
            return try AttributeValue.coerce(raw.anyValue, to: attribute)
        } catch {
            throw ObjectAccessError(
                entity: schema.name, key: attribute.name,
                reason: "it derives '\(derivation)', whose value \(raw) does not fit: \(error)")
        }
    }

    private static func value(of derivation: Derivation, on object: ManagedObject) throws(DecimalSumError) -> AttributeValue {
        func attribute(_ key: String, of object: ManagedObject) -> AttributeValue {
            guard let position = object.schema.propertyIndex[key] else { return .null }
            return object.attributeValue(at: position)
        }
        switch derivation {
        case .canonical(let key):
            guard case .string(let s) = attribute(key, of: object) else { return .null }
            return .string(CanonicalText.fold(s))
        case .lowercase(let key):
            guard case .string(let s) = attribute(key, of: object) else { return .null }
            return .string(s.lowercased())
        case .uppercase(let key):
            guard case .string(let s) = attribute(key, of: object) else { return .null }
            return .string(s.uppercased())
        case .now:
            return .date(Date())
        case .keyPath(let path):
            var current: ManagedObject? = object
            for key in path.dropLast() { current = current?.object(forKey: key) }
            guard let current, let last = path.last else { return .null }
            return attribute(last, of: current)
        case .count(let relationship):
            return .integer(Int64(object.objects(forKey: relationship).count))
        case .sum(let relationship, let key):
            return try AttributeValue.sum(of: object.objects(forKey: relationship).lazy.map { attribute(key, of: $0) })
        }
    }

}

extension AttributeValue {
    /// Whether an attribute of `type` holds this value as it is: what
    /// `coerce(_:to:)` would return unchanged (a Float attribute rounds, so only Double).
    fileprivate func isStored(as type: AttributeType) -> Bool {
        switch (self, type) {
        case (.null, _): return true
        case (.string, .string), (.decimal, .decimal), (.date, .date), (.double, .double): return true
        case (.integer, .integer16), (.integer, .integer32), (.integer, .integer64): return true
        default: return false
        }
    }
}
