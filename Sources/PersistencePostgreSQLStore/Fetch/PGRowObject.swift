#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// A stored row as a predicate sees an object: its attributes' values, its to-one's row
/// and its to-many's rows, read through the fetch's `PGRowResolver`. The same values a
/// managed object gives `PredicateEvaluator`, so a fetch answers as memory answers.
final class PGRowObject: PredicateEvaluable {
    let row: StoreRow
    private unowned let resolver: PGRowResolver

    init(_ row: StoreRow, resolver: PGRowResolver) {
        self.row = row
        self.resolver = resolver
    }

    func predicateValue(forKey key: String) throws -> PredicateValue {
        let schema = row.schema
        guard let position = schema.propertyIndex[key] else {
            throw FetchPredicateError(kind: .unknownKey, format: "", message: "\(schema.name) has no property named '\(key)'")
        }
        switch row.slots[position] {
        case .value(let value): return PredicateValue(value)
        case .toOneFault(let id?): return try resolver.object(for: id).map { .object($0) } ?? .null
        case .toOneFault(nil): return .null
        case .toManyFault:
            guard case .relationship(let relationship) = schema.properties[position] else { return .null }
            return .collection(try resolver.destinations(of: relationship, from: row).map { .object($0) })
        default: return .null
        }
    }
}

/// Reads the rows a fetch's predicate, sort keys and search reach beyond the fetched rows,
/// each once, many per statement: the destinations of a to-one for every fetched row at
/// the first use, the destinations of a to-many likewise.
final class PGRowResolver {
    private let store: PostgreSQLStore
    /// Objects by table and key, read so far.
    private var objects: [String: [Int64: PGRowObject]] = [:]
    /// Keys of each table seen in to-one slots, not read yet.
    private var pending: [String: Set<Int64>] = [:]
    /// To-many destinations by entity, relationship and source key.
    private var toMany: [String: [Int64: [PGRowObject]]] = [:]
    /// Source rows whose to-many destinations may be asked for, by entity name.
    private var sources: [String: [Int64]] = [:]

    init(store: PostgreSQLStore) {
        self.store = store
    }

    /// Wraps fetched rows, noting the rows they lead to.
    func adopt(_ rows: [StoreRow]) -> [PGRowObject] {
        rows.map { row in
            let object = PGRowObject(row, resolver: self)
            note(object)
            return object
        }
    }

    private func note(_ object: PGRowObject) {
        let row = object.row
        objects[row.schema.rootName, default: [:]][row.primaryKey] = object
        sources[row.schema.name, default: []].append(row.primaryKey)
        for slot in row.slots {
            if case .toOneFault(let id?) = slot, let key = id.primaryKey, objects[id.rootName]?[key] == nil {
                pending[id.rootName, default: []].insert(key)
            }
        }
    }

    /// The object of `id`'s row, or nil when it has none.
    func object(for id: ObjectID) throws -> PGRowObject? {
        guard let key = id.primaryKey else { return nil }
        if let object = objects[id.rootName]?[key] { return object }
        guard let table = store.schema.tables[id.rootName] else { return nil }
        var keys = pending[id.rootName] ?? []
        keys.insert(key)
        pending[id.rootName] = nil
        let sql = "SELECT \(store.selectList(table, alias: "t")) FROM \(pgIdentifier(table.name)) AS \"t\" "
            + "WHERE \"t\".\"_id\" = ANY($1)"
        for row in try store.rows(sql, [.integerArray(keys.sorted())], table: table) {
            note(PGRowObject(row, resolver: self))
        }
        return objects[id.rootName]?[key]
    }

    /// The destinations of a to-many of `row`, in the relationship's order.
    func destinations(of relationship: RelationshipDescription, from row: StoreRow) throws -> [PGRowObject] {
        let cacheKey = row.schema.name + "." + relationship.name
        if let cached = toMany[cacheKey] { return cached[row.primaryKey] ?? [] }
        let keys = Array(Set((sources[row.schema.name] ?? []) + [row.primaryKey])).sorted()
        let found = try store.destinationRows(of: relationship, sourceEntity: row.schema.name, keys: keys)
        var byKey: [Int64: [PGRowObject]] = [:]
        for (owner, rows) in found {
            byKey[owner] = rows.map { destination in
                if let known = objects[destination.schema.rootName]?[destination.primaryKey] { return known }
                let object = PGRowObject(destination, resolver: self)
                note(object)
                return object
            }
        }
        toMany[cacheKey] = byKey
        return byKey[row.primaryKey] ?? []
    }
}
#endif
