import Foundation
import PersistenceModel
import PersistenceStore

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
    /// What a row whose unique values are stored does, by the merge policy (for an entity
    /// with constraints): updates that row under object-trump and overwrite merging (then
    /// registered objects of the entity's table may be stale), is skipped under store-trump
    /// and rollback merging (the store's state wins), and is refused under `.error`.
    let onConflict: InsertConflictAction
    /// Whether a row whose unique values are stored updates that row.
    var updatesConflicts: Bool { onConflict == .update }
    /// The positions of the to-ones a row may set.
    let toOnePositions: [Int]
    /// The positions of the to-manys a row may set (links the store keeps apart from rows).
    let toManyPositions: [Int]
    /// The to-ones whose destinations keep derived aggregates over their inverse.
    let aggregatedLinks: [AggregatedLink]

    /// Checks that the request can run in `context`.
    ///
    /// - Throws: `ObjectAccessError` for an unknown or abstract entity;
    ///   `BatchInsertError` for an upsert of an entity with data stored outside the file.
    init(_ request: BatchInsertRequest, context: ManagedObjectContext) throws {
        let schema = try context.insertableSchema(named: request.entityName)
        let coordinator = context.persistentStoreCoordinator
        self.request = request
        self.context = context
        let template = BatchInsertTemplate(schema: schema, model: coordinator.managedObjectModel)
        self.template = template
        onConflict = schema.uniquenessConstraints.isEmpty ? .fail : context.mergePolicy.insertConflictAction
        let toOnePositions = schema.plans.indices.filter { position in
            schema.plans[position].kind == .toOne && template.relationshipRefusals[position] == nil
        }
        self.toOnePositions = toOnePositions
        toManyPositions = schema.plans.indices.filter { position in
            schema.plans[position].kind == .toMany && template.relationshipRefusals[position] == nil
        }
        if onConflict == .update {
            template.linkRefusal =
                "a row whose unique values are stored updates that row under object-trump and overwrite merging, "
                + "and the stored row keeps its own links: insert objects, or use another merge policy"
        }
        aggregatedLinks = Self.aggregatedLinks(of: template, positions: toOnePositions, model: coordinator.managedObjectModel)
        // An updated row's external file is named for the row that replaced it, and a skipped
        // row's is written before the row is refused; rather than leave files behind, such an
        // entity's rows are merged by saving objects.
        if onConflict != .fail, case let external = try coordinator.read({ $0.externallyStoredAttributes(of: schema.name) }),
            !external.isEmpty
        {
            throw BatchInsertError(
                entity: schema.name,
                reason: "it keeps \(external.joined(separator: ", ")) outside the store file, "
                    + "and a batch insert cannot merge such rows with stored ones: insert objects, or use the .error merge policy")
        }
    }

    /// The inverse to-manys that the rows' to-ones add to: each destination entity and the
    /// inverse's name. Registered destinations that have loaded one are now missing rows.
    var inverseLinks: [(destinationEntity: String, inverse: String)] {
        (toOnePositions + toManyPositions).compactMap { position in
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
    ///   same unique values, or (under `.error`) a row whose values are stored (under
    ///   store-trump and rollback merging such a row is skipped);
    ///   `ValueTransformerError`; the store's failure.
    func write(in transaction: any StoreTransaction) throws {
        let schema = template.schema
        let scratch = ManagedObject(
            ObjectConstruction(
                schema: schema, objectID: context.makeTemporaryID(for: schema), context: context, isFault: false,
                slots: template.initialSlots))
        scratch.isInserted = true
        // Unregistered: detached when done, so that nothing refers to the context after it.
        defer { scratch.managedObjectContext = nil }

        refuseLinksKeptInRows(by: transaction)
        var rows = RowChecks(schema: schema)
        let left = try notingDestinationsLeft(in: transaction) {
            var pending = PendingRows(capacity: transaction.rowsPerWrite(entity: schema.name))
            for index in 0..<request.count {
                var row = BatchInsertRow(template: template, index: index)
                try request.fill(index, &row)
                scratch.slots = row.takeSlots()
                let constrained = try prepare(scratch, row: index, checks: &rows)
                if pending.rows.isEmpty {
                    let count = min(pending.capacity, request.count - index)
                    pending.firstKey = try transaction.allocateKeys(rootEntity: schema.rootName, count: count)
                }
                let key = pending.firstKey + Int64(pending.rows.count)
                try reportingConflicts(pending) {
                    try transaction.insert(scratch, key: key, tag: index, onConflict: onConflict)
                }
                pending.append(index: index, constrained: constrained)
                for position in toManyPositions {
                    guard case .toMany(let destinations) = scratch.slots[position], !destinations.isEmpty else { continue }
                    pending.links.append(PendingLinks(key: key, position: position, destinations: destinations))
                }
                if pending.isFull { try flush(&pending, transaction) }
            }
            try flush(&pending, transaction)
        }
        try updateAggregates(linked: rows.linked.values, left: left, in: transaction)
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

    /// Writes the chunk's rows now (the store writes them many per statement), so that a
    /// conflict names its row with the values kept; then the links of the rows written.
    private func flush(_ pending: inout PendingRows, _ transaction: any StoreTransaction) throws {
        guard !pending.rows.isEmpty else { return }
        try reportingConflicts(pending) { try transaction.flush() }
        try writeLinks(pending.links, in: transaction)
        pending.removeAll()
    }

    /// Writes each written row's to-many links, in each list's order, many per statement
    /// where the store can (`linkNewRows`). Under `.skip` a row
    /// whose unique values were stored was left unwritten, so its freshly allocated key has
    /// no row: the store says which keys it holds. (Under `.update` no row has links, and
    /// under `.fail` every row was written or the request failed.)
    private func writeLinks(_ links: [PendingLinks], in transaction: any StoreTransaction) throws {
        guard !links.isEmpty else { return }
        let schema = template.schema
        var written: Set<Int64>?
        if onConflict == .skip {
            var seen = Set<Int64>()
            let keys = links.map(\.key).filter { seen.insert($0).inserted }
            written = Set(try transaction.currentVersions(rootEntity: schema.rootName, keys: keys).keys)
        }
        for position in toManyPositions {
            // Destinations were checked with the row: saved, or given a key by the save that writes the rows.
            let rows = links.filter { $0.position == position && written?.contains($0.key) ?? true }
                .map { (own: $0.key, others: $0.destinations.compactMap(\.rowKey)) }
            guard !rows.isEmpty else { continue }
            try transaction.linkNewRows(entity: schema.name, relationship: schema.plans[position].name, links: rows)
        }
    }

    /// Refuses, for the rows about to be filled, the to-manys whose links `transaction`'s
    /// store keeps in rows rather than apart (none in the project's stores: a to-many a row
    /// may set is a many-to-many or has no inverse).
    private func refuseLinksKeptInRows(by transaction: any StoreTransaction) {
        for position in toManyPositions
        where !transaction.storesLinksInJoinTable(entity: template.schema.name, relationship: template.schema.plans[position].name) {
            template.relationshipRefusals[position] =
                "this store keeps its links in rows, which a batch insert does not write: insert objects"
        }
    }

    /// Runs `body`, reporting a uniqueness conflict of one of the chunk's rows by its place
    /// in the request and the values it was refused for.
    private func reportingConflicts(_ pending: PendingRows, _ body: () throws -> Void) throws {
        do { try body() } catch let violation as UniquenessViolation {
            let constraints = template.schema.uniquenessConstraints
            let index = violation.constraintIndex ?? 0
            let constrained = pending.constrained(ofRow: violation.tag) ?? []
            let values = index < constrained.count ? constrained[index].map(\.description) : []
            throw ConstraintConflictError(
                entity: template.schema.name, keys: constraints.indices.contains(index) ? constraints[index] : [],
                values: values, object: template.rowName(violation.tag))
        }
    }

    /// Checks the row's destinations, to-one and to-many alike: of this context, not
    /// deleted, and saved or given a key by the save that writes the rows.
    private func checkDestinations(
        of scratch: ManagedObject, row: Int, linked: inout [ObjectIdentifier: ManagedObject]
    ) throws {
        for position in toOnePositions {
            guard case .toOne(let destination?) = scratch.slots[position] else { continue }
            try checkDestination(destination, at: position, row: row, linked: &linked)
        }
        for position in toManyPositions {
            guard case .toMany(let destinations) = scratch.slots[position] else { continue }
            for destination in destinations { try checkDestination(destination, at: position, row: row, linked: &linked) }
        }
    }

    private func checkDestination(
        _ destination: ManagedObject, at position: Int, row: Int, linked: inout [ObjectIdentifier: ManagedObject]
    ) throws {
        guard linked[ObjectIdentifier(destination)] == nil else { return }
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

/// One row's destinations of one to-many, appended as links once the row is written.
private struct PendingLinks {
    let key: Int64
    let position: Int
    let destinations: [ManagedObject]
}

/// Rows encoded and waiting for their statement, with what a conflict message needs.
/// The rows of one chunk of a batch insert: written in one go, under consecutive keys
/// allocated for the chunk, with each row's uniqueness values kept to name a conflict.
private struct PendingRows {
    let capacity: Int
    var firstKey: Int64 = 0
    private(set) var rows: [Int] = []
    private var constrained: [[[AttributeValue]]] = []
    /// The to-many links of the chunk's rows, written after them.
    var links: [PendingLinks] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        rows.reserveCapacity(self.capacity)
    }

    var isFull: Bool { rows.count >= capacity }

    mutating func append(index: Int, constrained: [[AttributeValue]]) {
        rows.append(index)
        self.constrained.append(constrained)
    }

    /// The uniqueness values of the request's row `index`, if it is in this chunk.
    func constrained(ofRow index: Int) -> [[AttributeValue]]? {
        rows.firstIndex(of: index).map { constrained[$0] }
    }

    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        constrained.removeAll(keepingCapacity: true)
        links.removeAll(keepingCapacity: true)
    }
}

public struct BatchInsertError: Error, Sendable, CustomStringConvertible {
    /// The entity of the request.
    public var entity: String
    /// Why the request cannot run.
    public var reason: String

    /// "A batch insert of Book cannot run: …".
    public var description: String { "A batch insert of \(entity) cannot run: \(reason)" }
}
