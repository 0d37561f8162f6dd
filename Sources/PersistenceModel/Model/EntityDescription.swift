/// Describes one entity: a kind of object, its properties, its place in an inheritance
/// hierarchy, and the constraints and indexes the store keeps for it.
///
/// The names follow Core Data's `NSEntityDescription`; the keys Xcode writes in a model file
/// are shown in brackets where they differ. Properties listed here are the entity's own;
/// inherited ones come from `parentEntityName` and are resolved by the model.
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name, unique in the model.
    public var name: String
    /// The name of the class that represents the entity's objects [`representedClassName`].
    public var className: String?
    /// Whether the entity cannot have instances of its own [`isAbstract`].
    public var isAbstract: Bool
    /// The name of the parent entity, whose properties this entity inherits [`parentEntity`].
    public var parentEntityName: String?
    /// The entity's own attributes, in declaration order.
    public var attributes: [AttributeDescription]
    /// The entity's own relationships, in declaration order.
    public var relationships: [RelationshipDescription]
    /// Sets of property names whose values must be unique together among the entity's
    /// objects (and its sub-entities') [`uniquenessConstraints`].
    public var uniquenessConstraints: [[String]]
    /// Named fetch indexes, Xcode's current form [`fetchIndex`].
    public var fetchIndexes: [FetchIndexDescription]
    /// Compound indexes in Xcode's older form [`compoundIndexes`]: each a list of property
    /// names, ascending.
    public var compoundIndexes: [[String]]
    /// Fetched properties, kept as data so the model round-trips [`fetchedProperty`].
    public var fetchedProperties: [FetchedPropertyDescription]
    /// Free-form key-value pairs for the app [`userInfo`].
    public var userInfo: [String: String]
    /// Changes the version hash without changing the schema [`versionHashModifier`].
    public var versionHashModifier: String?
    /// The entity's name in an earlier model version, for migration [`elementID`].
    public var renamingIdentifier: String?
    /// The expression Spotlight would display for an object, kept as written
    /// [`spotlightDisplayNameExpression`].
    public var spotlightDisplayNameExpression: String?
    /// Xcode's Codegen setting: `class`, `category`, or nil for Manual/None
    /// [`codeGenerationType`].
    public var codeGenerationType: String?

    /// Creates an entity description.
    public init(
        name: String,
        className: String? = nil,
        isAbstract: Bool = false,
        parent parentEntityName: String? = nil,
        attributes: [AttributeDescription] = [],
        relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [],
        fetchIndexes: [FetchIndexDescription] = [],
        compoundIndexes: [[String]] = [],
        fetchedProperties: [FetchedPropertyDescription] = [],
        userInfo: [String: String] = [:],
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        spotlightDisplayNameExpression: String? = nil,
        codeGenerationType: String? = nil
    ) {
        self.name = name
        self.className = className
        self.isAbstract = isAbstract
        self.parentEntityName = parentEntityName
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.compoundIndexes = compoundIndexes
        self.fetchedProperties = fetchedProperties
        self.userInfo = userInfo
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.spotlightDisplayNameExpression = spotlightDisplayNameExpression
        self.codeGenerationType = codeGenerationType
    }

    /// The entity's own attribute with this name, if any.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The entity's own relationship with this name, if any.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}

/// A named index over one or more of an entity's properties [`fetchIndex`].
public struct FetchIndexDescription: Sendable, Hashable {
    /// One indexed property and its order.
    public struct Element: Sendable, Hashable {
        /// The indexed property's name [`property`].
        public var property: String
        /// Xcode's index kind, `Binary` (a B-tree) or `RTree` [`type`].
        public var kind: String
        /// Whether the index sorts this element ascending [`order`].
        public var isAscending: Bool

        /// Creates an index element, ascending B-tree by default.
        public init(property: String, kind: String = "Binary", isAscending: Bool = true) {
            self.property = property
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    /// The index's name [`name`].
    public var name: String
    /// The indexed properties, in index order.
    public var elements: [Element]

    /// Creates a fetch index.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// A fetched property: a named, predicate-defined query on another entity, kept as written.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// Whether the property is optional.
    public var isOptional: Bool
    /// The entity the fetch request reads.
    public var entityName: String
    /// The fetch request's predicate format string, if any.
    public var predicateString: String?

    /// Creates a fetched property.
    public init(name: String, isOptional: Bool = true, entityName: String, predicateString: String?)
    {
        self.name = name
        self.isOptional = isOptional
        self.entityName = entityName
        self.predicateString = predicateString
    }
}

/// A fetch request template stored in the model [`fetchRequest`], with `$variables` for
/// substitution.
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name.
    public var name: String
    /// The entity the request fetches.
    public var entityName: String
    /// The predicate format string, if any.
    public var predicateString: String?

    /// Creates a fetch request template.
    public init(name: String, entityName: String, predicateString: String?) {
        self.name = name
        self.entityName = entityName
        self.predicateString = predicateString
    }
}
