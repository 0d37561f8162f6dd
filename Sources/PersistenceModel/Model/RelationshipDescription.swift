/// Describes one relationship of an entity: its destination, inverse, cardinality and
/// what deleting its source does.
///
/// The names follow Core Data's `NSRelationshipDescription`; the keys Xcode writes in a model
/// file are shown in brackets where they differ.
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name, unique within its entity and its ancestors.
    public var name: String
    /// The name of the destination entity [`destinationEntity`].
    public var destinationEntityName: String
    /// The name of the inverse relationship on the destination [`inverseName`], or `nil`
    /// for a relationship without one (allowed, with a warning).
    public var inverseName: String?
    /// What happens to the destination when the source is deleted [`deletionRule`].
    public var deleteRule: DeleteRule
    /// Whether the relationship holds many objects [`toMany`].
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order [`ordered`].
    public var isOrdered: Bool
    /// The fewest destination objects a to-many may hold when saved; 0 for no limit.
    public var minCount: Int
    /// The most destination objects a to-many may hold when saved; 0 for no limit. A to-one
    /// relationship is written with `maxCount="1"`.
    public var maxCount: Int
    /// Whether the relationship may be empty (`nil` for a to-one) [`optional`].
    public var isOptional: Bool
    /// Whether the relationship lives only in memory [`transient`].
    public var isTransient: Bool
    /// Whether the store keeps an index on the relationship's column [`indexed`].
    public var isIndexed: Bool
    /// Whether the relationship is marked "Index in Spotlight" [`spotlightIndexingEnabled`].
    /// Kept so that models round-trip and dump it; Linux has no Spotlight, and the store's
    /// search index covers attributes only (a search reaches a destination's indexed
    /// attribute through a key path such as `author.canonicalName`).
    public var isIndexedBySpotlight: Bool
    /// Free-form key-value pairs for the app [`userInfo`].
    public var userInfo: [String: String]
    /// Changes the version hash without changing the schema [`versionHashModifier`].
    public var versionHashModifier: String?
    /// The relationship's name in an earlier model version, for migration [`elementID`].
    public var renamingIdentifier: String?

    /// Creates a relationship description. Relationships are optional to-ones with the
    /// Nullify rule by default, as in Xcode.
    public init(
        name: String,
        destination destinationEntityName: String,
        inverse inverseName: String? = nil,
        deleteRule: DeleteRule = .nullify,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        minCount: Int = 0,
        maxCount: Int = 0,
        isOptional: Bool = true,
        isTransient: Bool = false,
        isIndexed: Bool = false,
        isIndexedBySpotlight: Bool = false,
        userInfo: [String: String] = [:],
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.deleteRule = deleteRule
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = isToMany ? maxCount : (maxCount == 0 ? 1 : maxCount)
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isIndexed = isIndexed
        self.isIndexedBySpotlight = isIndexedBySpotlight
        self.userInfo = userInfo
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
    }
}
