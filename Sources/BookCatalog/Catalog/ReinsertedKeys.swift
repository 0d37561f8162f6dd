import Foundation
import Persistence

/// The objects an undo (or a redo) inserted again, each by the ID its delete change gave it:
/// the ID the store gave it now. See `UndoRun`.
///
/// A redo of a seed of 200,000 books inserts every one of them again, and every later link
/// to one of them is found through this map, so it lives as long as the run: kept as pairs of
/// primary keys (old, new) per table, 16 bytes an object, sorted by the old key. A
/// `[ObjectID: ObjectID]` took 48 bytes an entry in a table at most three quarters full, and
/// briefly twice that while it grew: about 37 MB at its peak for 200,000 books, against
/// 3.2 MB here. The IDs are made again from the old ID's scope (entity, table and store), which
/// the new object shares.
///
/// A class: a lookup sorts the pairs added since the last one, which does not change what
/// the map holds.
final class ReinsertedKeys {
    private struct Pair {
        var old: Int64
        var new: Int64
    }

    /// Pairs by table (the root entity's name), sorted by `old` up to `sortedCount`.
    private var tables: [String: (pairs: [Pair], sortedCount: Int)] = [:]

    /// Makes room for `counts` objects, by table, so that the pairs are not copied as they grow.
    func reserve(_ counts: [String: Int]) {
        for (table, count) in counts {
            tables[table, default: ([], 0)].pairs.reserveCapacity(count)
        }
    }

    /// Notes that the object the history names `old` is `new` now (both saved IDs; an
    /// unsaved one is not noted).
    func insert(_ old: ObjectID, as new: ObjectID) {
        guard let oldKey = old.primaryKey, let newKey = new.primaryKey else { return }
        tables[old.rootName, default: ([], 0)].pairs.append(Pair(old: oldKey, new: newKey))
    }

    /// The ID of the object inserted again for `old`, or nil.
    func newID(for old: ObjectID) -> ObjectID? {
        guard let key = old.primaryKey, var table = tables[old.rootName] else { return nil }
        if table.sortedCount < table.pairs.count {
            // Set aside first, so that the sort does not copy the array the map still holds.
            tables[old.rootName] = nil
            // Sorted runs (what came before, each save's objects) are merged, not sorted again.
            table.pairs.sort { $0.old < $1.old }
            table.sortedCount = table.pairs.count
            tables[old.rootName] = table
        }
        var low = 0
        var high = table.pairs.count
        while low < high {
            let middle = (low + high) / 2
            if table.pairs[middle].old < key { low = middle + 1 } else { high = middle }
        }
        guard low < table.pairs.count, table.pairs[low].old == key else { return nil }
        return ObjectID(scope: old.scope, key: .permanent(table.pairs[low].new))
    }
}
