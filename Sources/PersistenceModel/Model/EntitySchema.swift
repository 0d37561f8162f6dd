import Foundation

/// A property of a resolved entity: an attribute or a relationship.
package enum SchemaProperty: Sendable, Hashable {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)

    /// The property's name.
    package var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        }
    }

    /// Whether the property lives only in memory.
    package var isTransient: Bool {
        switch self {
        case .attribute(let a): return a.isTransient
        case .relationship(let r): return r.isTransient
        }
    }
}

/// An entity resolved against its model: inherited properties in place, every property at a
/// fixed position, sub-entities known. Built once, when the model freezes, so that objects
/// keep their values in flat arrays and names resolve to positions without a search.
package final class EntitySchema: Sendable {
    /// The entity's own description.
    package let entity: EntityDescription
    /// The entity's name.
    package let name: String
    /// The entity's ancestors, nearest first (empty for a root entity).
    package let ancestors: [String]
    /// The root of the entity's inheritance hierarchy, whose table holds its objects.
    package let rootName: String
    /// Every property, inherited ones first (root's first), then the entity's own;
    /// attributes before relationships at each level.
    package let properties: [SchemaProperty]
    /// Each property's position in `properties`, by name.
    package let propertyIndex: PropertyIndex
    /// Each property's name, by position: to check a position generated code was given.
    package let propertyNames: [String]
    /// The entity and all its descendants, transitively (the entity first).
    package let hierarchyNames: [String]
    /// Unique constraints, the entity's own and inherited ones.
    package let uniquenessConstraints: [[String]]
    /// The derived attributes' parsed expressions, by property position (parsed once here,
    /// not on every save; validation has already refused expressions that do not parse).
    package let derivations: [(position: Int, derivation: Derivation)]
    /// Each attribute's `minValueString`/`maxValueString`, parsed, by property position.
    package let bounds: [Int: (minimum: Decimal?, maximum: Decimal?)]
    /// Each property flattened for the per-object paths (see `PropertyPlan`), by position.
    package let plans: [PropertyPlan]
    /// The positions of the transient attributes (those below 64), a bit each.
    package let transientAttributePositions: UInt64
    /// The positions of the relationships, in order: what deleting an object walks (its
    /// delete rules), without copying each attribute's description on the way.
    package let relationshipPositions: [Int]
    /// The positions of the attributes marked "preserve after deletion", whose values a
    /// deleted object's tombstone keeps; empty for most entities, whose deletes then
    /// record no tombstone.
    package let preservedAttributePositions: [Int]
    /// Each attribute's validation predicates, parsed once, with the warning shown when one
    /// fails, by property position (predicates that do not parse are left out: validation
    /// refuses them).
    package let validationPredicates: [Int: [(predicate: FetchPredicate, warning: String)]]

    init(
        entity: EntityDescription, ancestors: [String], properties: [SchemaProperty],
        hierarchyNames: [String], uniquenessConstraints: [[String]]
    ) {
        self.entity = entity
        self.name = entity.name
        self.ancestors = ancestors
        self.rootName = ancestors.last ?? entity.name
        self.properties = properties
        self.propertyNames = properties.map(\.name)
        self.propertyIndex = PropertyIndex(names: propertyNames)
        self.hierarchyNames = hierarchyNames
        self.uniquenessConstraints = uniquenessConstraints
        var derivations: [(position: Int, derivation: Derivation)] = []
        var bounds: [Int: (minimum: Decimal?, maximum: Decimal?)] = [:]
        var predicates: [Int: [(predicate: FetchPredicate, warning: String)]] = [:]
        for (position, property) in properties.enumerated() {
            guard case .attribute(let a) = property else { continue }
            for (index, format) in a.validationPredicates.enumerated() {
                guard let predicate = try? FetchPredicate(format) else { continue }
                let warning = a.validationWarnings.indices.contains(index) ? a.validationWarnings[index] : ""
                predicates[position, default: []].append((predicate, warning))
            }
            if let expression = a.derivationExpression, let derivation = try? Derivation(parsing: expression) {
                derivations.append((position, derivation))
            }
            let minimum = a.minValueString.flatMap { try? DecimalText.parse($0) }
            let maximum = a.maxValueString.flatMap { try? DecimalText.parse($0) }
            if minimum != nil || maximum != nil { bounds[position] = (minimum, maximum) }
        }
        self.derivations = derivations
        self.bounds = bounds
        self.validationPredicates = predicates
        self.plans = Self.plans(for: properties, bounds: bounds)
        var transients: UInt64 = 0
        for (position, property) in properties.enumerated().prefix(64) {
            if case .attribute(let a) = property, a.isTransient { transients |= 1 << UInt64(position) }
        }
        self.transientAttributePositions = transients
        var relationships: [Int] = []
        var preserved: [Int] = []
        for (position, property) in properties.enumerated() {
            switch property {
            case .relationship: relationships.append(position)
            case .attribute(let a) where a.preservesValueInHistoryOnDeletion: preserved.append(position)
            case .attribute: continue
            }
        }
        self.relationshipPositions = relationships
        self.preservedAttributePositions = preserved
    }

    /// Whether the entity cannot have instances of its own.
    package var isAbstract: Bool { entity.isAbstract }

    /// The attribute with this name (own or inherited), if any.
    package func attribute(named name: String) -> AttributeDescription? {
        guard let position = propertyIndex[name], case .attribute(let a) = properties[position]
        else { return nil }
        return a
    }

    /// The relationship with this name (own or inherited), if any.
    package func relationship(named name: String) -> RelationshipDescription? {
        guard let position = propertyIndex[name], case .relationship(let r) = properties[position]
        else { return nil }
        return r
    }

    /// Whether `other` is this entity or one of its descendants.
    package func includes(_ other: String) -> Bool { hierarchyNames.contains(other) }

    /// Whether this entity is `name` or one of its descendants: an object of it can stand
    /// where a `name` is expected.
    package func isKind(of name: String) -> Bool { self.name == name || ancestors.contains(name) }

    /// Resolves every entity of a valid model.
    ///
    /// Each entity's ancestors, properties and constraints extend its parent's, which are
    /// resolved first, so the work follows the size of what is built rather than walking
    /// every chain again for each entity in it.
    ///
    /// - Throws: `ModelError` for an unknown parent or an inheritance cycle (validation
    ///   reports these first; this is the last line of defence).
    package static func resolve(_ entities: [EntityDescription]) throws -> [String: EntitySchema] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var children: [String: [String]] = [:]
        for entity in byName.values {
            if let parent = entity.parentEntityName { children[parent, default: []].append(entity.name) }
        }
        for name in children.keys { children[name]?.sort() }
        /// One entity's inherited state, as its sub-entities extend it.
        struct Resolved {
            var ancestors: [String]
            var properties: [SchemaProperty]
            var constraints: [[String]]
        }
        var resolved: [String: Resolved] = [:]
        for entity in byName.values where resolved[entity.name] == nil {
            // Walk up to a resolved ancestor (or the root), then resolve back down.
            var pending: [EntityDescription] = []
            var onWalk: Set<String> = []
            var next: EntityDescription? = entity
            while let current = next, resolved[current.name] == nil {
                guard onWalk.insert(current.name).inserted else {
                    throw ModelError(entity: current.name, "is part of an inheritance cycle")
                }
                pending.append(current)
                guard let parentName = current.parentEntityName else { break }
                guard let parent = byName[parentName] else {
                    throw ModelError(entity: current.name, "names an unknown parent entity '\(parentName)'")
                }
                next = parent
            }
            for current in pending.reversed() {
                var state =
                    current.parentEntityName.flatMap { parent in
                        resolved[parent].map {
                            Resolved(
                                ancestors: [parent] + $0.ancestors, properties: $0.properties,
                                constraints: $0.constraints)
                        }
                    } ?? Resolved(ancestors: [], properties: [], constraints: [])
                state.properties += current.attributes.map(SchemaProperty.attribute)
                state.properties += current.relationships.map(SchemaProperty.relationship)
                state.constraints += current.uniquenessConstraints
                resolved[current.name] = state
            }
        }
        var result: [String: EntitySchema] = [:]
        for entity in byName.values {
            guard let state = resolved[entity.name] else { continue }
            // The entity, then its descendants level by level, each level's children by name.
            var hierarchy = [entity.name]
            var seen: Set<String> = [entity.name]
            var position = 0
            while position < hierarchy.count {
                for child in children[hierarchy[position]] ?? [] where seen.insert(child).inserted {
                    hierarchy.append(child)
                }
                position += 1
            }
            result[entity.name] = EntitySchema(
                entity: entity, ancestors: state.ancestors, properties: state.properties,
                hierarchyNames: hierarchy, uniquenessConstraints: state.constraints)
        }
        return result
    }
}
