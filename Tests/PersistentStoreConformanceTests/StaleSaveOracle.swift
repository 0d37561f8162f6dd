import Persistence

/// What Apple documents of optimistic locking, as a small model of contexts and one store:
/// the oracle the model-based stale-save test checks every store against.
///
/// Written from Core Data's documentation, not from this library's code:
/// - A context's object keeps a *snapshot*: the values and version of the row it last read
///   or wrote (Core Data's row cache entry, `Z_OPT`). Saving an object writes the row and
///   bumps its version; an inserted object's row starts at version 1.
/// - A save is *stale* for an updated or deleted object when the row's version is no longer
///   the snapshot's, or the row is gone ("Change Management": optimistic locking failures).
///   The merge policy decides (`NSMergePolicy`):
///   - `NSErrorMergePolicy`: the save fails, nothing is written, the context is as it was;
///   - `NSRollbackMergePolicy`: the object's changes are discarded for the store's values
///     (a delete is undone);
///   - `NSMergeByPropertyStoreTrumpMergePolicy`: property by property, the store's value
///     wins where both changed it;
///   - `NSMergeByPropertyObjectTrumpMergePolicy`: property by property, the object's change
///     wins; properties it did not change take the store's value;
///   - `NSOverwriteMergePolicy`: the object's whole state is written.
///   An object whose row was deleted by someone else leaves the save (the delete stands).
/// - `refresh(_:mergeChanges: false)` turns the object into a fault: its next access reads
///   the row as it then is; `mergeChanges: true` reads the row now and keeps the unsaved
///   changes on top, taking the row's version.
/// - A fetch gives registered objects *without* unsaved changes the row's current values
///   (this library keeps `shouldRefreshRefetchedObjects` on for them, a documented
///   difference); objects with unsaved changes keep their values and their snapshot.
struct StaleSaveOracle {
    /// A stored row: its values by attribute name and its version.
    struct Row: Equatable {
        var values: [String: Value]
        var version: Int
    }

    /// An attribute value of the test's model (`title`, `price`, `notes`).
    enum Value: Hashable, CustomStringConvertible {
        case text(String)
        case number(Int32)
        case none

        var description: String {
            switch self {
            case .text(let text): return "\"\(text)\""
            case .number(let number): return "\(number)"
            case .none: return "nil"
            }
        }
    }

    /// An object a context holds.
    struct Held {
        /// Its current values.
        var values: [String: Value]
        /// The values and version of the row when it last read or wrote it (nil: inserted).
        var snapshot: Row?
        var isDeleted = false
        var isInserted: Bool { snapshot == nil }
        /// Whether the next save writes it: inserted, deleted, or changed since the snapshot.
        var hasChanges: Bool { isInserted || isDeleted || values != snapshot?.values }
    }

    /// The attributes the model's objects have.
    let attributes: [String]

    /// Rows by object number.
    private(set) var rows: [Int: Row] = [:]
    /// Each context's objects by object number.
    private(set) var contexts: [[Int: Held]]

    init(contexts count: Int, attributes: [String]) {
        contexts = Array(repeating: [:], count: count)
        self.attributes = attributes
    }

    // MARK: - Operations

    mutating func insert(_ number: Int, values: [String: Value], in context: Int) {
        contexts[context][number] = Held(values: values, snapshot: nil)
    }

    /// A batch insert: a row at version 1 that no context holds yet.
    mutating func batchInsert(_ number: Int, values: [String: Value]) {
        rows[number] = Row(values: values, version: 1)
    }

    mutating func set(_ value: Value, for attribute: String, of number: Int, in context: Int) {
        contexts[context][number]?.values[attribute] = value
    }

    mutating func delete(_ number: Int, in context: Int) {
        contexts[context][number]?.isDeleted = true
    }

    /// Whether the context holds the object and may change it.
    func holds(_ number: Int, in context: Int) -> Bool {
        contexts[context][number].map { !$0.isDeleted } ?? false
    }

    /// The object leaves the context with its changes (a merged save deleted its row).
    mutating func discard(_ number: Int, in context: Int) {
        contexts[context][number] = nil
    }

    /// A fetch of one row (by a unique value): held without changes, the object takes the
    /// row; with changes it keeps them; not held, it is held with the row's values.
    mutating func fetch(_ number: Int, in context: Int) {
        guard let row = rows[number] else { return }
        if let held = contexts[context][number], held.hasChanges { return }
        contexts[context][number] = Held(values: row.values, snapshot: row)
    }

    /// Lets go of the context's objects without unsaved changes other than `kept`: a
    /// context keeps no such object alive, so a later fetch reads them anew (which the
    /// oracle's fetch does for them anyway).
    mutating func letGo(in context: Int, keeping kept: Int?) {
        contexts[context] = contexts[context].filter { $0.key == kept || $0.value.hasChanges }
    }

    /// `refreshAllObjects()`, each fault loaded at once: objects with changes are refreshed
    /// merging them, the others take the row.
    mutating func refreshAll(in context: Int) {
        for (number, held) in contexts[context] where !held.isInserted {
            refresh(number, mergeChanges: held.hasChanges, in: context)
        }
    }

    /// A fetch of every row: held objects without changes take the row; new ones are held.
    mutating func fetchAll(in context: Int) {
        for (number, row) in rows {
            if let held = contexts[context][number], held.hasChanges { continue }
            contexts[context][number] = Held(values: row.values, snapshot: row)
        }
    }

    /// `refresh(_:mergeChanges:)`, with the fault (if any) loaded at once.
    mutating func refresh(_ number: Int, mergeChanges: Bool, in context: Int) {
        guard let held = contexts[context][number], !held.isInserted else { return }
        guard let row = rows[number] else {
            contexts[context][number] = nil  // its row is gone: it leaves the context
            return
        }
        var values = row.values
        if mergeChanges, !held.isDeleted, let snapshot = held.snapshot {
            for attribute in attributes where held.values[attribute] != snapshot.values[attribute] {
                values[attribute] = held.values[attribute]
            }
        }
        contexts[context][number] = Held(values: values, snapshot: row, isDeleted: mergeChanges && held.isDeleted)
    }

    /// What a save does: throws nothing in the model; returns whether it failed with a
    /// conflict, and the objects it inserted (numbers), for the caller to map to IDs.
    mutating func save(in context: Int, policy: MergePolicy) -> (conflict: Bool, inserted: [Int]) {
        var held = contexts[context]
        let stale = held.filter { number, object in
            !object.isInserted && object.hasChanges && rows[number]?.version != object.snapshot?.version
        }.map(\.key)
        if !stale.isEmpty, policy == .error { return (true, []) }
        for number in stale {
            guard var object = held[number], let snapshot = object.snapshot else { continue }
            guard let row = rows[number] else {
                held[number] = nil  // deleted by someone else: that delete stands
                continue
            }
            if object.isDeleted {
                if policy == .rollback { object = Held(values: row.values, snapshot: row) }
                else { object.snapshot = row }
                held[number] = object
                continue
            }
            for attribute in attributes {
                let mine = object.values[attribute], theirs = row.values[attribute], before = snapshot.values[attribute]
                let objectChanged = mine != before, storeChanged = theirs != before
                switch policy {
                case .mergeByPropertyStoreTrump: if !objectChanged || storeChanged { object.values[attribute] = theirs }
                case .mergeByPropertyObjectTrump: if !objectChanged { object.values[attribute] = theirs }
                case .rollback: object.values[attribute] = theirs
                case .overwrite, .error: break
                }
            }
            object.snapshot = row
            held[number] = object
        }
        var inserted: [Int] = []
        for (number, object) in held.sorted(by: { $0.key < $1.key }) {
            if object.isDeleted {
                rows[number] = nil
                held[number] = nil
            } else if object.isInserted {
                let row = Row(values: object.values, version: 1)
                rows[number] = row
                held[number]?.snapshot = row
                inserted.append(number)
            } else if let snapshot = object.snapshot, object.values != snapshot.values {
                let row = Row(values: object.values, version: snapshot.version + 1)
                rows[number] = row
                held[number]?.snapshot = row
            }
        }
        contexts[context] = held
        return (false, inserted)
    }
}
