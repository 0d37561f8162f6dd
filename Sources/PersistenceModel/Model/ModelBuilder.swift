import Foundation

/// Collects the entities of a model defined in code.
///
/// ```swift
/// let model = ManagedObjectModel {
///     Entity("Author") {
///         Attribute("name", .string, optional: false)
///         Relationship("books", to: "Book", inverse: "author", toMany: true)
///     }
///     Entity("Book") {
///         Attribute("title", .string, optional: false)
///         Attribute("canonicalTitle", .string, derived: "canonical:(title)")
///         Relationship("author", to: "Author", inverse: "books")
///         UniquenessConstraint("title", "author")
///     }
/// }
/// ```
///
/// The result is the model an Xcode file with the same settings reads as: equal (`==`), with
/// equal version hashes. As in Xcode, an entity's attributes and relationships are kept
/// sorted by name whatever order they are listed in; `if`, `if`/`else` and `for` work as in
/// any result builder.
@resultBuilder
public enum ModelBuilder {
    /// An entity built with `Entity`.
    public static func buildExpression(_ entity: Entity) -> [EntityDescription] {
        [entity.entityDescription]
    }

    /// An entity description made by hand.
    public static func buildExpression(_ entity: EntityDescription) -> [EntityDescription] {
        [entity]
    }

    /// The entities of a block, in order.
    public static func buildBlock(_ parts: [EntityDescription]...) -> [EntityDescription] {
        parts.flatMap { $0 }
    }

    /// The entities of an `if` without `else`, when it runs.
    public static func buildOptional(_ part: [EntityDescription]?) -> [EntityDescription] {
        part ?? []
    }

    /// The entities of an `if` branch.
    public static func buildEither(first part: [EntityDescription]) -> [EntityDescription] { part }

    /// The entities of an `else` branch.
    public static func buildEither(second part: [EntityDescription]) -> [EntityDescription] { part }

    /// The entities of a `for` loop.
    public static func buildArray(_ parts: [[EntityDescription]]) -> [EntityDescription] {
        parts.flatMap { $0 }
    }
}

extension ManagedObjectModel {
    /// Creates a model from entities listed with `ModelBuilder`.
    ///
    /// - Parameters:
    ///   - versionIdentifier: the model's version identifier.
    ///   - fetchRequestTemplates: named fetch requests stored with the model.
    ///   - configurations: named subsets of entities, by configuration name.
    ///   - entities: the entities, as `Entity` values.
    public convenience init(
        versionIdentifier: String? = nil,
        fetchRequestTemplates: [FetchRequestTemplate] = [],
        configurations: [String: [String]] = [:],
        @ModelBuilder _ entities: () -> [EntityDescription]
    ) {
        self.init(
            entities: entities(), fetchRequestTemplates: fetchRequestTemplates,
            configurations: configurations, versionIdentifier: versionIdentifier)
    }
}

/// An entity in a `ModelBuilder` block; its members are listed with `EntityBuilder`.
public struct Entity: Sendable {
    /// The entity described.
    public var entityDescription: EntityDescription

    /// Creates an entity with the members listed in `members`.
    ///
    /// - Parameters:
    ///   - name: the entity's name.
    ///   - className: the class that represents its objects [`representedClassName`].
    ///   - parent: the parent entity's name.
    ///   - isAbstract: whether the entity has no instances of its own.
    ///   - versionHashModifier: changes the version hash without changing the schema.
    ///   - renamingIdentifier: the entity's name in an earlier model version.
    ///   - members: attributes, relationships, constraints, indexes and user info.
    public init(
        _ name: String, className: String? = nil, parent: String? = nil,
        isAbstract: Bool = false, versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        @EntityBuilder _ members: () -> [EntityMember] = { [] }
    ) {
        var entity = EntityDescription(
            name: name, className: className, isAbstract: isAbstract, parent: parent,
            versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
        for member in members() { member.apply(&entity) }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entityDescription = entity
    }
}

/// One member of an entity: an attribute, relationship, constraint, index or user info.
public struct EntityMember: Sendable {
    fileprivate let apply: @Sendable (inout EntityDescription) -> Void
}

/// Collects the members of an `Entity`.
@resultBuilder
public enum EntityBuilder {
    /// An attribute.
    public static func buildExpression(_ attribute: Attribute) -> [EntityMember] {
        let description = attribute.attributeDescription
        return [EntityMember { $0.attributes.append(description) }]
    }

    /// A relationship.
    public static func buildExpression(_ relationship: Relationship) -> [EntityMember] {
        let description = relationship.relationshipDescription
        return [EntityMember { $0.relationships.append(description) }]
    }

    /// A uniqueness constraint.
    public static func buildExpression(_ constraint: UniquenessConstraint) -> [EntityMember] {
        let names = constraint.propertyNames
        return [EntityMember { $0.uniquenessConstraints.append(names) }]
    }

    /// A compound index, Xcode's older form.
    public static func buildExpression(_ index: CompoundIndex) -> [EntityMember] {
        let names = index.propertyNames
        return [EntityMember { $0.compoundIndexes.append(names) }]
    }

    /// A fetch index.
    public static func buildExpression(_ index: FetchIndex) -> [EntityMember] {
        let description = index.fetchIndexDescription
        return [EntityMember { $0.fetchIndexes.append(description) }]
    }

    /// A fetch index described in full.
    public static func buildExpression(_ index: FetchIndexDescription) -> [EntityMember] {
        [EntityMember { $0.fetchIndexes.append(index) }]
    }

    /// A fetched property.
    public static func buildExpression(_ property: FetchedPropertyDescription) -> [EntityMember] {
        [EntityMember { $0.fetchedProperties.append(property) }]
    }

    /// User info entries, added to the entity's.
    public static func buildExpression(_ info: UserInfo) -> [EntityMember] {
        let entries = info.entries
        return [EntityMember { $0.userInfo.merge(entries) { _, new in new } }]
    }

    /// The members of a block, in order.
    public static func buildBlock(_ parts: [EntityMember]...) -> [EntityMember] {
        parts.flatMap { $0 }
    }

    /// The members of an `if` without `else`, when it runs.
    public static func buildOptional(_ part: [EntityMember]?) -> [EntityMember] { part ?? [] }

    /// The members of an `if` branch.
    public static func buildEither(first part: [EntityMember]) -> [EntityMember] { part }

    /// The members of an `else` branch.
    public static func buildEither(second part: [EntityMember]) -> [EntityMember] { part }

    /// The members of a `for` loop.
    public static func buildArray(_ parts: [[EntityMember]]) -> [EntityMember] {
        parts.flatMap { $0 }
    }
}

/// An attribute in an `Entity` block.
public struct Attribute: Sendable {
    /// The attribute described.
    public var attributeDescription: AttributeDescription

    /// Creates an attribute; the parameters are `AttributeDescription`'s, named as in
    /// Xcode's inspector. Defaults and bounds are text, as a model file holds them (see
    /// `AttributeDescription.defaultValue` for the rules).
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = true, transient: Bool = false,
        default defaultValue: String? = nil, derived derivation: String? = nil,
        minimum: String? = nil, maximum: String? = nil, regularExpression: String? = nil,
        indexed: Bool = false, indexedBySpotlight: Bool = false, usesScalarValueType: Bool = false,
        transformer: String? = nil, customClassName: String? = nil,
        allowsExternalStorage: Bool = false, preservesValueOnDeletion: Bool = false,
        versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        attributeDescription = AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: transient,
            derivationExpression: derivation, defaultValueString: defaultValue,
            usesScalarValueType: usesScalarValueType, minValueString: minimum,
            maxValueString: maximum, regularExpressionString: regularExpression,
            allowsExternalBinaryDataStorage: allowsExternalStorage,
            valueTransformerName: transformer, customClassName: customClassName,
            preservesValueInHistoryOnDeletion: preservesValueOnDeletion, isIndexed: indexed,
            isIndexedBySpotlight: indexedBySpotlight, userInfo: userInfo,
            versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
    }

    /// The attribute with one more validation predicate and the warning shown when it fails.
    public func validated(by predicate: String, warning: String) -> Attribute {
        var copy = self
        copy.attributeDescription.validationPredicates.append(predicate)
        copy.attributeDescription.validationWarnings.append(warning)
        return copy
    }
}

/// A relationship in an `Entity` block: an optional to-one with the Nullify rule unless
/// told otherwise.
public struct Relationship: Sendable {
    /// The relationship described.
    public var relationshipDescription: RelationshipDescription

    /// Creates a relationship; the parameters are `RelationshipDescription`'s.
    public init(
        _ name: String, to destination: String, inverse: String? = nil, toMany: Bool = false,
        ordered: Bool = false, deleteRule: DeleteRule = .nullify, optional: Bool = true,
        minCount: Int = 0, maxCount: Int = 0, transient: Bool = false, indexed: Bool = false,
        indexedBySpotlight: Bool = false,
        versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        relationshipDescription = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, deleteRule: deleteRule,
            isToMany: toMany, isOrdered: ordered, minCount: minCount, maxCount: maxCount,
            isOptional: optional, isTransient: transient, isIndexed: indexed,
            isIndexedBySpotlight: indexedBySpotlight, userInfo: userInfo,
            versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
    }
}

/// Property names whose values must be unique together, in an `Entity` block.
public struct UniquenessConstraint: Sendable {
    /// The constrained properties.
    public var propertyNames: [String]

    /// Creates a constraint over the named properties.
    public init(_ propertyNames: String...) { self.propertyNames = propertyNames }
}

/// A compound index (ascending, Xcode's older form) in an `Entity` block.
public struct CompoundIndex: Sendable {
    /// The indexed properties, in index order.
    public var propertyNames: [String]

    /// Creates a compound index over the named properties.
    public init(_ propertyNames: String...) { self.propertyNames = propertyNames }
}

/// A named fetch index over properties, ascending B-tree elements, in an `Entity` block;
/// use `FetchIndexDescription` for other kinds or orders.
public struct FetchIndex: Sendable {
    /// The index described.
    public var fetchIndexDescription: FetchIndexDescription

    /// Creates a fetch index named `name` over the named properties, in index order.
    public init(_ name: String, _ propertyNames: String...) {
        fetchIndexDescription = FetchIndexDescription(
            name: name, elements: propertyNames.map { FetchIndexDescription.Element(property: $0) })
    }
}

/// User info entries for the entity, in an `Entity` block.
public struct UserInfo: Sendable {
    /// The entries.
    public var entries: [String: String]

    /// Creates user info entries.
    public init(_ entries: [String: String]) { self.entries = entries }
}
