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
struct UndoIdentities {
    private let context: ManagedObjectContext
    /// The values a delete change of the history kept, by the deleted object's ID.
    private(set) var deletedValues: [ObjectID: [String: PersistentHistoryValue]] = [:]

    init(_ transactions: [PersistentHistoryTransaction], context: ManagedObjectContext) {
        self.context = context
        for transaction in transactions {
            for change in transaction.changes where change.changeType == .delete {
                if let values = change.previousValues { deletedValues[change.changedObjectID] = values }
            }
        }
    }

    /// The object `id` names now: the object itself while it exists, else the object of the
    /// same entity with the uniqueness values its delete change kept; nil when neither is in
    /// the catalogue.
    ///
    /// - Throws: a store error when the catalogue cannot be read.
    func object(for id: ObjectID) throws -> ManagedObject? {
        if let object = try? context.existingObject(with: id), !object.isDeleted { return object }
        guard let values = keptConstraintValues(of: id) else { return nil }
        let format = values.map { "\($0.name) == %@" }.joined(separator: " AND ")
        let request = FetchRequest(
            entityName: id.entityName, predicate: try FetchPredicate(format: format, argumentArray: values.map(\.value)))
        return try context.fetch(request).first { !$0.isDeleted }
    }

    /// A key that is the same for every ID the history gives one object: its entity and
    /// uniqueness values when they are known (kept by a delete, or read from the object
    /// now), else the ID itself.
    func key(for id: ObjectID) -> String {
        if let values = keptConstraintValues(of: id) { return Self.key(id.entityName, values) }
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
    private func keptConstraintValues(of id: ObjectID) -> [(name: String, value: Any?)]? {
        guard let kept = deletedValues[id], let entity = context.model.entity(named: id.entityName) else { return nil }
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
