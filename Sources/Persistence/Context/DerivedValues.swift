import Foundation

/// Computes derived attributes during save, from their parsed derivation expressions.
enum DerivedValues {
    /// Recomputes every derived attribute of an object.
    ///
    /// - Throws: ``ObjectAccessError`` when a Decimal `@sum` leaves `Decimal`'s range.
    static func compute(_ object: ManagedObject) throws {
        for (position, derivation) in object.schema.derivations {
            guard case .attribute(let attribute) = object.schema.properties[position] else { continue }
            let raw: AttributeValue
            do {
                raw = try value(of: derivation, on: object)
            } catch {
                throw ObjectAccessError(
                    entity: object.entityName, key: attribute.name,
                    reason: "it derives '\(derivation)', but \(error)")
            }
            let converted = (try? AttributeValue.coerce(raw.anyValue, to: attribute)) ?? .null
            if case .value(let current) = object.slots[position], current == converted { continue }
            object.setAttributeValue(converted, at: position, notify: false)
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
            var integer: Int64 = 0
            var decimal = DecimalSum()
            var isDecimal = false
            for destination in object.objects(forKey: relationship) {
                switch attribute(key, of: destination) {
                case .integer(let v): integer &+= v
                case .double(let v): try decimal.add(Decimal(v)); isDecimal = true
                case .decimal(let v): try decimal.add(v); isDecimal = true
                default: break
                }
            }
            guard isDecimal else { return .integer(integer) }
            try decimal.add(Decimal(integer))
            return .decimal(decimal.total)
        }
    }
}
