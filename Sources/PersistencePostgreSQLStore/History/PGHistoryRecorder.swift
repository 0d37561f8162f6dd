#if PostgreSQL
import PersistenceStore

/// The changes one write transaction made, one per object, as they are written: what
/// `PostgreSQLStore.recordHistory` records before the commit (the SQLite store's rules,
/// `HistoryRecorder`), and what `notifySave` tells other processes.
///
/// One change per object: an object the transaction inserted and then wrote again stays an
/// insert; two writes of one object's row are one update with the union of their properties
/// and, of each property, the value before the first.
struct PGHistoryRecorder {
    struct Change {
        var type: PersistentHistoryChange.ChangeType
        var entity: String
        var key: Int64
        var properties: Set<String> = []
        var tombstone: Int64?
        /// The values the change replaced, by property name (see
        /// `PostgreSQLStore+PreviousValues`): the column's text as the server sends it (nil
        /// for NULL), or a to-many's destination keys; nil when the write did not read them
        /// (an upsert's update, an insert, a store that does not track history).
        var previous: PGPreviousValues?
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

    /// An update adds its properties (and the values it replaced that an earlier write of
    /// the transaction did not) to the object's update, and nothing to its insert.
    mutating func updated(
        entity: String, root: String, key: Int64, properties: some Sequence<String>, previous: PGPreviousValues? = nil
    ) {
        if let place = places[RowName(root: root, key: key)] {
            if changes[place].type == .update {
                changes[place].properties.formUnion(properties)
                // The value before the transaction is the one it saw first; a write that did
                // not read them leaves the change without previous values.
                if let previous, let first = changes[place].previous {
                    changes[place].previous = first.merging(previous)
                } else {
                    changes[place].previous = nil
                }
            }
            return
        }
        add(Change(type: .update, entity: entity, key: key, properties: Set(properties), previous: previous), root: root)
    }

    /// A row written and then deleted by one transaction is deleted: only that is said, with
    /// the values it had before the transaction where an update saw them first.
    mutating func deleted(entity: String, root: String, key: Int64, tombstone: Int64?, previous: PGPreviousValues? = nil) {
        var change = Change(type: .delete, entity: entity, key: key, tombstone: tombstone, previous: previous)
        if let place = places[RowName(root: root, key: key)] {
            if changes[place].type == .update, let first = changes[place].previous, let previous {
                change.previous = previous.overridden(by: first)
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
#endif
