import Foundation
import Persistence

/// Which object now is the one a change of the persistent history names, for `books undo`.
///
/// A change names its object by ID, and an ID names one row: an object deleted and brought
/// back by an undo is a new object with a new ID, which the older changes do not name. An
/// object of an entity with a uniqueness constraint (a book's UUID, an author's or a tag's
/// name) is the same object as long as it has the same values of that constraint: a delete
/// change of the history keeps them (`previousValues`), so every ID the history names can be
/// mapped to them, and from them to the object that has them now.
///
/// The deletes are read only when a lookup needs them (an object that is not in the
/// catalogue under the ID a change names): an undo of a command whose objects are all still
/// there (the common case, a redo of 200,000 books included) never reads the history's
/// deletes, which after an undo of a large seed are as many as its books.
///
/// A class: lookups that read the deletes keep them, from methods that do not change what
/// the lookup means.
final class UndoIdentities {
    private let context: ManagedObjectContext
    private let history: HistoryReader
    private let excluding: Set<Int64>
    /// What each delete change of the history kept, once read (see `deletedValues`).
    private var loaded: [ObjectID: [String: PersistentHistoryValue]]?

    /// Identities from the deletes of every transaction of `history` but those in
    /// `excluding` (the run being reversed, whose own deletes the reversal inserts again,
    /// reading their values from the change at hand).
    init(_ history: HistoryReader, excluding: Set<Int64>) {
        self.context = history.context
        self.history = history
        self.excluding = excluding
    }

    /// What a delete change of the history kept of the deleted object, by its ID: only the
    /// values of its entity's uniqueness constraints and the texts messages name it by (a
    /// book's UUID and title, a name), so that a long history of deletes stays small. Read
    /// one transaction at a time on first use; empty when the history cannot be read (a
    /// lookup that can throw reads it with `loadDeletedValues()` instead).
    var deletedValues: [ObjectID: [String: PersistentHistoryValue]] {
        (try? loadDeletedValues()) ?? [:]
    }

    /// `deletedValues`, read now if it was not yet.
    ///
    /// - Throws: a store error when the history cannot be read.
    private func loadDeletedValues() throws -> [ObjectID: [String: PersistentHistoryValue]] {
        if let loaded { return loaded }
        var values: [ObjectID: [String: PersistentHistoryValue]] = [:]
        var kept: [String: Set<String>] = [:]
        for transaction in history.transactions where !excluding.contains(transaction.transactionNumber) {
            for change in try history.changes(of: transaction) where change.changeType == .delete {
                guard let previous = change.previousValues else { continue }
                let entity = change.changedObjectID.entityName
                if kept[entity] == nil {
                    let constraints = context.model.entity(named: entity)?.uniquenessConstraints.flatMap { $0 } ?? []
                    kept[entity] = Set(constraints + ["uuid", "title", "name"])
                }
                let names = kept[entity] ?? []
                values[change.changedObjectID] = previous.filter { names.contains($0.key) }
            }
        }
        loaded = values
        return values
    }

    /// The object `id` names now: the object itself while it exists, else the object of the
    /// same entity with the uniqueness values its delete change kept; nil when neither is in
    /// the catalogue.
    ///
    /// - Throws: a store error when the catalogue cannot be read.
    func object(for id: ObjectID) throws -> ManagedObject? {
        if let object = try? context.existingObject(with: id), !object.isDeleted { return object }
        _ = try loadDeletedValues()
        guard let values = keptConstraintValues(of: id) else { return nil }
        let format = values.map { "\($0.name) == %@" }.joined(separator: " AND ")
        let request = FetchRequest(
            entityName: id.entityName, predicate: try FetchPredicate(format: format, argumentArray: values.map(\.value)))
        return try context.fetch(request).first { !$0.isDeleted }
    }

    /// A key that is the same for every ID the history gives one object: its entity and
    /// uniqueness values when they are known (kept by a delete, or read from the object
    /// now), else the ID itself.
    func key(for id: ObjectID, kept: [String: PersistentHistoryValue]? = nil) -> String {
        if let values = keptConstraintValues(of: id, kept: kept) { return Self.key(id.entityName, values) }
        guard let object = try? context.existingObject(with: id), !object.isDeleted,
            let entity = context.model.entity(named: id.entityName)
        else { return "\(id)" }
        for constraint in entity.uniquenessConstraints {
            let values = constraint.map { (name: $0, value: object.value(forKey: $0)) }
            if values.allSatisfy({ $0.value != nil }) { return Self.key(id.entityName, values) }
        }
        return "\(id)"
    }

    // MARK: - Internals

    /// The values of the first uniqueness constraint of the entity of `id` whose attributes
    /// its delete change kept, none of them null.
    private func keptConstraintValues(
        of id: ObjectID, kept given: [String: PersistentHistoryValue]? = nil
    ) -> [(name: String, value: Any?)]? {
        guard let kept = given ?? deletedValues[id], let entity = context.model.entity(named: id.entityName) else { return nil }
        constraints: for constraint in entity.uniquenessConstraints {
            var values: [(name: String, value: Any?)] = []
            for name in constraint {
                guard case .attribute(let value)? = kept[name], value != .null else { continue constraints }
                values.append((name, value.anyValue))
            }
            if !values.isEmpty { return values }
        }
        return nil
    }

    private static func key(_ entity: String, _ values: [(name: String, value: Any?)]) -> String {
        entity + values.map { "\u{0}\($0.name)=\($0.value.map { String(describing: $0) } ?? "")" }.joined()
    }
}
