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
    /// Search-box text to find in the attributes indexed for search, or nil for no search.
    ///
    /// The text is folded to its canonical form and split into words; an object matches
    /// when every word occurs in one of `searchKeyPaths` (in any order, case and
    /// diacritics ignored, every character literal). Matches come best first: the whole
    /// text as whole words, then the whole text at the start of a word, then every word at
    /// the start of a word, then the rest (see `SearchText`); ties follow
    /// `sortDescriptors`. Text with no words matches nothing. Words of three or more
    /// characters are looked up in the store's trigram index; shorter ones scan the
    /// stored canonical column. Combines with `predicate` (both must hold).
    public var searchText: String?
    /// The attributes `searchText` searches, as key paths from the entity, possibly through
    /// to-one relationships (`"author.canonicalName"`); each must be indexed for search
    /// ("Index in Spotlight"). Empty for every attribute of the entity indexed for search.
    public var searchKeyPaths: [String] = []

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

    /// "Can't fetch Book: publishMonthID is transient: …"; one line, and short even when
    /// the reason quotes a long key.
    public var description: String {
        "Can't fetch \(entity): \(QuotedText.excerpt(reason, limit: 4 * QuotedText.excerptLength))"
    }
}
