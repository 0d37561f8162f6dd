/// A description of objects to fetch: an entity, a condition, an order, and a window.
public struct FetchRequest: Sendable {
    /// The entity to fetch.
    public var entityName: String
    /// The condition objects must meet; nil for all objects.
    public var predicate: FetchPredicate?
    /// Whether objects of the entity's sub-entities are included (the default).
    public var includesSubentities = true
    /// Whether the context's unsaved inserts and changes count (Core Data's
    /// `includesPendingChanges`; the default). False answers from the store's saved rows
    /// alone: unsaved inserted objects are not found, and changed ones match and sort by
    /// their saved values. Deleted objects are left out either way.
    public var includesPendingChanges = true
    /// The sort keys, most significant first. Ties keep store order (by primary key).
    public var sortDescriptors: [SortKey]
    /// At most this many objects; nil for all.
    public var fetchLimit: Int?
    /// Objects to skip first.
    public var fetchOffset = 0
    /// How many objects to load at a time (Core Data's `fetchBatchSize`); 0, the default,
    /// loads them all at once.
    ///
    /// With a batch size, `fetch(_:)` reads only the IDs of the objects the request selects
    /// and returns them as faults, each in a batch of this many consecutive objects; the
    /// first use of any object of a batch loads the whole batch in one store read. Walking
    /// the result in order thus reads the store once per batch, and a result only partly
    /// used (the first screenful of a long list) reads only the rows it used. Objects the
    /// context already holds with their values come back as they are. With unsaved changes
    /// of the entity, the objects are merged in memory and come back loaded, as without a
    /// batch size. `forEach(_:_:)` streams rows and ignores it.
    public var fetchBatchSize = 0
    /// What the result is made of (Core Data's `resultType`): objects by default. See
    /// `FetchRequestResultType` for the entry point of each kind.
    public var resultType = FetchRequestResultType.managedObjectResultType
    /// The key paths a dictionary result holds (Core Data's `propertiesToFetch`):
    /// attributes of the entity or, through to-one relationships, of related objects
    /// (`"author.name"`); a to-one relationship gives its destination's `ObjectID`. Empty
    /// for every attribute of the entity. Only these columns are read from the store.
    public var propertiesToFetch: [String] = []
    /// Whether fetched objects come back as faults (Core Data's `returnsObjectsAsFaults`):
    /// only their IDs are read, and each object reads its row when a property is first
    /// used (its batch's rows, with `fetchBatchSize`).
    ///
    /// Core Data's default is true, with the rows' values kept aside in its row cache so
    /// that firing a fault costs no store read. A context here keeps values only in its
    /// objects: a fault holds none, so the default is false (objects come back with their
    /// values), and true means what `includesPropertyValues = false` means.
    public var returnsObjectsAsFaults = false
    /// Whether the fetch reads the objects' values (Core Data's `includesPropertyValues`):
    /// false reads only their IDs and returns faults, which read their rows when first used.
    public var includesPropertyValues = true
    /// Relationships whose destinations the fetch loads with its objects (Core Data's
    /// `relationshipKeyPathsForPrefetching`): one store read per key path for all the
    /// fetched objects, instead of one per object when each relationship is first used.
    /// To-one and to-many relationships; a dotted path (`"author.books"`) prefetches each
    /// step from the objects the previous step loaded. Objects returned as faults are not
    /// prefetched from.
    public var relationshipKeyPathsForPrefetching: [String] = []
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
