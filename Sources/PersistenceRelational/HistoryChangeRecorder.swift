import PersistenceStore

/// The values a store's history keeps of what a change replaced, in the store's own form
/// (the SQLite store's column values, PostgreSQL's text): what `HistoryChangeRecorder` needs
/// to fold two writes of one object into one change.
package protocol HistoryPreviousValues {
    /// These values (an earlier write's), with `later`'s for each property these lack: the
    /// value before a transaction is the one it saw first.
    func keepingFirst(over later: Self) -> Self
}

/// What one write transaction of a store that tracks history changed, gathered as it writes
/// and recorded in the history's tables just before it commits, so that the history holds a
/// transaction exactly when its writes were committed. The SQLite and PostgreSQL stores
/// record with it; Core Data's layout, whose history rows follow Core Data's own rules, has
/// `CoreDataHistoryRecorder`.
///
/// One change per object: an object the transaction inserted and then wrote again (a batch
/// insert's aggregates) stays an insert; two writes of one object's row are one update with
/// the union of their properties and, of each property, the value before the first; a row
/// written and then deleted is deleted.
package struct HistoryChangeRecorder<Previous: HistoryPreviousValues> {
    /// A change waiting to be recorded.
    package struct Change {
        package var type: PersistentHistoryChange.ChangeType
        /// The object's entity (its own, for a sub-entity).
        package var entity: String
        package var key: Int64
        /// The properties an update wrote.
        package var properties: Set<String> = []
        /// The tombstone row of a delete, when the object had values to preserve.
        package var tombstone: Int64?
        /// The values the change replaced, by property name (see
        /// `PersistentHistoryChange.previousValues`); nil when a write did not read them (an
        /// upsert's update, an insert).
        package var previous: Previous?
    }

    package var author: String?
    package var contextName: String?
    package private(set) var changes: [Change] = []
    /// Each change's place in `changes`, by root entity and key.
    private var places: [RowName: Int] = [:]

    private struct RowName: Hashable {
        var root: String
        var key: Int64
    }

    package init() {}

    package mutating func inserted(entity: String, root: String, key: Int64) {
        add(Change(type: .insert, entity: entity, key: key), root: root)
    }

    /// An update adds its properties (and the values it replaced that an earlier write of
    /// the transaction did not) to the object's update, and nothing to its insert.
    package mutating func updated(
        entity: String, root: String, key: Int64, properties: some Sequence<String>, previous: Previous? = nil
    ) {
        if let place = places[RowName(root: root, key: key)] {
            if changes[place].type == .update {
                changes[place].properties.formUnion(properties)
                // A write that did not read the values leaves the change without them.
                if let previous, let first = changes[place].previous {
                    changes[place].previous = first.keepingFirst(over: previous)
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
    package mutating func deleted(entity: String, root: String, key: Int64, tombstone: Int64?, previous: Previous? = nil) {
        var change = Change(type: .delete, entity: entity, key: key, tombstone: tombstone, previous: previous)
        if let place = places[RowName(root: root, key: key)] {
            if changes[place].type == .update, let first = changes[place].previous, let previous {
                change.previous = first.keepingFirst(over: previous)
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
