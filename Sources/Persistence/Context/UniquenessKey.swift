import Foundation

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
    let values: [Value]

    init(rootName: String, constraint: [String], values: [AttributeValue]) {
        self.rootName = rootName
        self.constraint = constraint
        self.values = values.map(Value.init)
    }

    /// A constrained value, hashable without boxing it in `AnyHashable` (an allocation per
    /// value, in a check every inserted object goes through).
    enum Value: Hashable {
        case string(String)
        case uuid(UUID)
        case integer(Int64)
        case date(Date)
        case data(Data)
        /// Any other value, by its description.
        case other(String)

        init(_ value: AttributeValue) {
            switch value {
            case .string(let v): self = .string(v)
            case .uuid(let v): self = .uuid(v)
            case .integer(let v): self = .integer(v)
            case .date(let v): self = .date(v)
            case .data(let v): self = .data(v)
            default: self = .other(value.description)
            }
        }
    }
}
