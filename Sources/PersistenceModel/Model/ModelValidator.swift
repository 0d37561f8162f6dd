import Foundation

/// Checks a model and lists every problem (errors) and every doubtful point (warnings), each
/// with its entity and property.
///
/// Errors: duplicate entity names; unknown parents and inheritance cycles; duplicate property
/// names, inherited ones included; names reserved by `ManagedObject`; unknown destinations;
/// inverses that are missing, not relationships, or do not point back; uniqueness
/// constraints, compound indexes and fetch indexes naming unknown, transient or to-many
/// properties; `indexed` on a transient property; derivations that do not parse or name
/// unknown keys; defaults, minimums and maximums that are not of the type; minimum above
/// maximum; invalid regular expressions; validation predicates and warnings of unequal
/// counts; the type Undefined; an ordered to-one; minCount above maxCount (0 = no limit);
/// fetch index elements of a type other than `Binary` (an R-tree); validation predicates that
/// do not parse, read a key the value has not got, or compare it with a value of another
/// type; fetched properties, fetch request templates and configurations naming unknown
/// entities.
///
/// Warnings: a relationship without an inverse. An abstract entity without sub-entities is
/// fine.
package struct ModelValidator {
    /// Names a property can't have because `ManagedObject` (like Core Data's
    /// `NSManagedObject` and `NSObject`) already has a parameterless member of that name:
    /// a property so named would be shadowed or would break key-value access. Core Data
    /// warns about the same names.
    package static let reservedPropertyNames: Set<String> = [
        // Identity and description (NSObject).
        "description", "debugDescription", "hash", "hashValue", "self", "class", "superclass",
        "isProxy", "copy", "mutableCopy", "init", "zone", "retainCount", "autorelease",
        // The managed object's own state.
        "entity", "entityName", "objectID", "managedObjectContext", "values",
        "isDeleted", "isInserted", "isUpdated", "hasChanges", "isFault", "faultingState",
        "hasPersistentChangedValues", "changedValues", "changedValuesForCurrentEvent",
        "committedValues",
        // Life-cycle hooks a subclass overrides.
        "awakeFromFetch", "awakeFromInsert", "willSave", "didSave", "willTurnIntoFault",
        "didTurnIntoFault", "prepareForDeletion", "validateForInsert", "validateForUpdate",
        "validateForDelete",
    ]

    /// Problems that make the model unusable.
    package private(set) var errors: [ModelProblem] = []
    /// Doubtful points that do not stop the model from working.
    package private(set) var warnings: [ModelProblem] = []

    /// The entities, by name order (duplicates included).
    let entities: [EntityDescription]
    private let byName: [String: EntityDescription]
    /// Each entity's own attributes and relationships by name (attributes winning a clash).
    private let ownProperties: [String: [String: SchemaProperty]]
    /// `resolvedProperty(_:of:)`'s answers, by entity and then property name.
    private var resolved: [String: [String: SchemaProperty?]] = [:]

    /// Checks `model` at once; read `errors` and `warnings`.
    ///
    /// The work grows with the size of the model, never with its square: entities are
    /// checked walking down the inheritance tree with the inherited properties at hand, so
    /// that a chain of thousands of entities does not collect each entity's ancestors anew.
    package init(_ model: ManagedObjectModel) {
        entities = model.entities.sorted { $0.name < $1.name }
        byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var own: [String: [String: SchemaProperty]] = [:]
        for entity in byName.values {
            var properties: [String: SchemaProperty] = [:]
            for attribute in entity.attributes where properties[attribute.name] == nil {
                properties[attribute.name] = .attribute(attribute)
            }
            for relationship in entity.relationships where properties[relationship.name] == nil {
                properties[relationship.name] = .relationship(relationship)
            }
            own[entity.name] = properties
        }
        ownProperties = own
        var counts: [String: Int] = [:]
        for entity in entities { counts[entity.name, default: 0] += 1 }
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            error(name, nil, "is defined \(count) times; entity names must be unique")
        }
        checkEntities()
        for template in model.fetchRequestTemplates.sorted(by: { $0.name < $1.name })
        where byName[template.entityName] == nil {
            error(
                nil, nil,
                "fetch request template '\(template.name)' names an unknown entity "
                    + "'\(template.entityName)'")
        }
        for (name, members) in model.configurations.sorted(by: { $0.key < $1.key }) {
            for member in members where byName[member] == nil {
                error(nil, nil, "configuration '\(name)' names an unknown entity '\(member)'")
            }
        }
        checkStoreNames()
    }

    // MARK: - Entities

    /// Checks every entity once, parents before children, and reports each entity's
    /// problems in name order.
    ///
    /// An entity whose parent is unknown or whose ancestry loops is checked as a root (its
    /// inheritance problem reported); the others are visited depth first from their roots,
    /// keeping the properties the path down declares in `inherited`, so an entity finds what
    /// it inherits by a dictionary lookup.
    private mutating func checkEntities() {
        let names = byName.keys.sorted()
        var children: [String: [String]] = [:]
        var roots: [String] = []
        let looping = Self.loopingEntities(byName)
        for name in names {
            let entity = byName[name]!
            if let parent = entity.parentEntityName, byName[parent] != nil, !looping.contains(name) {
                children[parent, default: []].append(name)
            } else {
                roots.append(name)
            }
        }
        var found: [String: [ModelProblem]] = [:]
        /// The properties declared along the path from the root, with the entity declaring
        /// each (the nearest, when a sub-entity wrongly declares one again); a fetched
        /// property has a name but no property here.
        var inherited: [String: (property: SchemaProperty?, owner: String)] = [:]
        var path: Set<String> = []
        enum Step { case enter(String), leave(String, undo: [(String, (property: SchemaProperty?, owner: String)?)]) }
        var steps = roots.reversed().map(Step.enter)
        while let step = steps.popLast() {
            switch step {
            case .enter(let name):
                let entity = byName[name]!
                let start = errors.count
                check(entity, inherited: inherited, path: path, loops: looping.contains(name))
                found[name] = Array(errors[start...])
                errors.removeSubrange(start...)
                var undo: [(String, (property: SchemaProperty?, owner: String)?)] = []
                let declared =
                    entity.attributes.map { ($0.name, SchemaProperty?.some(.attribute($0))) }
                    + entity.relationships.map { ($0.name, SchemaProperty?.some(.relationship($0))) }
                    + entity.fetchedProperties.map { ($0.name, SchemaProperty?.none) }
                for (property, value) in declared {
                    undo.append((property, inherited[property]))
                    inherited[property] = (value, name)
                }
                path.insert(name)
                steps.append(.leave(name, undo: undo))
                steps += (children[name] ?? []).reversed().map(Step.enter)
            case .leave(let name, let undo):
                path.remove(name)
                for (property, previous) in undo.reversed() { inherited[property] = previous }
            }
        }
        for name in names { errors += found[name] ?? [] }
    }

    /// The entities whose ancestry comes back to an entity already passed (they are in a
    /// loop or lead into one). Each entity joins one walk only: later walks stop at an entity
    /// already judged.
    private static func loopingEntities(_ byName: [String: EntityDescription]) -> Set<String> {
        var judged: [String: Bool] = [:]
        for start in byName.keys where judged[start] == nil {
            var walked: [String] = []
            var onWalk: Set<String> = []
            var loops = false
            var next: String? = start
            while let name = next {
                if let known = judged[name] {
                    loops = known
                    break
                }
                guard let entity = byName[name] else { break }
                guard onWalk.insert(name).inserted else {
                    loops = true
                    break
                }
                walked.append(name)
                next = entity.parentEntityName
            }
            for name in walked { judged[name] = loops }
        }
        return Set(judged.filter(\.value).keys)
    }

    private mutating func check(
        _ entity: EntityDescription,
        inherited: [String: (property: SchemaProperty?, owner: String)], path: Set<String>,
        loops: Bool
    ) {
        if entity.name.isEmpty { error(nil, nil, "an entity has no name") }
        if let parent = entity.parentEntityName, loops || byName[parent] == nil {
            reportBrokenAncestry(of: entity)
        }
        var seen: [String: Int] = [:]
        let ownNames =
            entity.attributes.map(\.name) + entity.relationships.map(\.name)
            + entity.fetchedProperties.map(\.name)
        for name in ownNames { seen[name, default: 0] += 1 }
        for name in Set(ownNames).sorted() {
            if name.isEmpty { error(entity.name, nil, "has a property with no name") }
            if let count = seen[name], count > 1 {
                error(entity.name, name, "is declared \(count) times in \(entity.name)")
            }
            if let owner = inherited[name]?.owner {
                error(
                    entity.name, name,
                    "is already inherited from \(owner); a sub-entity "
                        + "can't declare a property of the same name")
            }
            if Self.reservedPropertyNames.contains(name) {
                error(
                    entity.name, name,
                    "collides with ManagedObject's member '\(name)'; "
                        + "choose another name")
            }
        }
        let lookup = PropertyLookup(own: ownProperties[entity.name] ?? [:], inherited: inherited)
        for attribute in entity.attributes { check(attribute, in: entity, properties: lookup) }
        for relationship in entity.relationships {
            check(relationship, in: entity, ancestors: path)
        }
        for property in entity.fetchedProperties where byName[property.entityName] == nil {
            error(entity.name, property.name, "fetches an unknown entity '\(property.entityName)'")
        }
        for constraint in entity.uniquenessConstraints {
            let listed = "uniqueness constraint (\(constraint.joined(separator: ", ")))"
            if constraint.isEmpty { error(entity.name, nil, "has an empty uniqueness constraint") }
            for name in constraint { checkIndexed(name, in: entity, lookup, listed) }
        }
        for index in entity.compoundIndexes {
            let listed = "compound index (\(index.joined(separator: ", ")))"
            if index.isEmpty { error(entity.name, nil, "has an empty compound index") }
            for name in index { checkIndexed(name, in: entity, lookup, listed) }
        }
        for index in entity.fetchIndexes {
            if index.elements.isEmpty {
                error(entity.name, nil, "fetch index '\(index.name)' has no elements")
            }
            for element in index.elements {
                checkIndexed(element.property, in: entity, lookup, "fetch index '\(index.name)'")
                // Core Data makes an R-tree index for a `RTree` element (for ranges of
                // coordinates); the SQLite store keeps B-trees only, so such a model is refused
                // rather than given an index that does not do what it says.
                if element.kind != "Binary" {
                    error(
                        entity.name, nil,
                        "fetch index '\(index.name)' has \(element.property) of type "
                            + "'\(element.kind)'; only 'Binary' (B-tree) fetch indexes are supported, "
                            + "not R-tree indexes")
                }
            }
        }
    }

    /// A property by name as an entity sees it: inherited properties first (a sub-entity
    /// cannot override one), then its own.
    struct PropertyLookup {
        let own: [String: SchemaProperty]
        let inherited: [String: (property: SchemaProperty?, owner: String)]

        subscript(name: String) -> SchemaProperty? {
            if let inheritedProperty = inherited[name]?.property { return inheritedProperty }
            return own[name]
        }
    }

    /// Reports an unknown parent or an inheritance cycle. Only entities whose ancestry is
    /// broken walk it here; the names in a message are capped so that a long loop still
    /// reads as one line.
    private mutating func reportBrokenAncestry(of entity: EntityDescription) {
        guard let parentName = entity.parentEntityName else { return }
        guard byName[parentName] != nil else {
            error(entity.name, nil, "names an unknown parent entity '\(parentName)'")
            return
        }
        var names = [entity.name]
        var seen: Set<String> = [entity.name]
        var next: String? = parentName
        while let name = next, let parent = byName[name] {
            names.append(name)
            guard seen.insert(name).inserted else {
                let shown =
                    names.count <= 12
                    ? names : Array(names.prefix(6)) + ["…"] + Array(names.suffix(5))
                let count = names.count > 12 ? " (\(names.count - 1) entities)" : ""
                let role = name == entity.name ? "is part of" : "inherits from"
                error(
                    entity.name, nil,
                    "\(role) an inheritance cycle (\(shown.joined(separator: " → ")))\(count)")
                return
            }
            next = parent.parentEntityName
        }
    }

    /// A property of the named entity, its own or inherited; nil when there is none or the
    /// entity is unknown.
    ///
    /// Answers are remembered for every entity the walk up passes, so the walks for one
    /// name cover each entity once, however many entities ask.
    mutating func resolvedProperty(_ property: String, of entityName: String) -> SchemaProperty? {
        var passed: [String] = []
        var seen: Set<String> = []
        var next: String? = entityName
        var answer: SchemaProperty?
        while let name = next, seen.insert(name).inserted {
            if let known = resolved[name]?[property] {
                answer = known
                break
            }
            guard let entity = byName[name] else { break }
            passed.append(name)
            if let own = ownProperties[name]?[property] {
                answer = own
                break
            }
            next = entity.parentEntityName
        }
        for name in passed { resolved[name, default: [:]][property] = .some(answer) }
        return answer
    }

    /// Checks one property named by a constraint or an index.
    private mutating func checkIndexed(
        _ name: String, in entity: EntityDescription, _ all: PropertyLookup,
        _ listed: String
    ) {
        switch all[name] {
        case nil:
            error(entity.name, nil, "\(listed) names an unknown property '\(name)'")
        case .attribute(let attribute)? where attribute.isTransient:
            error(
                entity.name, nil,
                "\(listed) names '\(name)', which is transient: it has no "
                    + "column to constrain or index")
        case .relationship(let relationship)?
        where relationship.isTransient || relationship.isToMany:
            let why = relationship.isTransient ? "transient" : "a to-many relationship"
            error(
                entity.name, nil,
                "\(listed) names '\(name)', which is \(why): it has no column "
                    + "to constrain or index")
        default: break
        }
    }

    // MARK: - Relationships

    private mutating func check(
        _ relationship: RelationshipDescription, in entity: EntityDescription,
        ancestors: Set<String>
    ) {
        let name = relationship.name
        if relationship.isOrdered && !relationship.isToMany {
            error(
                entity.name, name,
                "is ordered but to-one; only a to-many relationship can be ordered")
        }
        if relationship.minCount < 0 || relationship.maxCount < 0 {
            error(entity.name, name, "has a negative minCount or maxCount")
        } else if relationship.maxCount > 0 && relationship.minCount > relationship.maxCount {
            error(
                entity.name, name,
                "has minCount \(relationship.minCount) greater than maxCount "
                    + "\(relationship.maxCount)")
        }
        if relationship.isIndexed && relationship.isTransient {
            error(
                entity.name, name,
                "is indexed but transient: a transient relationship has no "
                    + "column to index")
        }
        let destination = relationship.destinationEntityName
        guard byName[destination] != nil else {
            error(entity.name, name, "names an unknown destination entity '\(destination)'")
            return
        }
        guard let inverseName = relationship.inverseName else {
            warning(
                entity.name, name,
                "has no inverse; without one, changes on the \(destination) "
                    + "side are not reflected here")
            return
        }
        switch resolvedProperty(inverseName, of: destination) {
        case nil:
            error(
                entity.name, name,
                "names an inverse '\(inverseName)' that \(destination) does not have")
        case .attribute?:
            error(
                entity.name, name,
                "names an inverse '\(inverseName)' that is an attribute of "
                    + "\(destination), not a relationship")
        case .relationship(let inverse)?:
            let back = inverse.destinationEntityName
            if back != entity.name && !ancestors.contains(back) {
                error(
                    entity.name, name,
                    "has the inverse \(destination).\(inverseName), which points "
                        + "to \(inverse.destinationEntityName), not back to \(entity.name)")
            } else if inverse.inverseName != name {
                let names =
                    inverse.inverseName.map { "names '\($0)' as its inverse" } ?? "has no inverse"
                error(
                    entity.name, name,
                    "has the inverse \(destination).\(inverseName), which "
                        + "\(names), not '\(name)'")
            }
        }
    }

    // MARK: - Reporting

    mutating func error(_ entity: String?, _ property: String?, _ message: String) {
        errors.append(ModelProblem(entity: entity, property: property, message: message))
    }

    mutating func warning(_ entity: String?, _ property: String?, _ message: String) {
        warnings.append(ModelProblem(entity: entity, property: property, message: message))
    }
}
