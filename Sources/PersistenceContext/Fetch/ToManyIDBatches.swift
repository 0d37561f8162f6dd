import PersistenceModel
import PersistenceStore

/// The objects of one fetch, in the fetch's order, by primary key: the siblings whose to-many
/// IDs a context reads together (see `ToManyIDBatches`).
///
/// Holds keys, not objects, 4 bytes a row: the objects go when the caller lets them go, and
/// a sibling that is gone is skipped. Keys past `UInt32.max` are not remembered (the fetch
/// then reads each object's to-many on its own, as before).
final class FetchCohort {
    /// The root entity of the fetched objects' hierarchy.
    let rootName: String
    /// The scope of the first fetched object's ID: looking up a key under it finds any object
    /// of the hierarchy (the registry compares names when scopes differ).
    let scope: ObjectID.Scope
    /// The fetched objects' keys, in fetch order.
    let keys: [UInt32]
    /// Whether `keys` ascend (a fetch in key order): then a key is found by binary search.
    let ascending: Bool
    /// The positions of `keys` in key order, made at the first search that needs it (a fetch
    /// in another order).
    private var byKey: [UInt32]?
    /// Where the last batch of siblings ended: a loop over the fetched objects asks next for
    /// the object there.
    var cursor = 0

    /// The cohort of `objects`, or nil when they are too few to batch or their keys cannot be
    /// held.
    init?(_ objects: [ManagedObject]) {
        guard objects.count > 1, let first = objects.first else { return nil }
        var keys: [UInt32] = []
        keys.reserveCapacity(objects.count)
        var ascending = true
        for object in objects {
            guard case .permanent(let key) = object.objectID.key, let small = UInt32(exactly: key) else { return nil }
            if let last = keys.last, last >= small { ascending = false }
            keys.append(small)
        }
        rootName = first.schema.rootName
        scope = first.objectID.scope
        self.keys = keys
        self.ascending = ascending
    }

    /// The position of `key` among the fetched objects, or nil when it was not fetched.
    func position(of key: Int64) -> Int? {
        guard let wanted = UInt32(exactly: key) else { return nil }
        // A loop over the objects asks for the one at the cursor, or near it.
        let window = max(0, cursor - 8)..<min(keys.count, cursor + 8)
        if let found = keys[window].firstIndex(of: wanted) { return found }
        if ascending { return Self.binarySearch(wanted, count: keys.count) { keys[$0] } }
        if byKey == nil { byKey = keys.indices.sorted { keys[$0] < keys[$1] }.map { UInt32($0) } }
        guard let byKey else { return nil }
        return Self.binarySearch(wanted, count: byKey.count) { keys[Int(byKey[$0])] }.map { Int(byKey[$0]) }
    }

    /// The index in `0..<count` whose key (`key(at:)`, ascending) is `wanted`, or nil.
    private static func binarySearch(_ wanted: UInt32, count: Int, key: (Int) -> UInt32) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let found = key(middle)
            if found == wanted { return middle }
            if found < wanted { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// Reading the IDs of a to-many for many fetched objects at once, as Core Data's batch
/// faulting does: when a context needs the destination IDs of an object's to-many fault, it
/// reads those of up to `batchSize` of the object's fetched siblings (the objects that came
/// from the same fetch, from the object on, whose same relationship is still an unloaded
/// fault without pending edits) in one store read, and keeps them, so that the siblings'
/// own requests need no read of the store.
///
/// What a kept result says is the store's state at that read, as a prefetched relationship
/// is. Kept results are dropped when their object is refreshed or goes, when the context
/// merges another context's save, saves, or is reset; an object whose relationship is
/// loaded, or has pending edits, never consults them. Memory is bounded: the last
/// `cohortLimit` fetches' keys, and the last batch of each relationship.
struct ToManyIDBatches {
    /// The most sources read in one batch.
    static let batchSize = 512
    /// The most fetches whose objects are remembered as siblings.
    static let cohortLimit = 4

    /// A relationship of a hierarchy, under which a batch is kept.
    struct Relationship: Hashable {
        let rootName: String
        let name: String
    }

    /// The recent fetches, the most recent last.
    private var cohorts: [FetchCohort] = []
    /// The IDs the last batch of each relationship read, by source key.
    private var kept: [Relationship: [Int64: [ObjectID]]] = [:]

    /// Whether any batch is kept.
    var hasKept: Bool { !kept.isEmpty }

    /// Remembers `objects`, a fetch's result in order, as siblings; the oldest fetch
    /// remembered is forgotten past `cohortLimit`.
    mutating func remember(_ objects: [ManagedObject]) {
        guard let cohort = FetchCohort(objects) else { return }
        if cohorts.count >= Self.cohortLimit { cohorts.removeFirst() }
        cohorts.append(cohort)
    }

    /// The kept IDs of the relationship of the object with this key, or nil.
    func keptIDs(_ relationship: Relationship, key: Int64) -> [ObjectID]? {
        kept[relationship]?[key]
    }

    /// The keys of `object`'s siblings to read with it, the object's own first: up to
    /// `batchSize` of the fetched objects from the object on (then before it), among those
    /// `isEligible` accepts. Just the object's own when it came from no remembered fetch.
    mutating func siblings(
        of object: ManagedObject, key: Int64, isEligible: (ObjectID.Scope, Int64) -> ObjectID?
    ) -> [ObjectID] {
        let rootName = object.schema.rootName
        for cohort in cohorts.reversed() where cohort.rootName == rootName {
            guard let position = cohort.position(of: key) else { continue }
            var found = [object.objectID]
            var index = position + 1
            while found.count < Self.batchSize, index < cohort.keys.count {
                if let id = isEligible(cohort.scope, Int64(cohort.keys[index])) { found.append(id) }
                index += 1
            }
            cohort.cursor = index
            index = position - 1
            while found.count < Self.batchSize, index >= 0 {
                if let id = isEligible(cohort.scope, Int64(cohort.keys[index])) { found.append(id) }
                index -= 1
            }
            return found
        }
        return [object.objectID]
    }

    /// Keeps what a batch read for `sources` (a source missing from `found` has no
    /// destinations), in place of the relationship's previous batch.
    mutating func keep(_ found: [ObjectID: [ObjectID]], of sources: [ObjectID], for relationship: Relationship) {
        var batch: [Int64: [ObjectID]] = [:]
        batch.reserveCapacity(sources.count)
        for source in sources {
            if let key = source.primaryKey { batch[key] = found[source] ?? [] }
        }
        kept[relationship] = batch
    }

    /// Drops the kept results of the object with this ID.
    mutating func dropKept(of id: ObjectID) {
        guard let key = id.primaryKey else { return }
        for relationship in kept.keys where relationship.rootName == id.rootName {
            kept[relationship]?[key] = nil
        }
    }

    /// Drops every kept result; the fetches stay remembered.
    mutating func dropKept() {
        if !kept.isEmpty { kept.removeAll() }
    }

    /// Forgets everything (a reset).
    mutating func removeAll() {
        kept.removeAll()
        cohorts.removeAll()
    }
}

extension EntitySchema {
    /// Whether the entity has a to-many relationship: whether its fetched objects are
    /// worth remembering as siblings.
    var hasToManyRelationships: Bool {
        properties.contains { property in
            if case .relationship(let relationship) = property { return relationship.isToMany }
            return false
        }
    }
}
