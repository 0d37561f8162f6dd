import Foundation
import PersistenceModel
import PersistenceStore

/// The values of one uniqueness constraint of one object, as a dictionary key: how a save
/// finds two changed objects with the same unique values before touching the store.
///
/// Values are hashed as themselves rather than through their text descriptions, which would
/// make checking a large save cost as much as writing its rows.
struct UniquenessKey: Hashable {
    /// The constraint of one table (root entity), numbered by the save (see
    /// `UniquenessGroups`): hashing the table's and keys' names per object costs more than
    /// hashing the values.
    let group: Int
    /// The constraint's first value.
    let first: Value
    /// The other values, in the constraint's order: empty, and so not allocated, for the
    /// usual one-key constraint (an array per object, made, hashed and freed for every object
    /// saved, would be most of a save's uniqueness check).
    let rest: [Value]

    init(group: Int, values: [AttributeValue]) {
        self.group = group
        first = values.first.map(Value.init) ?? .other("")
        rest = values.dropFirst().map(Value.init)
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

/// The uniqueness constraints met during one save, each numbered once per table and key
/// list (entities of one table may list their constraints in different orders, so the
/// list is taken as it is), with each entity's constraints resolved to property positions.
struct UniquenessGroups {
    /// One constraint of an entity.
    struct Entry {
        /// The constraint's keys.
        let constraint: [String]
        /// Its number in this save.
        let group: Int
        /// Each key's property position (nil for an unknown key, whose value is nil).
        let positions: [Int?]

        /// The object's values of the constraint's keys, in its order.
        func values(of object: ManagedObject) -> [AttributeValue] {
            positions.map { $0.map { object.attributeValue(at: $0) } ?? .null }
        }

        /// Records `values` of the constraint in `seen`; false when an earlier object has
        /// them already. As in the store's UNIQUE indexes, values with a nil never conflict.
        func record(_ values: [AttributeValue], in seen: inout Set<UniquenessKey>) -> Bool {
            values.contains(where: \.isNull) || seen.insert(UniquenessKey(group: group, values: values)).inserted
        }
    }

    private struct Name: Hashable {
        let rootName: String
        let constraint: [String]
    }

    private var numbers: [Name: Int] = [:]
    private var entries: [ObjectIdentifier: [Entry]] = [:]
    private var last: (schema: EntitySchema, entries: [Entry])?

    /// The constraints of `schema`, resolved the first time the entity is met.
    mutating func entries(for schema: EntitySchema) -> [Entry] {
        if let last, last.schema === schema { return last.entries }
        let id = ObjectIdentifier(schema)
        let result: [Entry]
        if let known = entries[id] {
            result = known
        } else {
            result = schema.uniquenessConstraints.map { constraint in
                let name = Name(rootName: schema.rootName, constraint: constraint)
                let group = numbers[name] ?? numbers.count
                numbers[name] = group
                return Entry(constraint: constraint, group: group, positions: constraint.map { schema.propertyIndex[$0] })
            }
            entries[id] = result
        }
        last = (schema, result)
        return result
    }
}
