/// A description of objects to fetch: an entity, a condition, an order, and a window.
public struct FetchRequest: Sendable {
    /// The entity to fetch.
    public var entityName: String
    /// The condition objects must meet; nil for all objects.
    public var predicate: FetchPredicate?
    /// Whether objects of the entity's sub-entities are included (the default).
    public var includesSubentities = true
    /// The sort keys, most significant first. Ties keep store order (by primary key).
    public var sortDescriptors: [SortKey]
    /// At most this many objects; nil for all.
    public var fetchLimit: Int?
    /// Objects to skip first.
    public var fetchOffset = 0
    /// How many rows to turn into objects at a time when streaming; 0 for a default.
    public var fetchBatchSize = 0

    /// Creates a fetch request.
    public init(
        entityName: String, predicate: FetchPredicate? = nil, sortDescriptors: [SortKey] = [],
        fetchLimit: Int? = nil
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
    }
}

/// A fetch request that cannot run: an unknown entity or key, or a key that is not stored.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    /// The entity fetched.
    public var entity: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(entity: String, reason: String) {
        self.entity = entity
        self.reason = reason
    }

    /// "Can't fetch Book: publishMonthID is transient: …".
    public var description: String { "Can't fetch \(entity): \(reason)" }
}
