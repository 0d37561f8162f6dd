import Foundation
import PersistenceSQLite
import PersistenceStore

/// What one write transaction of a store that tracks history changed, gathered as it writes
/// (see `SQLiteStoreTransaction`) and recorded in the history's tables just before it
/// commits (`SQLiteStore.recordHistory`), so that the history holds a transaction exactly
/// when its writes were committed.
///
/// One change per object: an object the transaction inserted and then wrote again (a batch
/// insert's aggregates) stays an insert; two writes of one object's row are one update with
/// the union of their properties.
struct HistoryRecorder {
    /// A change waiting to be recorded.
    struct Change {
        var type: PersistentHistoryChange.ChangeType
        /// The object's entity (its own, for a sub-entity).
        var entity: String
        var key: Int64
        /// The properties an update wrote.
        var properties: Set<String> = []
        /// The `_tombstone` row of a delete, when the object had values to preserve.
        var tombstone: Int64?
        /// The column values the change replaced, by property name (see
        /// `PersistentHistoryChange.previousValues`): the first value of each the transaction
        /// saw; nil when a write did not read them (an upsert's update, an insert).
        var previous: [String: SQLiteValue]?
    }

    var author: String?
    var contextName: String?
    private(set) var changes: [Change] = []
    /// Each change's place in `changes`, by root entity and key.
    private var places: [RowName: Int] = [:]

    private struct RowName: Hashable {
        var root: String
        var key: Int64
    }

    mutating func inserted(entity: String, root: String, key: Int64) {
        add(Change(type: .insert, entity: entity, key: key), root: root)
    }

    mutating func updated(
        entity: String, root: String, key: Int64, properties: some Sequence<String>, previous: [String: SQLiteValue]?
    ) {
        let name = RowName(root: root, key: key)
        if let place = places[name] {
            if changes[place].type == .update {
                changes[place].properties.formUnion(properties)
                // The value before the transaction is the one it saw first; a write that did
                // not read them leaves the change without previous values.
                if let previous, let first = changes[place].previous {
                    changes[place].previous = first.merging(previous) { first, _ in first }
                } else {
                    changes[place].previous = nil
                }
            }
            return
        }
        add(Change(type: .update, entity: entity, key: key, properties: Set(properties), previous: previous), root: root)
    }

    mutating func deleted(entity: String, root: String, key: Int64, tombstone: Int64?, previous: [String: SQLiteValue]?) {
        var change = Change(type: .delete, entity: entity, key: key, tombstone: tombstone, previous: previous)
        // A row written and then deleted by one transaction is deleted: say only that, with the
        // values it had before the transaction where an update saw them first.
        if let place = places[RowName(root: root, key: key)] {
            if changes[place].type == .update, let first = changes[place].previous, let previous {
                change.previous = previous.merging(first) { _, first in first }
            } else if changes[place].type == .update {
                change.previous = nil
            }
            changes[place] = change
        } else {
            add(change, root: root)
        }
    }

    private mutating func add(_ change: Change, root: String) {
        places[RowName(root: root, key: change.key)] = changes.count
        changes.append(change)
    }
}
