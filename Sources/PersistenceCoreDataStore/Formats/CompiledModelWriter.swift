import Foundation
import PersistenceModel

/// Writes a model as Core Data archives its `NSManagedObjectModel` in Z_MODELCACHE, in the
/// layout the fixture store shows (see `CompiledModel`): entities in an
/// `NSKnownKeysDictionary1`, each entity with all its properties — inherited ones repeated as
/// objects of its own — and relationships pointing at their destination entity and inverse.
struct CompiledModelWriter {
    private var encoder = KeyedArchiveEncoder()
    private let model: ManagedObjectModel
    /// Entities by name, in name order.
    private let entities: [EntityDescription]
    private var entityUIDs: [String: UInt64] = [:]
    /// The UID of each entity's property objects, by entity name and property name.
    private var propertyUIDs: [String: [String: UInt64]] = [:]

    private static let object = "NSObject"
    private static let mutableDictionary = ["NSMutableDictionary", "NSDictionary", object]

    init(model: ManagedObjectModel) {
        self.model = model
        entities = model.entities.sorted { $0.name < $1.name }
    }

    /// The archive's bytes.
    mutating func write() throws -> Data {
        let root = encoder.reserveObject()
        for entity in entities {
            entityUIDs[entity.name] = encoder.reserveObject()
            var properties: [String: UInt64] = [:]
            for property in allProperties(of: entity) {
                properties[property.name] = encoder.reserveObject()
            }
            propertyUIDs[entity.name] = properties
        }
        for entity in entities { try writeEntity(entity, root: root) }
        let names = entities.map(\.name)
        let keys = try encoder.add(.array(names.map { .string($0) }))
        let mapping = encoder.addObject(
            classNames: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", Self.object],
            fields: [
                "keys": .uid(keys), "length": .integer(Int64(names.count)), "version": .integer(1),
            ])
        let values = encoder.addObject(
            classNames: ["NSArray", Self.object],
            fields: ["NS.objects": .array(names.compactMap { entityUIDs[$0].map { .uid($0) } })])
        let token = try encoder.add(.string("__empty_slot_token_4c24_98dc_ac1e_b773__"))
        let entitiesUID = encoder.addObject(
            classNames: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary"]
                + Self.mutableDictionary,
            fields: [
                "values": .uid(values), "searchMapping": .uid(mapping), "emptyToken": .uid(token),
                "version": .integer(1),
            ])
        let identifiers = try encoder.add(.set(model.versionIdentifier.map { [.string($0)] } ?? []))
        encoder.setObject(
            root, classNames: ["NSManagedObjectModel", Self.object],
            fields: [
                "NSEntities": .uid(entitiesUID), "NSFetchRequestTemplates": .uid(0),
                "NSVersionIdentifiers": .uid(identifiers),
            ])
        return encoder.archive(top: ["root": root])
    }

    // MARK: - Entities

    private mutating func writeEntity(_ entity: EntityDescription, root: UInt64) throws {
        guard let uid = entityUIDs[entity.name], let properties = propertyUIDs[entity.name] else {
            return
        }
        var subentities: [String: UInt64] = [:]
        for child in entities where child.parentEntityName == entity.name {
            subentities[child.name] = entityUIDs[child.name]
        }
        var fields: [String: PropertyListValue] = [
            "NSEntityName": .uid(try encoder.add(.string(entity.name))),
            "NSClassNameForEntity": .uid(
                try encoder.add(.string(entity.className ?? "NSManagedObject"))),
            "NSManagedObjectModel": .uid(root),
            "NSSuperentity": .uid(entity.parentEntityName.flatMap { entityUIDs[$0] } ?? 0),
            "NSSubentities": .uid(try dictionary(subentities)),
            "NSProperties": .uid(try dictionary(properties)),
            "NSUserInfo": .uid(try encoder.add(.dictionary(Self.userInfo(entity.userInfo)))),
            "NSVersionHashModifier": .uid(try optional(entity.versionHashModifier)),
            "NSRenamingIdentifier": .uid(
                try encoder.add(.string(entity.renamingIdentifier ?? entity.name))),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if !entity.uniquenessConstraints.isEmpty {
            let tuples = try entity.uniquenessConstraints.map { names in
                PropertyListValue.uid(
                    encoder.addObject(
                        classNames: ["NSMutableArray", "NSArray", Self.object],
                        fields: [
                            "NS.objects": .array(
                                try names.map { .uid(try encoder.add(.string($0))) })
                        ]))
            }
            fields["NSUniqueTuples"] = .uid(
                encoder.addObject(
                    classNames: ["NSMutableArray", "NSArray", Self.object],
                    fields: ["NS.objects": .array(tuples)]))
        }
        encoder.setObject(uid, classNames: ["NSEntityDescription", Self.object], fields: fields)
        for property in allProperties(of: entity) {
            guard let propertyUID = properties[property.name] else { continue }
            switch property.kind {
            case .attribute(let attribute):
                try writeAttribute(attribute, uid: propertyUID, entity: uid)
            case .relationship(let relationship):
                try writeRelationship(relationship, uid: propertyUID, entity: uid)
            }
        }
    }

    // MARK: - Properties

    private mutating func writeAttribute(
        _ attribute: AttributeDescription, uid: UInt64, entity: UInt64
    ) throws {
        var fields = try propertyFields(
            name: attribute.name, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient,
            userInfo: attribute.userInfo, modifier: attribute.versionHashModifier,
            renaming: attribute.renamingIdentifier, entity: entity)
        fields["NSAttributeType"] = .integer(CompiledModel.attributeTypeCode(attribute.type))
        let valueClass =
            attribute.type == .transformable
            ? attribute.customClassName : Self.valueClassName(attribute.type)
        fields["NSAttributeValueClassName"] = .uid(try optional(valueClass))
        fields["NSValueTransformerName"] = .uid(try optional(attribute.valueTransformerName))
        fields["NSDefaultValue"] = .uid(
            try defaultValue(attribute).map { try encoder.add($0) } ?? 0)
        var flags: Int64 = 0
        if attribute.maxValueString != nil { flags |= 1 }
        if attribute.minValueString != nil { flags |= 2 }
        if attribute.allowsExternalBinaryDataStorage { flags |= 4 }
        if attribute.preservesValueInHistoryOnDeletion { flags |= 16 }
        fields["NSFlagsKey"] = .integer(flags)
        if let limit = attribute.maxValueString.flatMap(Self.limit) {
            fields["NSMaxValueName"] = limit
        }
        if let limit = attribute.minValueString.flatMap(Self.limit) {
            fields["NSMinValueName"] = limit
        }
        if attribute.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        encoder.setObject(
            uid, classNames: ["NSAttributeDescription", "NSPropertyDescription", Self.object],
            fields: fields)
    }

    private mutating func writeRelationship(
        _ relationship: RelationshipDescription, uid: UInt64, entity: UInt64
    )
        throws
    {
        var fields = try propertyFields(
            name: relationship.name, isOptional: relationship.isOptional,
            isTransient: relationship.isTransient,
            userInfo: relationship.userInfo, modifier: relationship.versionHashModifier,
            renaming: relationship.renamingIdentifier, entity: entity)
        let destination = relationship.destinationEntityName
        fields["NSDestinationEntity"] = .uid(entityUIDs[destination] ?? 0)
        fields["_NSDestinationEntityName"] = .uid(try encoder.add(.string(destination)))
        if let inverse = relationship.inverseName {
            fields["_NSInverseRelationshipName"] = .uid(try encoder.add(.string(inverse)))
            fields["NSInverseRelationship"] = .uid(propertyUIDs[destination]?[inverse] ?? 0)
        } else {
            fields["_NSInverseRelationshipName"] = .uid(0)
            fields["NSInverseRelationship"] = .uid(0)
        }
        fields["NSDeleteRule"] = .integer(CompiledModel.deleteRuleCode(relationship.deleteRule))
        fields["NSMinCount"] = .integer(Int64(relationship.minCount))
        fields["NSMaxCount"] = .integer(relationship.isToMany ? Int64(relationship.maxCount) : 1)
        if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        encoder.setObject(
            uid, classNames: ["NSRelationshipDescription", "NSPropertyDescription", Self.object],
            fields: fields)
    }

    /// The fields every property archives, with `_P`: 1, plus 2 when optional, 8 when
    /// transient, and 16, 32, 64, 128 when it has no validation predicates, warnings, user
    /// info or version hash modifier (the values the fixture shows: 243, 241, 251, 249).
    private mutating func propertyFields(
        name: String, isOptional: Bool, isTransient: Bool, userInfo: [String: String],
        modifier: String?,
        renaming: String?, entity: UInt64
    ) throws -> [String: PropertyListValue] {
        var flags: Int64 = isOptional ? 3 : 1
        if isTransient { flags |= 8 }
        flags |= 0x10 | 0x20
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": .uid(try encoder.add(.string(name))), "NSEntity": .uid(entity),
            "NSRenamingIdentifier": .uid(try encoder.add(.string(renaming ?? name))),
        ]
        if isOptional { fields["NSIsOptional"] = .bool(true) }
        if isTransient { fields["NSIsTransient"] = .bool(true) }
        if userInfo.isEmpty {
            flags |= 0x40
        } else {
            fields["NSUserInfo"] = .uid(try encoder.add(.dictionary(Self.userInfo(userInfo))))
        }
        if let modifier, !modifier.isEmpty {
            fields["NSVersionHashModifier"] = .uid(try encoder.add(.string(modifier)))
        } else {
            flags |= 0x80
        }
        fields["_P"] = .integer(flags)
        return fields
    }

    // MARK: - Values

    /// An attribute's default value as Core Data archives it, from the model file's text.
    private func defaultValue(_ attribute: AttributeDescription) -> ArchivedValue? {
        guard let text = attribute.defaultValueString else { return nil }
        switch attribute.type {
        case .boolean: return .bool(text == "YES" || text == "true" || text == "1")
        case .integer16, .integer32, .integer64: return Int64(text).map { .integer($0) }
        case .double, .float: return Double(text).map { .real($0) }
        case .string: return .string(text)
        case .date: return Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid: return UUID(uuidString: text).map { .uuid($0) }
        case .uri: return URL(string: text).map { .url($0) }
        default: return nil  // Decimal (NSDecimalNumber), binary and transformable defaults
        }
    }

    private static func valueClassName(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: return "NSNumber"
        case .decimal: return "NSDecimalNumber"
        case .string: return "NSString"
        case .date: return "NSDate"
        case .binaryData: return "NSData"
        case .uuid: return "NSUUID"
        case .uri: return "NSURL"
        default: return nil
        }
    }

    private static func limit(_ text: String) -> PropertyListValue? {
        if let number = Int64(text) { return .integer(number) }
        return Double(text).map { .real($0) }
    }

    private static func userInfo(_ info: [String: String]) -> [ArchivedValue: ArchivedValue] {
        Dictionary(uniqueKeysWithValues: info.map { (.string($0.key), .string($0.value)) })
    }

    private mutating func optional(_ text: String?) throws -> UInt64 {
        guard let text else { return 0 }
        return try encoder.add(.string(text))
    }

    /// A mutable dictionary of names to objects already in the archive.
    private mutating func dictionary(_ entries: [String: UInt64]) throws -> UInt64 {
        let ordered = entries.sorted { $0.key < $1.key }
        let keys = try ordered.map { PropertyListValue.uid(try encoder.add(.string($0.key))) }
        return encoder.addObject(
            classNames: Self.mutableDictionary,
            fields: ["NS.keys": .array(keys), "NS.objects": .array(ordered.map { .uid($0.value) })])
    }

    // MARK: - Inheritance

    private enum PropertyKind {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)
    }

    /// An entity's properties and its ancestors', the entity's own first.
    private func allProperties(of entity: EntityDescription) -> [(name: String, kind: PropertyKind)]
    {
        var result: [(name: String, kind: PropertyKind)] = []
        var names: Set<String> = []
        var current: EntityDescription? = entity
        var seen: Set<String> = []
        while let declarer = current, seen.insert(declarer.name).inserted {
            for attribute in declarer.attributes where names.insert(attribute.name).inserted {
                result.append((attribute.name, .attribute(attribute)))
            }
            for relationship in declarer.relationships
            where names.insert(relationship.name).inserted {
                result.append((relationship.name, .relationship(relationship)))
            }
            current = declarer.parentEntityName.flatMap { model.entity(named: $0) }
        }
        return result
    }
}
