import PersistenceModel

/// Infers a lightweight migration between two frozen models, the way Core Data does.
///
/// Entities and properties are matched by their renaming identifier (`elementID`) when they
/// have one, else by name: a destination element whose identifier names a source element
/// (or shares its identifier) is that element renamed. A property renamed without an
/// identifier cannot be told from a removal plus an addition, and is reported as such (the
/// removal loses data).
///
/// Supported: adding an attribute that is optional, has a default or is derived; removing
/// one; renames; optional → required (objects without a value get the default; with no
/// default the migration is refused if an object has no value, as Core Data's is);
/// required → optional; Integer and Float widening; a transformable attribute's value
/// transformer (its values are re-encoded); adding, removing and renaming relationships;
/// to-one ↔ to-many; ordered ↔ unordered; adding and removing entities; version hash
/// modifiers; indexes and uniqueness constraints. Refused (`MigrationError.cannotInfer`):
/// other type changes, a new required attribute or to-one without a default, an attribute
/// becoming a relationship or back, an entity moving in its hierarchy, a relationship
/// pointing at an unrelated entity, and two destination elements claiming one source
/// element.
package struct MigrationInference {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    private(set) var steps: [MigrationStep] = []
    /// Destination entity → source entity.
    private(set) var entityMap: [String: String] = [:]
    /// Destination entity → (destination property → source property).
    private(set) var propertyMap: [String: [String: String]] = [:]

    init(source: ManagedObjectModel, destination: ManagedObjectModel) {
        self.source = source
        self.destination = destination
    }

    mutating func run() throws {
        try matchEntities()
        let destinations = destination.entities.sorted { $0.name < $1.name }
        for entity in destinations {
            guard let sourceName = entityMap[entity.name], let old = source.entity(named: sourceName) else {
                steps.append(MigrationStep(.addEntity, entity: entity.name, detail: "new entity; it starts with no objects"))
                continue
            }
            if sourceName != entity.name {
                steps.append(MigrationStep(
                    .renameEntity, entity: entity.name,
                    detail: "renamed from \(sourceName) (objects kept)"))
            }
            try checkParent(entity, old)
            try matchProperties(entity, old)
            compareConstraints(entity, old)
            compareIndexes(entity, old)
            if entity.versionHashModifier != old.versionHashModifier {
                steps.append(MigrationStep(
                    .changeHashModifier, entity: entity.name,
                    detail: "version hash modifier changed (no schema change)"))
            }
        }
        let kept = Set(entityMap.values)
        for old in source.entities.sorted(by: { $0.name < $1.name }) where !kept.contains(old.name) {
            steps.append(MigrationStep(
                .removeEntity, entity: old.name,
                detail: "entity removed: its objects and their values will be deleted", losesData: true))
        }
        if steps.contains(where: { !MigrationPlan.modelOnlyKinds.contains($0.kind) }) {
            addDerivedRecomputation()
        }
    }

    // MARK: - Entities

    private mutating func matchEntities() throws {
        let sources = source.entities
        var claimed: [String: String] = [:]  // source → destination
        func claim(_ destinationName: String, _ sourceName: String) throws {
            if let other = claimed[sourceName], other != destinationName {
                throw MigrationError(
                    .cannotInfer, entity: destinationName,
                    reason: "both \(other) and \(destinationName) claim the source entity \(sourceName)")
            }
            claimed[sourceName] = destinationName
            entityMap[destinationName] = sourceName
        }
        // Renaming identifiers first, so that a new entity taking an old name does not steal
        // the rows of the entity that was renamed away from it.
        for entity in destination.entities {
            guard let identifier = entity.renamingIdentifier else { continue }
            if let match = sources.first(where: { $0.name == identifier || $0.renamingIdentifier == identifier }) {
                try claim(entity.name, match.name)
            }
        }
        for entity in destination.entities where entityMap[entity.name] == nil {
            if sources.contains(where: { $0.name == entity.name }), claimed[entity.name] == nil {
                try claim(entity.name, entity.name)
            }
        }
    }

    private func checkParent(_ entity: EntityDescription, _ old: EntityDescription) throws {
        let mappedParent = entity.parentEntityName.flatMap { entityMap[$0] }
        if entity.parentEntityName != nil, mappedParent == nil {
            throw MigrationError(
                .cannotInfer, entity: entity.name,
                reason: "it moves under the new parent entity \(entity.parentEntityName ?? "")"
                    + " and moving an existing entity in its hierarchy needs a mapping model")
        }
        if mappedParent != old.parentEntityName {
            let was = old.parentEntityName.map { "under \($0)" } ?? "a root entity"
            let now = entity.parentEntityName.map { "under \($0)" } ?? "a root entity"
            throw MigrationError(
                .cannotInfer, entity: entity.name,
                reason: "it was \(was) and is now \(now); moving an entity in its hierarchy needs a "
                    + "mapping model")
        }
    }

    // MARK: - Properties

    private mutating func matchProperties(_ entity: EntityDescription, _ old: EntityDescription) throws {
        var map: [String: String] = [:]
        var used: Set<String> = []
        let oldNames = old.attributes.map(\.name) + old.relationships.map(\.name)
        let oldIdentifiers = Dictionary(
            (old.attributes.map { ($0.name, $0.renamingIdentifier) } + old.relationships.map { ($0.name, $0.renamingIdentifier) }),
            uniquingKeysWith: { a, _ in a })
        let newProperties: [(String, String?)] =
            entity.attributes.map { ($0.name, $0.renamingIdentifier) } + entity.relationships.map { ($0.name, $0.renamingIdentifier) }
        for (name, identifier) in newProperties {
            guard let identifier else { continue }
            if let match = oldNames.first(where: { $0 == identifier || oldIdentifiers[$0] == identifier }) {
                if used.contains(match) {
                    throw MigrationError(
                        .cannotInfer, entity: entity.name, property: name,
                        reason: "two properties claim the source property \(match)")
                }
                map[name] = match
                used.insert(match)
            }
        }
        for (name, _) in newProperties where map[name] == nil && oldNames.contains(name) && !used.contains(name) {
            map[name] = name
            used.insert(name)
        }
        propertyMap[entity.name] = map

        for attribute in entity.attributes {
            if let oldName = map[attribute.name] {
                guard let was = old.attribute(named: oldName) else {
                    throw MigrationError(
                        .cannotInfer, entity: entity.name, property: attribute.name,
                        reason: "the relationship \(oldName) becomes an attribute")
                }
                try compare(attribute, was, entity: entity.name)
            } else {
                try added(attribute, entity: entity.name)
            }
        }
        for relationship in entity.relationships {
            if let oldName = map[relationship.name] {
                guard let was = old.relationship(named: oldName) else {
                    throw MigrationError(
                        .cannotInfer, entity: entity.name, property: relationship.name,
                        reason: "the attribute \(oldName) becomes a relationship")
                }
                try compare(relationship, was, entity: entity.name)
            } else {
                try added(relationship, entity: entity.name)
            }
        }
        for name in oldNames.sorted() where !used.contains(name) {
            let removedAttribute = old.attribute(named: name)
            let stored = removedAttribute.map(\.isStored) ?? (old.relationship(named: name).map { !$0.isTransient } ?? false)
            var detail = removedAttribute != nil ? "attribute removed" : "relationship removed"
            if stored {
                detail += removedAttribute != nil ? ": its values will be deleted" : ": its links will be deleted"
                if let candidate = renameCandidate(for: name, in: old, entity: entity, map: map) {
                    detail += " (if it was renamed to \(candidate), give \(candidate) the renaming identifier '\(name)' to keep them)"
                }
            }
            steps.append(MigrationStep(
                removedAttribute != nil ? .removeAttribute : .removeRelationship,
                entity: entity.name, property: name, detail: detail, losesData: stored))
        }
    }

    /// A new property of the same kind and type as a removed one, which may be a rename
    /// without renaming identifier.
    private func renameCandidate(
        for name: String, in old: EntityDescription, entity: EntityDescription, map: [String: String]
    ) -> String? {
        if let was = old.attribute(named: name) {
            return entity.attributes.first { map[$0.name] == nil && $0.type == was.type }?.name
        }
        if let was = old.relationship(named: name) {
            return entity.relationships.first { map[$0.name] == nil && $0.isToMany == was.isToMany }?.name
        }
        return nil
    }

    private mutating func added(_ attribute: AttributeDescription, entity: String) throws {
        guard attribute.isStored else {
            steps.append(MigrationStep(.addAttribute, entity: entity, property: attribute.name, detail: "new transient attribute (no column)"))
            return
        }
        if attribute.isDerived {
            steps.append(MigrationStep(.addAttribute, entity: entity, property: attribute.name, detail: "new derived attribute, computed from its sources"))
            return
        }
        if let value = attribute.defaultValueString, attribute.defaultValue != nil {
            steps.append(MigrationStep(.addAttribute, entity: entity, property: attribute.name, detail: "new attribute; existing objects get its default value \(value)"))
        } else if attribute.isOptional {
            steps.append(MigrationStep(.addAttribute, entity: entity, property: attribute.name, detail: "new optional attribute; existing objects have no value"))
        } else {
            throw MigrationError(
                .cannotInfer, entity: entity, property: attribute.name,
                reason: "the new attribute is required but has no default value, so existing objects "
                    + "would have none; give it a default value or make it optional")
        }
    }

    private mutating func compare(_ attribute: AttributeDescription, _ was: AttributeDescription, entity: String) throws {
        let name = attribute.name
        if was.name != name {
            steps.append(MigrationStep(.renameAttribute, entity: entity, property: name, detail: "renamed from \(was.name) (values kept)"))
        }
        if was.isStored && !attribute.isStored {
            steps.append(MigrationStep(
                .changeTransience, entity: entity, property: name,
                detail: "becomes transient: its stored values will be deleted", losesData: true))
            return
        }
        if !was.isStored && attribute.isStored {
            try added(attribute, entity: entity)
            return
        }
        if !attribute.isStored { return }
        if was.type != attribute.type {
            let widening: Set<[AttributeType]> = [
                [.integer16, .integer32], [.integer16, .integer64], [.integer32, .integer64], [.float, .double],
            ]
            guard widening.contains([was.type, attribute.type]) else {
                throw MigrationError(
                    .cannotInfer, entity: entity, property: name,
                    reason: "its type changes from \(was.type.rawValue) to \(attribute.type.rawValue), which "
                        + "needs a mapping model")
            }
            steps.append(MigrationStep(
                .widenType, entity: entity, property: name,
                detail: "widened from \(was.type.rawValue) to \(attribute.type.rawValue) (values kept)"))
        }
        if attribute.isDerived { return }
        if was.isOptional && !attribute.isOptional {
            // As Core Data: without a default the migration fails only if an object has no
            // value, which only the data can tell (`MigrationExecutor.checkRequiredValues`).
            if let value = attribute.defaultValueString, attribute.defaultValue != nil {
                steps.append(MigrationStep(
                    .makeRequired, entity: entity, property: name,
                    detail: "becomes required; objects without a value get the default \(value)"))
            } else {
                steps.append(MigrationStep(
                    .makeRequired, entity: entity, property: name,
                    detail: "becomes required (no default value: refused if an object has no value)"))
            }
        } else if !was.isOptional && attribute.isOptional {
            steps.append(MigrationStep(.makeOptional, entity: entity, property: name, detail: "becomes optional"))
        }
        if attribute.type == .transformable, was.valueTransformerName != attribute.valueTransformerName {
            // Not part of the version hash (as in Core Data), so only seen with both models.
            steps.append(MigrationStep(
                .changeTransformer, entity: entity, property: name,
                detail: "value transformer changes from \(Self.transformerName(was)) to "
                    + "\(Self.transformerName(attribute)): every stored value is re-encoded"))
        }
        if was.isIndexed != attribute.isIndexed {
            steps.append(MigrationStep(
                attribute.isIndexed ? .addIndex : .removeIndex, entity: entity, property: name,
                detail: attribute.isIndexed ? "index added" : "index removed"))
        }
        if was.versionHashModifier != attribute.versionHashModifier {
            steps.append(MigrationStep(
                .changeHashModifier, entity: entity, property: name,
                detail: "version hash modifier changed (no schema change)"))
        }
    }

    /// An attribute's transformer as a step names it: quoted, or "none (bytes as stored)".
    package static func transformerName(_ attribute: AttributeDescription) -> String {
        attribute.valueTransformerName.map { "'\($0)'" } ?? "none (bytes as stored)"
    }

    private mutating func added(_ relationship: RelationshipDescription, entity: String) throws {
        if !relationship.isTransient, !relationship.isToMany, !relationship.isOptional,
            inverseSource(of: relationship, entity: entity) == nil
        {
            throw MigrationError(
                .cannotInfer, entity: entity, property: relationship.name,
                reason: "the new to-one relationship is required, so existing objects would have no "
                    + "destination; make it optional")
        }
        steps.append(MigrationStep(
            .addRelationship, entity: entity, property: relationship.name,
            detail: "new relationship to \(relationship.destinationEntityName)"))
    }

    /// The source relationship the destination relationship's inverse comes from, if any.
    private func inverseSource(of relationship: RelationshipDescription, entity: String) -> String? {
        guard let inverse = relationship.inverseName else { return nil }
        return propertyMap[relationship.destinationEntityName]?[inverse]
    }

    private mutating func compare(
        _ relationship: RelationshipDescription, _ was: RelationshipDescription, entity: String
    ) throws {
        let name = relationship.name
        if was.name != name {
            steps.append(MigrationStep(.renameRelationship, entity: entity, property: name, detail: "renamed from \(was.name) (links kept)"))
        }
        let destinationSource = entityMap[relationship.destinationEntityName]
        if destinationSource != was.destinationEntityName {
            let compatible = destinationSource.map { related($0, was.destinationEntityName) } ?? false
            guard compatible else {
                throw MigrationError(
                    .cannotInfer, entity: entity, property: name,
                    reason: "it pointed at \(was.destinationEntityName) and now points at "
                        + "\(relationship.destinationEntityName), an unrelated entity")
            }
            steps.append(MigrationStep(
                .changeDestination, entity: entity, property: name,
                detail: "now points at \(relationship.destinationEntityName) (links to other entities are removed)"))
        }
        if was.isTransient != relationship.isTransient {
            steps.append(MigrationStep(
                .changeTransience, entity: entity, property: name,
                detail: relationship.isTransient ? "becomes transient: its links will be deleted" : "becomes stored; it starts empty",
                losesData: relationship.isTransient))
        }
        if was.isOptional, !relationship.isOptional, !relationship.isToMany, !relationship.isTransient {
            // As an attribute without default: refused only if an object has no destination
            // (`MigrationExecutor.checkRequiredValues`).
            steps.append(MigrationStep(
                .makeRequired, entity: entity, property: name,
                detail: "becomes required (refused if an object has no destination)"))
        } else if !was.isOptional, relationship.isOptional {
            steps.append(MigrationStep(.makeOptional, entity: entity, property: name, detail: "becomes optional"))
        }
        if was.isToMany != relationship.isToMany {
            steps.append(MigrationStep(
                .changeCardinality, entity: entity, property: name,
                detail: relationship.isToMany
                    ? "to-one becomes to-many (links kept)"
                    : "to-many becomes to-one (links kept; refused if an object has more than one)"))
        } else if relationship.isToMany, was.isOrdered != relationship.isOrdered {
            steps.append(MigrationStep(
                .changeOrdering, entity: entity, property: name,
                detail: relationship.isOrdered ? "becomes ordered (current order kept)" : "becomes unordered"))
        }
        if was.versionHashModifier != relationship.versionHashModifier {
            steps.append(MigrationStep(
                .changeHashModifier, entity: entity, property: name,
                detail: "version hash modifier changed (no schema change)"))
        }
    }

    /// Whether two source entities are in one inheritance line (one is the other's ancestor).
    private func related(_ a: String, _ b: String) -> Bool {
        let schemas = source.schemas
        return schemas[a]?.includes(b) == true || schemas[b]?.includes(a) == true
    }

    // MARK: - Constraints and indexes

    private mutating func compareConstraints(_ entity: EntityDescription, _ old: EntityDescription) {
        let map = propertyMap[entity.name] ?? [:]
        func mapped(_ keys: [String]) -> [String] { keys.map { map[$0] ?? "+\($0)" }.sorted() }
        let before = Set(old.uniquenessConstraints.map { $0.sorted() })
        let after = entity.uniquenessConstraints.map { ($0, mapped($0)) }
        for (keys, translated) in after where !before.contains(translated) {
            steps.append(MigrationStep(
                .addUniqueConstraint, entity: entity.name,
                detail: "uniqueness constraint (\(keys.joined(separator: ", "))) added; refused if existing objects violate it"))
        }
        let kept = Set(after.map(\.1))
        for keys in old.uniquenessConstraints where !kept.contains(keys.sorted()) {
            steps.append(MigrationStep(
                .removeUniqueConstraint, entity: entity.name,
                detail: "uniqueness constraint (\(keys.joined(separator: ", "))) removed"))
        }
    }

    private mutating func compareIndexes(_ entity: EntityDescription, _ old: EntityDescription) {
        let map = propertyMap[entity.name] ?? [:]
        func describe(_ e: EntityDescription, translate: Bool) -> Set<String> {
            var result: Set<String> = []
            for index in e.fetchIndexes {
                let keys = index.elements.map { translate ? (map[$0.property] ?? "+\($0.property)") : $0.property }
                result.insert("\(index.name)(\(keys.joined(separator: ", ")))")
            }
            for keys in e.compoundIndexes {
                result.insert("(\(keys.map { translate ? (map[$0] ?? "+\($0)") : $0 }.joined(separator: ", ")))")
            }
            return result
        }
        let before = describe(old, translate: false)
        let after = describe(entity, translate: true)
        for index in after.subtracting(before).sorted() {
            steps.append(MigrationStep(.addIndex, entity: entity.name, detail: "index \(index.replacingOccurrences(of: "+", with: "")) added"))
        }
        for index in before.subtracting(after).sorted() {
            steps.append(MigrationStep(.removeIndex, entity: entity.name, detail: "index \(index) removed"))
        }
    }

    // MARK: - Derived attributes

    private mutating func addDerivedRecomputation() {
        for entity in destination.entities.sorted(by: { $0.name < $1.name }) {
            for attribute in entity.attributes where attribute.isStored && attribute.isDerived {
                let isNow = (try? Derivation(parsing: attribute.derivationExpression ?? "")) == .now
                if isNow, propertyMap[entity.name]?[attribute.name] != nil { continue }
                steps.append(MigrationStep(
                    .recomputeDerived, entity: entity.name, property: attribute.name,
                    detail: "derived value recomputed from \(attribute.derivationExpression ?? "its sources")"))
            }
        }
    }
}
