import Foundation

/// A typed fetch, as SwiftData writes it: Foundation's `#Predicate` and `SortDescriptor` over
/// a class of the model, a window, and what to load with the objects.
///
/// ```swift
/// var cheap = FetchDescriptor<Book>(
///     predicate: #Predicate { ($0.price ?? 0) < 10 && $0.title.contains("Sol") },
///     sortBy: [SortDescriptor(\.title)])
/// cheap.fetchLimit = 20
/// let books = try context.fetch(cheap)
/// ```
///
/// The predicate is not run in Swift: it is translated into the library's own predicate tree
/// (``FetchPredicate``), so that every store compiles it into its query and the in-memory
/// evaluator answers it for unsaved changes, exactly as a predicate string would be. What
/// translates: key paths (through to-one relationships, optional or forced), constants and
/// captured values, `==` `!=` `<` `<=` `>` `>=`, `&&` `||` `!`, `+` `-` `*` and unary `-` of
/// a key path and constants, `??`, `!= nil`, `flatMap`, `String`'s `contains(_:)`,
/// `starts(with:)` and `isEmpty`, membership in a captured array (`names.contains($0.title)`)
/// or range, to-many `contains(where:)`, `allSatisfy`, `filter { … }.isEmpty`, `count` and
/// `isEmpty`, and `… ? … : …`. Anything else (`$0.pages % 2`, a sum of two key paths, `filter { … }.count
/// > 2`, a condition inside `contains(where:)` joined with `&&`) is a
/// ``TypedPredicateTranslationError`` naming the expression, never a silent evaluation in
/// memory (ask for one with `fetch(_:evaluatingPredicateInMemory:)`). Key paths are named by
/// ``PropertyKeyPathNaming``.
///
/// Foundation on Linux has no `localizedStandardContains` nor `caseInsensitiveCompare` in
/// `#Predicate`, and no `.localizedStandard` string comparator: a `SortDescriptor` of a
/// string (`.lexical` or the default) sorts in the store's string order, as a ``SortKey``
/// does. `SortDescriptor` needs a `Comparable` value, which `Bool` is not: sort by a Bool
/// attribute with a ``SortKey``. Not `Sendable`: Swift's key paths are not.
public struct FetchDescriptor<T: ManagedObject> {
    /// The condition objects must meet; nil for every object of the class's entity (and its
    /// sub-entities).
    public var predicate: Predicate<T>?
    /// The order, most significant first: key paths of attributes of `T`.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many objects; nil for all.
    public var fetchLimit: Int?
    /// Objects to skip first; nil for none.
    public var fetchOffset: Int?
    /// Whether unsaved inserts and changes of the context count (the default, as in Core
    /// Data and SwiftData). False answers from the store's saved rows alone: unsaved inserted
    /// objects are not found and changed ones match by their saved values.
    public var includePendingChanges = true
    /// Key paths of the attributes a dictionary fetch of the request reads (Core Data's
    /// `propertiesToFetch`); `fetch(_:)` returns whole objects, which a context keeps with
    /// all their values. Empty for every attribute.
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose destinations are loaded with the objects, one store read per key
    /// path instead of one per object when first used.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// Creates a descriptor.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
