import Foundation

/// What the per-object paths (typed setters, validation, row encoding) need to know about
/// one property of a resolved entity, flattened out of `SchemaProperty`.
///
/// Reading `schema.properties[position]` copies the enum's payload (an
/// `AttributeDescription` holds a dozen strings and arrays, each retained and released), and
/// a save did that several times per object and property. An entity's plans are built once,
/// when its schema is resolved (see `EntitySchema.plans`), and hold only small values.
package struct PropertyPlan: Sendable {
    /// What kind of property it is.
    package enum Kind: Sendable, Equatable {
        /// An attribute that a setter may change.
        case attribute(AttributeType)
        /// A derived attribute: read-only, computed on save.
        case derivedAttribute(AttributeType)
        /// A to-one relationship.
        case toOne
        /// A to-many relationship.
        case toMany
    }

    /// The property's name.
    package let name: String
    /// The kind of property, with an attribute's type.
    package let kind: Kind
    /// Whether a nil value (an attribute) or no destination (a to-one) is allowed.
    package let isOptional: Bool
    /// Whether the property lives only in memory.
    package let isTransient: Bool
    /// Whether validation needs more than a nil or empty check: for an attribute, an
    /// integer range, bounds, a pattern or validation predicates; for a relationship, a minimum or maximum count.
    /// Most properties need none.
    package let needsValueCheck: Bool
    /// For a relationship: the name of its inverse on the destination, if any.
    package let inverseName: String?
    /// For an attribute: its default value, parsed once (nil for none or a relationship).
    package let defaultValue: AttributeValue?
    /// For a String attribute: the regular expression its values must match in full.
    package let pattern: String?

    /// Flattens one property; `bounded` says whether the entity parsed bounds for it.
    init(_ property: SchemaProperty, bounded: Bool) {
        switch property {
        case .attribute(let a):
            name = a.name
            kind = a.isDerived ? .derivedAttribute(a.type) : .attribute(a.type)
            isOptional = a.isOptional
            isTransient = a.isTransient
            needsValueCheck =
                bounded || a.type.integerRange != nil || a.regularExpressionString != nil
                || !a.validationPredicates.isEmpty
            inverseName = nil
            defaultValue = a.defaultValue
            pattern = a.regularExpressionString
        case .relationship(let r):
            name = r.name
            kind = r.isToMany ? .toMany : .toOne
            isOptional = r.isOptional
            isTransient = r.isTransient
            needsValueCheck = r.minCount > 0 || r.maxCount > 0
            inverseName = r.inverseName
            defaultValue = nil
            pattern = nil
        }
    }

    /// The attribute's type when a setter may change it (not derived); nil otherwise.
    package var settableAttributeType: AttributeType? {
        if case .attribute(let type) = kind { return type }
        return nil
    }

    /// The attribute's type, derived or not; nil for a relationship.
    package var attributeType: AttributeType? {
        switch kind {
        case .attribute(let type), .derivedAttribute(let type): return type
        case .toOne, .toMany: return nil
        }
    }

    /// Whether the property is an attribute, derived or not.
    package var isAttribute: Bool {
        switch kind {
        case .attribute, .derivedAttribute: return true
        case .toOne, .toMany: return false
        }
    }
}

extension EntitySchema {
    /// The plans of `properties`, position for position.
    static func plans(for properties: [SchemaProperty], bounds: [Int: (minimum: Decimal?, maximum: Decimal?)]) -> [PropertyPlan] {
        properties.enumerated().map { position, property in
            PropertyPlan(property, bounded: bounds[position] != nil)
        }
    }
}
