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
    /// `attributes` of `entity`, each with its setter's position.
    func withSetterPositions(_ attributes: [AttributeCode], of entity: EntityDescription) -> [AttributeCode] {
        guard let inherited = inheritedPropertyCount(of: entity) else { return attributes }
        let names = entity.attributes.map(\.name)
        return attributes.map { code in
            var code = code
            code.setterPosition = names.firstIndex(of: code.attribute.name).map { inherited + $0 }
            return code
        }
    }

    /// `relationships` of `entity`, each with its setter's position.
    func withSetterPositions(_ relationships: [RelationshipCode], of entity: EntityDescription) -> [RelationshipCode] {
        guard let inherited = inheritedPropertyCount(of: entity) else { return relationships }
        let names = entity.relationships.map(\.name)
        return relationships.map { code in
            var code = code
            code.setterPosition = names.firstIndex(of: code.relationship.name).map {
                inherited + entity.attributes.count + $0
            }
            return code
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
        guard let position = setterPosition else { return "self[\"\(key)\"] = newValue" }
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
        guard let position = setterPosition else { return "setObject(newValue, forKey: \"\(key)\")" }
        return "setObject(newValue, forKey: \"\(key)\", at: \(position))"
    }
}
