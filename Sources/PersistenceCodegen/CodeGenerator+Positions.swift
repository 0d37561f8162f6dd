import Persistence

/// Property positions for the typed setters of generated code.
///
/// A context keeps an object's values in a flat array, one slot per property of the
/// resolved entity: the root entity's attributes, then its relationships, then the same for
/// each level down to the entity itself (see `EntitySchema.properties`). An entity's own
/// properties therefore sit at the same positions in every sub-entity, and generated
/// setters can name them by number (`setAttribute(newValue, forKey: "title", at: 1)`),
/// sparing a name lookup per set. The setter checks the name at that position and falls
/// back to the lookup, so a position that does not match the model the program runs
/// with (an older generated file) is slower, never wrong.
extension CodeGenerator {
    /// Sets the position of each of `entity`'s own attributes and relationships.
    func assignPositions(
        _ attributes: inout [AttributeCode], _ relationships: inout [RelationshipCode],
        of entity: EntityDescription
    ) {
        guard let inherited = inheritedPropertyCount(of: entity) else { return }
        let attributeNames = entity.attributes.map(\.name)
        for index in attributes.indices {
            guard let offset = attributeNames.firstIndex(of: attributes[index].attribute.name) else { continue }
            attributes[index].position = inherited + offset
        }
        let relationshipNames = entity.relationships.map(\.name)
        for index in relationships.indices {
            guard let offset = relationshipNames.firstIndex(of: relationships[index].relationship.name) else {
                continue
            }
            relationships[index].position = inherited + attributeNames.count + offset
        }
    }

    /// How many properties `entity` inherits: its ancestors' attributes and relationships;
    /// nil when a parent is unknown or the chain loops (the model's validation reports it).
    private func inheritedPropertyCount(of entity: EntityDescription) -> Int? {
        var count = 0
        var seen: Set<String> = [entity.name]
        var next = entity.parentEntityName
        while let name = next {
            guard seen.insert(name).inserted, let parent = model.entity(named: name) else { return nil }
            count += parent.attributes.count + parent.relationships.count
            next = parent.parentEntityName
        }
        return count
    }
}

extension AttributeCode {
    /// The setter's statement: by position and type when both are known
    /// (`setAttribute(newValue, forKey: "title", at: 1)`), by name otherwise.
    var setterStatement: String {
        let key = attribute.name
        guard let position else { return "self[\"\(key)\"] = newValue" }
        if attribute.type == .transformable {
            guard valueType != "Any" else { return "self[\"\(key)\"] = newValue" }
            return "setTransformableAttribute(newValue, forKey: \"\(key)\", at: \(position))"
        }
        return "setAttribute(newValue, forKey: \"\(key)\", at: \(position))"
    }
}

extension RelationshipCode {
    /// A to-one setter's statement, by position when it is known.
    var toOneSetterStatement: String {
        let key = relationship.name
        guard let position else { return "setObject(newValue, forKey: \"\(key)\")" }
        return "setObject(newValue, forKey: \"\(key)\", at: \(position))"
    }
}
