import Foundation
import PersistenceModel
import PersistenceStore

/// Sorts objects in memory in the order SQL sorts them: nil first when ascending, strings by
/// code point, Decimals numerically, NaN after every number, ties by store order (saved
/// objects by primary key, then unsaved ones in insertion order).
struct FetchSorter {
    let keys: [SortKey]

    init(_ keys: [SortKey]) { self.keys = keys }

    func sort(_ objects: inout [ManagedObject]) throws {
        let paths = keys.map { $0.keyPath.split(separator: ".").map(String.init) }
        let evaluator = PredicateEvaluator(.alwaysTrue)
        var decorated: [([PredicateValue], ManagedObject)] = []
        for object in objects {
            decorated.append((try paths.map { try evaluator.walk(.object(object), $0) }, object))
        }
        decorated.sort { a, b in
            for (index, key) in keys.enumerated() {
                let order = SortValueOrder.compare(a.0[index], b.0[index])
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return Self.tieOrder(a.1.objectID) < Self.tieOrder(b.1.objectID)
        }
        objects = decorated.map(\.1)
    }

    /// Ties fall in the store's order: saved objects by key, then unsaved ones in insertion
    /// order. A pair, not one number: `1e18 + n` as a Double steps by 128, so unsaved
    /// objects inserted close together would tie and come out in hash order.
    private static func tieOrder(_ id: ObjectID) -> (Int, Int64, UInt64) {
        switch id.key {
        case .permanent(let key): return (0, key, 0)
        case .temporary(let n): return (1, 0, n)
        }
    }
}

extension PredicateValue {
    /// The value as a plain Swift value, for dictionaries.
    var plainValue: Any? {
        switch self {
        case .null: nil
        case .bool(let v): v
        case .integer(let v): v
        case .double(let v): v
        case .decimal(let v): v
        case .string(let v): v
        case .date(let v): v
        case .uuid(let v): v
        case .url(let v): v
        case .data(let v): v
        case .object(let v): v
        case .collection(let v): v.map(\.plainValue)
        }
    }

    /// The value as a section name: empty for nil.
    var sectionName: String {
        switch self {
        case .null: ""
        case .string(let v): v
        case .date(let v): ISO8601DateFormatter().string(from: v)
        case .uuid(let v): v.uuidString
        case .url(let v): v.absoluteString
        case .object(let v as ManagedObject): v.objectID.description
        default: plainValue.map { "\($0)" } ?? ""
        }
    }
}
