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
/// fetched properties, fetch request templates and configurations naming unknown entities.
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
        "entity", "entityName", "objectID", "managedObjectContext", "context", "values",
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

    private let entities: [EntityDescription]
    private let byName: [String: EntityDescription]

    /// Checks `model` at once; read `errors` and `warnings`.
    package init(_ model: ManagedObjectModel) {
        entities = model.entities.sorted { $0.name < $1.name }
        byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var counts: [String: Int] = [:]
        for entity in entities { counts[entity.name, default: 0] += 1 }
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            error(name, nil, "is defined \(count) times; entity names must be unique")
        }
        var checked = Set<String>()
        for entity in entities where checked.insert(entity.name).inserted { check(entity) }
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
    }

    // MARK: - Entities

    private mutating func check(_ entity: EntityDescription) {
        if entity.name.isEmpty { error(nil, nil, "an entity has no name") }
        let ancestors = checkedAncestors(of: entity)
        let inherited = properties(of: ancestors)
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
            if let owner = ancestors.first(where: { owns($0, name) }) {
                error(
                    entity.name, name,
                    "is already inherited from \(owner.name); a sub-entity "
                        + "can't declare a property of the same name")
            }
            if Self.reservedPropertyNames.contains(name) {
                error(
                    entity.name, name,
                    "collides with ManagedObject's member '\(name)'; "
                        + "choose another name")
            }
        }
        var all = inherited
        for attribute in entity.attributes where all[attribute.name] == nil {
            all[attribute.name] = .attribute(attribute)
        }
        for relationship in entity.relationships where all[relationship.name] == nil {
            all[relationship.name] = .relationship(relationship)
        }
        for attribute in entity.attributes { check(attribute, in: entity, properties: all) }
        for relationship in entity.relationships {
            check(relationship, in: entity, ancestors: ancestors)
        }
        for property in entity.fetchedProperties where byName[property.entityName] == nil {
            error(entity.name, property.name, "fetches an unknown entity '\(property.entityName)'")
        }
        for constraint in entity.uniquenessConstraints {
            let listed = "uniqueness constraint (\(constraint.joined(separator: ", ")))"
            if constraint.isEmpty { error(entity.name, nil, "has an empty uniqueness constraint") }
            for name in constraint { checkIndexed(name, in: entity, all, listed) }
        }
        for index in entity.compoundIndexes {
            let listed = "compound index (\(index.joined(separator: ", ")))"
            if index.isEmpty { error(entity.name, nil, "has an empty compound index") }
            for name in index { checkIndexed(name, in: entity, all, listed) }
        }
        for index in entity.fetchIndexes {
            if index.elements.isEmpty {
                error(entity.name, nil, "fetch index '\(index.name)' has no elements")
            }
            for element in index.elements {
                checkIndexed(element.property, in: entity, all, "fetch index '\(index.name)'")
            }
        }
    }

    /// The entity's ancestors, nearest first, reporting an unknown parent or a cycle.
    private mutating func checkedAncestors(of entity: EntityDescription) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var names = [entity.name]
        var next = entity.parentEntityName
        while let parentName = next {
            if names.contains(parentName) {
                let cycle = (names + [parentName]).joined(separator: " → ")
                let role = parentName == entity.name ? "is part of" : "inherits from"
                error(entity.name, nil, "\(role) an inheritance cycle (\(cycle))")
                return chain
            }
            guard let parent = byName[parentName] else {
                if chain.isEmpty {
                    error(entity.name, nil, "names an unknown parent entity '\(parentName)'")
                }
                return chain
            }
            chain.append(parent)
            names.append(parentName)
            next = parent.parentEntityName
        }
        return chain
    }

    /// Every property of the given entities, nearest entity winning on a name clash.
    private func properties(of chain: [EntityDescription]) -> [String: SchemaProperty] {
        var result: [String: SchemaProperty] = [:]
        for entity in chain {
            for attribute in entity.attributes where result[attribute.name] == nil {
                result[attribute.name] = .attribute(attribute)
            }
            for relationship in entity.relationships where result[relationship.name] == nil {
                result[relationship.name] = .relationship(relationship)
            }
        }
        return result
    }

    /// Every property of the named entity, its own and inherited (empty when unknown).
    private func resolvedProperties(of name: String) -> [String: SchemaProperty] {
        guard let entity = byName[name] else { return [:] }
        var chain = [entity]
        var next = entity.parentEntityName
        while let parentName = next, let parent = byName[parentName],
            !chain.contains(where: { $0.name == parentName })
        {
            chain.append(parent)
            next = parent.parentEntityName
        }
        return properties(of: chain)
    }

    private func owns(_ entity: EntityDescription, _ name: String) -> Bool {
        entity.attributes.contains { $0.name == name }
            || entity.relationships.contains { $0.name == name }
            || entity.fetchedProperties.contains { $0.name == name }
    }

    /// Checks one property named by a constraint or an index.
    private mutating func checkIndexed(
        _ name: String, in entity: EntityDescription, _ all: [String: SchemaProperty],
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
        ancestors: [EntityDescription]
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
        switch resolvedProperties(of: destination)[inverseName] {
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
            let acceptable = [entity.name] + ancestors.map(\.name)
            if !acceptable.contains(inverse.destinationEntityName) {
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

    // MARK: - Attributes

    private mutating func check(
        _ attribute: AttributeDescription, in entity: EntityDescription,
        properties: [String: SchemaProperty]
    ) {
        let name = attribute.name
        if attribute.type == .undefined {
            error(entity.name, name, "has the type Undefined; choose an attribute type")
        }
        if attribute.isIndexed && attribute.isTransient {
            error(
                entity.name, name,
                "is indexed but transient: a transient attribute has no column "
                    + "to index")
        }
        var defaultValue: AttributeValue?
        if let text = attribute.defaultValueString, attribute.type != .undefined {
            do {
                defaultValue = try AttributeDescription.modelValue(
                    parsing: text, as: attribute.type)
            } catch {
                self.error(
                    entity.name, name,
                    "has a default value that is not valid for \(attribute.type.rawValue): "
                        + error.reason)
            }
        }
        checkRange(of: attribute, defaultValue: defaultValue, in: entity)
        if let pattern = attribute.regularExpressionString {
            if attribute.type != .string {
                error(
                    entity.name, name,
                    "has a regular expression but is \(attribute.type.rawValue), "
                        + "not String")
            }
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                self.error(entity.name, name, "has an invalid regular expression '\(pattern)'")
            }
        }
        if attribute.validationPredicates.count != attribute.validationWarnings.count {
            error(
                entity.name, name,
                "has \(attribute.validationPredicates.count) validation "
                    + "predicates but \(attribute.validationWarnings.count) validation warnings; they "
                    + "pair up by position")
        }
        if let expression = attribute.derivationExpression {
            checkDerivation(expression, of: attribute, in: entity, properties: properties)
        }
    }

    /// A minimum or maximum, or a default, on one scale.
    private enum Bound: Comparable {
        case exact(Decimal)
        case approximate(Double)

        static func < (lhs: Bound, rhs: Bound) -> Bool {
            switch (lhs, rhs) {
            case (.exact(let a), .exact(let b)): return a < b
            case (.approximate(let a), .approximate(let b)): return a < b
            default: return false
            }
        }
    }

    private mutating func checkRange(
        of attribute: AttributeDescription, defaultValue: AttributeValue?,
        in entity: EntityDescription
    ) {
        let type = attribute.type
        func bound(_ text: String?, _ which: String) -> Bound? {
            guard let text else { return nil }
            switch type {
            case .integer16, .integer32, .integer64:
                if let value = Int64(text) { return .exact(Decimal(value)) }
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)' that is not a whole number")
            case .decimal:
                if let value = try? DecimalText.parse(text) { return .exact(value) }
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)' that is not a decimal number")
            case .double, .float, .date:
                if let value = AttributeDescription.finiteNumber(text) {
                    return .approximate(value)
                }
                let unit = type == .date ? " of seconds since 2001-01-01" : ""
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)' that is not a number\(unit)")
            case .string, .binaryData:
                if let value = Int(text), value >= 0 { return .exact(Decimal(value)) }
                error(
                    entity.name, attribute.name,
                    "has a \(which) length '\(text)' that is not a "
                        + "whole number of 0 or more")
            default:
                error(
                    entity.name, attribute.name,
                    "has a \(which) '\(text)', but \(type.rawValue) "
                        + "attributes have no range")
            }
            return nil
        }
        let minimum = bound(attribute.minValueString, "minimum")
        let maximum = bound(attribute.maxValueString, "maximum")
        if let minimum, let maximum, maximum < minimum {
            error(
                entity.name, attribute.name,
                "has a minimum \(attribute.minValueString ?? "") "
                    + "greater than its maximum \(attribute.maxValueString ?? "")")
        }
        let value: Bound?
        switch defaultValue {
        case .integer(let v)?: value = .exact(Decimal(v))
        case .decimal(let v)?: value = .exact(v)
        case .double(let v)? where v.isFinite: value = .approximate(v)
        case .date(let v)?: value = .approximate(v.timeIntervalSinceReferenceDate)
        default: value = nil
        }
        guard let value, let text = attribute.defaultValueString else { return }
        if let minimum, value < minimum {
            error(
                entity.name, attribute.name,
                "has a default \(text) below its minimum "
                    + (attribute.minValueString ?? ""))
        }
        if let maximum, maximum < value {
            error(
                entity.name, attribute.name,
                "has a default \(text) above its maximum "
                    + (attribute.maxValueString ?? ""))
        }
    }

    // MARK: - Derivations

    private mutating func checkDerivation(
        _ expression: String, of attribute: AttributeDescription, in entity: EntityDescription,
        properties: [String: SchemaProperty]
    ) {
        let name = attribute.name
        let derivation: Derivation
        do {
            derivation = try Derivation(parsing: expression)
        } catch {
            self.error(entity.name, name, "has a derivation that does not parse: \(error)")
            return
        }
        func fail(_ message: String) {
            error(entity.name, name, "derives '\(expression)', but \(message)")
        }
        if derivation.sourceKeys.contains(name) { fail("an attribute can't derive from itself") }
        switch derivation {
        case .canonical(let key), .lowercase(let key), .uppercase(let key):
            guard case .attribute(let source)? = properties[key] else {
                fail("\(entity.name) has no attribute '\(key)'")
                return
            }
            if source.type != .string {
                fail("'\(key)' is \(source.type.rawValue), not String")
            }
            if attribute.type != .string {
                fail("the result is a String and the attribute is \(attribute.type.rawValue)")
            }
        case .now:
            if attribute.type != .date {
                fail("now() gives a Date and the attribute is \(attribute.type.rawValue)")
            }
        case .keyPath(let path):
            var current = properties
            var owner = entity.name
            for (position, key) in path.enumerated() {
                let isLast = position == path.count - 1
                switch current[key] {
                case nil:
                    fail("\(owner) has no property '\(key)'")
                    return
                case .attribute?:
                    if !isLast {
                        fail(
                            "'\(key)' is an attribute of \(owner); only to-one relationships can "
                                + "lead further")
                        return
                    }
                case .relationship(let step)?:
                    if isLast {
                        fail("the key path ends at the relationship '\(key)', not an attribute")
                    } else if step.isToMany {
                        fail(
                            "'\(key)' is a to-many relationship of \(owner); a key path needs to-one "
                                + "steps (use @count or @sum for to-many)")
                        return
                    }
                    owner = step.destinationEntityName
                    current = resolvedProperties(of: owner)
                }
            }
        case .count(let key), .sum(let key, _):
            guard case .relationship(let relationship)? = properties[key], relationship.isToMany
            else {
                fail("\(entity.name) has no to-many relationship '\(key)'")
                return
            }
            if case .sum(_, let summed) = derivation {
                let destination = relationship.destinationEntityName
                guard case .attribute(let target)? = resolvedProperties(of: destination)[summed],
                    target.type.isNumeric
                else {
                    fail("\(destination) has no numeric attribute '\(summed)'")
                    return
                }
                if !attribute.type.isNumeric {
                    fail("a sum is a number and the attribute is \(attribute.type.rawValue)")
                }
            } else if !attribute.type.isInteger {
                fail("a count is an integer and the attribute is \(attribute.type.rawValue)")
            }
        }
    }

    // MARK: - Reporting

    private mutating func error(_ entity: String?, _ property: String?, _ message: String) {
        errors.append(ModelProblem(entity: entity, property: property, message: message))
    }

    private mutating func warning(_ entity: String?, _ property: String?, _ message: String) {
        warnings.append(ModelProblem(entity: entity, property: property, message: message))
    }
}
