import Foundation
import PersistenceModel
import PersistenceStore

/// The rows one fetch reads, as objects a predicate can walk: each row once (so that a
/// predicate comparing two key paths to the same row sees the same object), to-one
/// destinations and to-many destinations read when a key path first reaches them.
final class RowSubjectGraph {
    private unowned let store: CoreDataStore
    private var subjects: [String: [Int64: RowSubject]] = [:]
    private var destinations: [ObjectIdentifier: [String: PredicateValue]] = [:]

    init(store: CoreDataStore) { self.store = store }

    /// The object standing for `row`.
    func subject(for row: StoreRow) -> RowSubject {
        if let existing = subjects[row.schema.rootName]?[row.primaryKey] { return existing }
        let subject = RowSubject(row: row, graph: self)
        subjects[row.schema.rootName, default: [:]][row.primaryKey] = subject
        return subject
    }

    /// The object of the row with this ID, or nil when there is none.
    func subject(for id: ObjectID) throws -> RowSubject? {
        guard let key = id.primaryKey else { return nil }
        if let existing = subjects[id.rootName]?[key] { return existing }
        guard let table = store.layout.tables[id.rootName], let row = try store.row(table, key: key) else { return nil }
        return subject(for: row)
    }

    /// The destinations of the to-many `relationship` of `subject`, as a collection.
    func destinations(of relationship: RelationshipDescription, from subject: RowSubject) throws -> PredicateValue {
        let id = ObjectIdentifier(subject)
        if let known = destinations[id]?[relationship.name] { return known }
        let rows = try store.destinationRows(of: relationship, entity: subject.row.schema.name, key: subject.row.primaryKey)
        let value = PredicateValue.collection(rows.map { .object(self.subject(for: $0)) })
        destinations[id, default: [:]][relationship.name] = value
        return value
    }
}

/// A row as a predicate's evaluated object: its attributes by type, a to-one as the
/// destination's object, a to-many as a collection of objects, as a managed object answers.
final class RowSubject: PredicateEvaluable {
    let row: StoreRow
    private unowned let graph: RowSubjectGraph

    init(row: StoreRow, graph: RowSubjectGraph) {
        self.row = row
        self.graph = graph
    }

    func predicateValue(forKey key: String) throws -> PredicateValue {
        guard let position = row.schema.propertyIndex[key] else {
            throw FetchPredicateError(kind: .unknownKey, format: "", message: "\(row.schema.name) has no property named '\(key)'")
        }
        switch row.schema.properties[position] {
        case .attribute:
            guard case .value(let value) = row.slots[position] else { return .null }
            return PredicateValue(value)
        case .relationship(let relationship):
            if relationship.isToMany { return try graph.destinations(of: relationship, from: self) }
            guard case .toOneFault(let id?) = row.slots[position], let destination = try graph.subject(for: id) else {
                return .null
            }
            return .object(destination)
        }
    }
}
