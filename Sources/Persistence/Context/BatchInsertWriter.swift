import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteStore

/// Writes the rows of one ``BatchInsertRequest`` inside a write transaction, as a save writes
/// inserted objects: each row is filled, given its derived values, validated, checked for
/// uniqueness, encoded, and written many rows per statement; then the destinations' derived
/// aggregates over the to-manys the rows joined are brought up to date.
///
/// One unregistered object of the entity carries each row in turn through the save's own
/// steps (`DerivedValues`, `ObjectValidator`, `RowEncodePlan`), so the rules are the ones
/// every save applies, without an object, a registry entry and a change record per row.
final class BatchInsertWriter {
    let request: BatchInsertRequest
    let template: BatchInsertTemplate
    let context: ManagedObjectContext
    let plan: RowEncodePlan
    /// Whether a row whose unique values are stored updates that row (object-trump merging,
    /// with constraints): registered objects of the entity's table may then be stale.
    let updatesConflicts: Bool
    /// The positions of the to-ones a row may set.
    let toOnePositions: [Int]
    /// The to-ones whose destinations keep derived aggregates over their inverse.
    let aggregatedLinks: [AggregatedLink]

    /// Checks that the request can run in `context`.
    ///
    /// - Throws: `ObjectAccessError` for an unknown or abstract entity;
    ///   `BatchInsertError` for an upsert of an entity with data stored outside the file.
    init(_ request: BatchInsertRequest, context: ManagedObjectContext) throws {
        let schema = try context.insertableSchema(named: request.entityName)
        let store = context.store
        guard let mapping = store.schema.entities[schema.name] else {
            preconditionFailure("The store has no mapping for \(schema.name)")
        }
        self.request = request
        self.context = context
        let template = BatchInsertTemplate(schema: schema, model: store.model)
        self.template = template
        plan = RowEncodePlan(mapping)
        updatesConflicts = context.mergePolicy == .objectTrump && !schema.uniquenessConstraints.isEmpty
        let toOnePositions = schema.plans.indices.filter { position in
            schema.plans[position].kind == .toOne && template.relationshipRefusals[position] == nil
        }
        self.toOnePositions = toOnePositions
        aggregatedLinks = Self.aggregatedLinks(of: template, positions: toOnePositions, model: store.model)
        // An updated row's external file is named for the row that replaced it; rather than
        // leave files behind, such an entity's rows are merged by saving objects.
        if updatesConflicts, let external = store.externalData?.externalColumns[schema.name], !external.isEmpty {
            throw BatchInsertError(
                entity: schema.name,
                reason: "it keeps \(external.map(\.attribute.name).joined(separator: ", ")) outside the store file, "
                    + "and a batch insert cannot merge such rows with stored ones: insert objects, or use the .error merge policy")
        }
    }

    /// The inverse to-manys that the rows' to-ones add to: each destination entity and the
    /// inverse's name. Registered destinations that have loaded one are now missing rows.
    var inverseLinks: [(destinationEntity: String, inverse: String)] {
        toOnePositions.compactMap { position in
            guard let inverse = template.schema.plans[position].inverseName,
                case .relationship(let relationship) = template.schema.properties[position]
            else { return nil }
            return (relationship.destinationEntityName, inverse)
        }
    }

    /// Writes every row. Call inside a write transaction: on a throw the caller rolls it back.
    ///
    /// - Throws: the error of a row's `fill`; `ObjectAccessError` for a derived value that
    ///   does not fit or a destination that cannot be linked; `ValidationError` with the
    ///   failures of the first invalid row; `ConstraintConflictError` for two rows with the
    ///   same unique values, or (under `.error`) a row whose values are stored;
    ///   `ValueTransformerError`; `SQLiteError`.
    func write() throws {
        let schema = template.schema
        let store = context.store
        let scratch = ManagedObject(
            ObjectConstruction(
                schema: schema, objectID: context.makeTemporaryID(for: schema), context: context, isFault: false,
                slots: template.initialSlots))
        scratch.isInserted = true
        // Unregistered: detached when done, so that nothing refers to the context after it.
        defer { scratch.managedObjectContext = nil }

        var rows = RowChecks(schema: schema)
        let left = try notingDestinationsLeft {
            var pending = PendingRows(capacity: SQLiteStore.rowsPerInsert(plan.mapping))
            for index in 0..<request.count {
                var row = BatchInsertRow(template: template, index: index)
                try request.fill(index, &row)
                scratch.slots = row.takeSlots()
                let constrained = try prepare(scratch, row: index, checks: &rows)
                pending.append(index: index, columns: try plan.values(of: scratch), constrained: constrained)
                if pending.isFull { try flush(&pending, store: store) }
            }
            try flush(&pending, store: store)
        }
        try updateAggregates(linked: rows.linked.values, left: left)
    }

    /// What the checks of one request's rows remember from row to row.
    private struct RowChecks {
        var groups = UniquenessGroups()
        let constraints: [UniquenessGroups.Entry]
        /// Every row's unique values so far.
        var seen: Set<UniquenessKey> = []
        /// The destinations checked so far. Held, not just named: a destination released
        /// between rows could otherwise leave its identifier to an object never checked.
        var linked: [ObjectIdentifier: ManagedObject] = [:]

        init(schema: EntitySchema) {
            constraints = groups.entries(for: schema)
        }
    }

    /// Takes the row in `scratch` through a save's steps: its destinations are checked, its
    /// derived values computed, its rules validated, and its unique values checked against
    /// the rows before it.
    ///
    /// - Returns: the row's values of each uniqueness constraint, for a conflict message.
    private func prepare(
        _ scratch: ManagedObject, row index: Int, checks: inout RowChecks
    ) throws -> [[AttributeValue]] {
        try checkDestinations(of: scratch, row: index, linked: &checks.linked)
        do { try DerivedValues.compute(scratch) } catch var error as ObjectAccessError {
            error.reason += " (\(template.rowName(index)))"
            throw error
        }
        let failures = ObjectValidator.failures(of: scratch)
        if !failures.isEmpty {
            throw ValidationError(failures: failures.map { failure in
                var failure = failure
                failure.object = template.rowName(index)
                return failure
            })
        }
        var constrained: [[AttributeValue]] = []
        for entry in checks.constraints {
            let values = entry.values(of: scratch)
            constrained.append(values)
            if !entry.record(values, in: &checks.seen) {
                throw ConstraintConflictError(
                    entity: template.schema.name, keys: entry.constraint, values: values.map(\.description),
                    object: template.rowName(index))
            }
        }
        return constrained
    }

    /// Writes the pending rows with one statement under newly allocated keys. When SQLite
    /// refuses it for a uniqueness conflict, the rows are written one by one so that the
    /// error names the row and its values.
    private func flush(_ pending: inout PendingRows, store: SQLiteStore) throws {
        guard !pending.rows.isEmpty else { return }
        var next = try store.allocatePrimaryKeys(table: template.schema.rootName, count: pending.rows.count)
        for i in pending.rows.indices {
            pending.rows[i].primaryKey = next
            next += 1
        }
        do {
            try store.insertRows(plan.mapping, pending.rows, updatingConflicts: updatesConflicts)
        } catch let error as SQLiteError where error.isUniqueConstraint {
            for (i, row) in pending.rows.enumerated() {
                do {
                    try store.insertRows(plan.mapping, [row], updatingConflicts: updatesConflicts)
                } catch let rowError as SQLiteError where rowError.isUniqueConstraint {
                    throw conflict(rowError, row: pending.indexes[i], constrained: pending.constrained[i])
                }
            }
            throw error
        }
        pending.removeAll()
    }

    /// The error for a row the store refused: the constraint SQLite names, with the row's values.
    private func conflict(_ error: SQLiteError, row: Int, constrained: [[AttributeValue]]) -> ConstraintConflictError {
        let constraints = template.schema.uniquenessConstraints
        let index = template.schema.uniquenessConstraintIndex(failedIn: error) ?? 0
        let values = index < constrained.count ? constrained[index].map(\.description) : []
        return ConstraintConflictError(
            entity: template.schema.name, keys: constraints.indices.contains(index) ? constraints[index] : [],
            values: values, object: template.rowName(row))
    }

    /// Checks each destination a row links to, once per request: it must belong to the
    /// context, not be deleted, and have a row (saved, or inserted by the same save).
    private func checkDestinations(
        of scratch: ManagedObject, row: Int, linked: inout [ObjectIdentifier: ManagedObject]
    ) throws {
        for position in toOnePositions {
            guard case .toOne(let destination?) = scratch.slots[position],
                linked[ObjectIdentifier(destination)] == nil
            else { continue }
            var reason: String?
            if destination.managedObjectContext !== context {
                reason = "the object belongs to another context"
            } else if destination.isDeleted {
                reason = "the object is deleted"
            } else if destination.objectID.primaryKey == nil {
                if destination.savingKey == nil {
                    reason = "the object is inserted but not saved: save it first, or write the rows with save(inserting:)"
                }
            } else {
                destination.fireFaultIfNeeded()
                if destination.isFault || destination.managedObjectContext == nil {
                    reason = "\(destination.objectID) is no longer in the store"
                }
            }
            if let reason {
                throw ObjectAccessError(
                    entity: template.schema.name, key: template.schema.plans[position].name,
                    reason: "\(reason) (\(template.rowName(row)))")
            }
            linked[ObjectIdentifier(destination)] = destination
        }
    }
}

/// Rows encoded and waiting for their statement, with what a conflict message needs.
private struct PendingRows {
    let capacity: Int
    var rows: [(primaryKey: Int64, columns: [SQLiteValue])] = []
    /// Each row's number in the request.
    var indexes: [Int] = []
    /// Each row's values of each uniqueness constraint.
    var constrained: [[[AttributeValue]]] = []

    init(capacity: Int) {
        self.capacity = capacity
        rows.reserveCapacity(capacity)
    }

    var isFull: Bool { rows.count >= capacity }

    mutating func append(index: Int, columns: [SQLiteValue], constrained: [[AttributeValue]]) {
        rows.append((0, columns))
        indexes.append(index)
        self.constrained.append(constrained)
    }

    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        indexes.removeAll(keepingCapacity: true)
        constrained.removeAll(keepingCapacity: true)
    }
}

/// A batch insert that cannot run for its entity, whatever its rows.
public struct BatchInsertError: Error, Sendable, CustomStringConvertible {
    /// The entity of the request.
    public var entity: String
    /// Why the request cannot run.
    public var reason: String

    /// "A batch insert of Book cannot run: …".
    public var description: String { "A batch insert of \(entity) cannot run: \(reason)" }
}
