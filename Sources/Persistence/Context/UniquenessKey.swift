/// The values of one uniqueness constraint of one object, as a dictionary key: how a save
/// finds two changed objects with the same unique values before touching the store.
///
/// Values are hashed as themselves rather than through their text descriptions, which made
/// checking a 100k-object save cost as much as writing its rows.
struct UniquenessKey: Hashable {
    /// The table (root entity) the objects share.
    let rootName: String
    /// The constraint's keys (entities of one table may list their constraints in
    /// different orders).
    let constraint: [String]
    /// The constrained values, in the constraint's order.
    let values: [AnyHashable]

    init(rootName: String, constraint: [String], values: [AttributeValue]) {
        self.rootName = rootName
        self.constraint = constraint
        self.values = values.map(Self.hashable)
    }

    private static func hashable(_ value: AttributeValue) -> AnyHashable {
        switch value {
        case .string(let v): return AnyHashable(v)
        case .uuid(let v): return AnyHashable(v)
        case .integer(let v): return AnyHashable(v)
        case .date(let v): return AnyHashable(v)
        case .data(let v): return AnyHashable(v)
        default: return AnyHashable(value.description)
        }
    }
}
