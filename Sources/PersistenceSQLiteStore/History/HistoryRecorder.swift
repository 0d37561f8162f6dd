import Foundation
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

    mutating func updated(entity: String, root: String, key: Int64, properties: some Sequence<String>) {
        let name = RowName(root: root, key: key)
        if let place = places[name] {
            if changes[place].type == .update { changes[place].properties.formUnion(properties) }
            return
        }
        add(Change(type: .update, entity: entity, key: key, properties: Set(properties)), root: root)
    }

    mutating func deleted(entity: String, root: String, key: Int64, tombstone: Int64?) {
        let change = Change(type: .delete, entity: entity, key: key, tombstone: tombstone)
        // A row written and then deleted by one transaction is deleted: say only that.
        if let place = places[RowName(root: root, key: key)] {
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
