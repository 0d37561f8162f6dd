#if PostgreSQL
import PersistenceStore

/// The changes one write transaction made, one per object, as they are written: what
/// `PostgreSQLStore.recordHistory` records before the commit (the SQLite store's rules).
struct PGHistoryRecorder {
    struct Change {
        var type: PersistentHistoryChange.ChangeType
        var entity: String
        var key: Int64
        var properties: Set<String> = []
        var tombstone: Int64?
    }

    var author: String?
    var contextName: String?
    private(set) var changes: [Change] = []
    private var places: [String: Int] = [:]

    mutating func inserted(entity: String, root: String, key: Int64) {
        add(Change(type: .insert, entity: entity, key: key), root: root)
    }

    /// An update adds its properties to the object's update, and nothing to its insert.
    mutating func updated(entity: String, root: String, key: Int64, properties: some Sequence<String>) {
        if let place = places["\(root) \(key)"] {
            if changes[place].type == .update { changes[place].properties.formUnion(properties) }
            return
        }
        add(Change(type: .update, entity: entity, key: key, properties: Set(properties)), root: root)
    }

    /// A row written and then deleted by one transaction is deleted: only that is said.
    mutating func deleted(entity: String, root: String, key: Int64, tombstone: Int64?) {
        let change = Change(type: .delete, entity: entity, key: key, tombstone: tombstone)
        if let place = places["\(root) \(key)"] {
            changes[place] = change
        } else {
            add(change, root: root)
        }
    }

    private mutating func add(_ change: Change, root: String) {
        places["\(root) \(change.key)"] = changes.count
        changes.append(change)
    }
}
#endif
