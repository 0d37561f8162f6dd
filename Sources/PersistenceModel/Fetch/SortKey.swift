/// Orders fetched objects by a key path, ascending or descending.
///
/// Named `SortKey` because Foundation on Linux already exports `SortDescriptor`.
public struct SortKey: Sendable, Hashable {
    /// The key path: an attribute, or an attribute through to-one relationships
    /// (`author.name`).
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Creates a sort key.
    public init(_ keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
