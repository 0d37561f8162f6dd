import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore

/// The SQLite store's writes of one transaction (see `StoreTransaction`): objects encoded
/// into column values through each entity's `RowEncodePlan`, new and changed rows buffered
/// and written many per statement, links written to join tables.
///
/// Many rows per statement matter because the search index's triggers run under a
/// statement savepoint, at which FTS5 writes its pending changes as a new segment (see
/// `SQLiteStore.insertRows`). A buffer holds one entity's rows (and, for updates, one set
/// of columns); any other write flushes it first, so writes reach SQLite in call order.
///
/// In a store that tracks history, each write is noted as a change of its object in
/// `history`, which `SQLiteStore.performWrite` records before the commit.
final class SQLiteStoreTransaction: StoreTransaction {
    private let store: SQLiteStore
    private var plans = RowEncodePlans()
    private var inserts = InsertBuffer()
    private var updates = UpdateBuffer()
    /// The changes written so far, when the store tracks history.
    private(set) var history: HistoryRecorder?

    init(store: SQLiteStore) {
        self.store = store
        if store.tracksHistory { history = HistoryRecorder() }
    }

    // MARK: - Rows

    func allocateKeys(rootEntity: String, count: Int) throws -> Int64 {
        try store.allocatePrimaryKeys(table: rootEntity, count: count)
    }

    func currentVersions(rootEntity: String, keys: [Int64]) throws -> [Int64: Int64] {
        try flush()
        return try store.currentVersions(table: rootEntity, keys: keys)
    }

    func insert(_ object: any SavedObject, key: Int64, tag: Int, onConflict: InsertConflictAction) throws {
        let plan = try self.plan(for: object.schema)
        try flushUpdates()
        if inserts.needsFlush(before: plan.mapping, onConflict: onConflict) { try flushInserts() }
        inserts.append(plan.mapping, key: key, columns: try plan.values(of: object), tag: tag, onConflict: onConflict)
        // A row that may meet a stored one is noted once written (see `flushInserts`).
        if onConflict == .fail { history?.inserted(entity: object.schema.name, root: object.schema.rootName, key: key) }
    }

    func update(_ object: any SavedObject, key: Int64, positions: [Int], tag: Int) throws {
        let plan = try self.plan(for: object.schema)
        // With no changed column (only links changed) the row is still written: its version.
        let changed = try plan.changedValues(of: object, positions: positions)
        try flushInserts()
        if updates.needsFlush(before: plan.mapping, columns: changed.columns) { try flushUpdates() }
        // The row as stored before this update, read before the update is written.
        let previous = history == nil ? nil : try previousValues(plan.mapping, key: key, columns: changed.columns, positions: positions)
        updates.append(plan.mapping, columns: changed.columns, key: key, values: changed.values, tag: tag)
        if history != nil { noteUpdate(of: object.schema, key: key, positions: positions, plan.mapping, previous: previous) }
    }

    func overwrite(_ object: any SavedObject, key: Int64, tag: Int) throws {
        let plan = try self.plan(for: object.schema)
        try flush()
        let columns = try plan.values(of: object)
        let previous = history == nil
            ? nil
            : try previousValues(
                plan.mapping, key: key, columns: Array(columns.indices), positions: object.schema.properties.indices)
        try reportingViolation(tag: tag, schema: object.schema) {
            try store.updateRow(plan.mapping, primaryKey: key, columns: Array(columns.indices), values: columns)
        }
        if history != nil {
            noteUpdate(of: object.schema, key: key, positions: object.schema.properties.indices, plan.mapping, previous: previous)
        }
    }

    func setValues(_ values: [(position: Int, value: AttributeValue)], of entity: EntitySchema, key: Int64) throws {
        let plan = try self.plan(for: entity)
        try flush()
        var columns: [Int] = []
        var encoded: [SQLiteValue] = []
        for (position, value) in values {
            guard let column = plan.mapping.columnIndex[position], case .attribute(let attribute) = entity.properties[position]
            else { continue }
            columns.append(column)
            encoded.append(try RowCodec.encode(value, for: attribute, entity: entity.name))
        }
        let previous = history == nil ? nil : try store.previousValues(plan.mapping, primaryKey: key, columns: columns)
        try store.updateRow(plan.mapping, primaryKey: key, columns: columns, values: encoded, bumpingVersion: false)
        if history != nil { noteUpdate(of: entity, key: key, positions: values.map(\.position), plan.mapping, previous: previous) }
    }

    func deleteRows(rootEntity: String, keys: [Int64]) throws {
        try flush()
        try store.deleteRows(table: rootEntity, primaryKeys: keys)
    }

    func recordTombstone(of object: any SavedObject, key: Int64) throws {
        try flush()
        let tombstone = try store.recordTombstone(of: object.schema, primaryKey: key) { object.storedSlot(at: $0) }
        guard history != nil else { return }
        // Every stored column of the row as it is before the delete, to undo it from the history.
        let mapping = try plan(for: object.schema).mapping
        let previous = try previousValues(
            mapping, key: key, columns: Array(mapping.table.columns.indices), positions: object.schema.properties.indices)
        history?.deleted(
            entity: object.schema.name, root: object.schema.rootName, key: key, tombstone: tombstone, previous: previous)
    }

    /// Many deletions at once: the tombstones written many per statement
    /// (`SQLiteStore.recordTombstones`), each entity's rows read for the history in a few
    /// statements (`previousValues(_:primaryKeys:columns:)`), not one a row, and no tombstone
    /// work at all for entities that preserve no value. The changes are noted in the order
    /// given, with exactly what `recordTombstone(of:key:)` notes.
    func recordTombstones(of objects: [any SavedObject], keys: [Int64]) throws {
        try flush()
        var previousRows: [ObjectIdentifier: [Int64: [String: SQLiteValue]]] = [:]
        if history != nil {
            var keysByEntity: [ObjectIdentifier: (schema: EntitySchema, keys: [Int64])] = [:]
            for (object, key) in zip(objects, keys) {
                keysByEntity[ObjectIdentifier(object.schema), default: (object.schema, [])].keys.append(key)
            }
            for (entity, group) in keysByEntity {
                let mapping = try plan(for: group.schema).mapping
                previousRows[entity] = try store.previousValues(
                    mapping, primaryKeys: group.keys, columns: Array(mapping.table.columns.indices))
            }
        }
        var tombstones: [(entity: String, key: Int64, json: String)] = []
        for (object, key) in zip(objects, keys) {
            if let json = try store.tombstoneJSON(of: object.schema, values: { object.storedSlot(at: $0) }) {
                tombstones.append((object.schema.name, key, json))
            }
        }
        let tombstoneRows = try store.recordTombstones(tombstones)
        guard history != nil else { return }
        for (object, key) in zip(objects, keys) {
            let schema = object.schema
            let tombstone = tombstoneRows.isEmpty ? nil : tombstoneRows[TombstoneName(entity: schema.name, key: key)]
            // Every stored column of the row as it is before the delete, and its links.
            var previous = previousRows[ObjectIdentifier(schema)]?[key] ?? [:]
            for (name, value) in try store.previousLinks(of: schema, primaryKey: key, positions: schema.relationshipPositions) {
                previous[name] = value
            }
            history?.deleted(entity: schema.name, root: schema.rootName, key: key, tombstone: tombstone, previous: previous)
        }
    }

    func setHistoryAuthor(_ author: String?, contextName: String?) {
        history?.author = author
        history?.contextName = contextName
    }

    func rowsPerWrite(entity: String) -> Int {
        store.schema.entities[entity].map(SQLiteStore.rowsPerInsert) ?? 1
    }

    func flush() throws {
        try flushInserts()
        try flushUpdates()
    }

    // MARK: - Links

    var storesAnyLinksInJoinTables: Bool { !store.schema.joinTables.isEmpty }

    func storesLinksInJoinTable(entity: String, relationship: String) -> Bool {
        store.schema.joinSide(entity: entity, relationship: relationship) != nil
    }

    func removeLinks(entity: String, relationship: String, from own: Int64) throws {
        guard let side = try side(entity, relationship) else { return }
        try store.deleteJoinRows(side, own: own)
    }

    func removeLinks(entity: String, relationship: String, to other: Int64) throws {
        guard let side = try side(entity, relationship) else { return }
        try store.deleteJoinRows(side, other: other)
    }

    func removeLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        guard let side = try side(entity, relationship) else { return }
        try store.deleteJoinRow(side, own: own, other: other)
    }

    func setLink(entity: String, relationship: String, from own: Int64, to other: Int64, position: Int?) throws {
        guard let side = try side(entity, relationship) else { return }
        try store.upsertJoinRow(side, own: own, other: other, position: position)
    }

    func appendLink(entity: String, relationship: String, from own: Int64, to other: Int64) throws {
        guard let side = try side(entity, relationship) else { return }
        try store.appendJoinRow(side, own: own, other: other)
    }

    func linkNewRows(entity: String, relationship: String, links: [(own: Int64, others: [Int64])]) throws {
        guard let side = try side(entity, relationship) else { return }
        try store.insertJoinRows(side, links: links)
    }

    func removeAllLinks(rootEntity: String, keys: [Int64]) throws {
        guard storesAnyLinksInJoinTables, !keys.isEmpty else { return }
        try flush()
        try store.deleteJoinRows(rootTable: rootEntity, primaryKeys: keys)
    }

    // MARK: - Uniqueness

    func existingKey(entity: String, constraint: [String], values: [AttributeValue]) throws -> Int64? {
        guard let mapping = store.schema.entities[entity] else { return nil }
        try flush()
        return try store.primaryKey(in: mapping, matching: constraint, values: try encoded(values, constraint, mapping))
    }

    func hasRow(entity: String, constraint: [String], anyOf valueLists: [[AttributeValue]]) throws -> Bool {
        guard let mapping = store.schema.entities[entity] else { return false }
        try flush()
        return try store.hasRow(
            in: mapping, matching: constraint, anyOf: try valueLists.map { try encoded($0, constraint, mapping) })
    }

    // MARK: - Aggregates

    func aggregate(_ derivation: Derivation, members: String, linkedBy link: String, to key: Int64) throws -> AttributeValue {
        guard let mapping = store.schema.entities[members] else { return .null }
        try flush()
        return try store.aggregate(derivation, over: mapping, linkedBy: link, to: key)
    }

    func notingDestinationsLeft(
        entity: String, relationships: [String], _ body: () throws -> Void
    ) throws -> [(relationship: String, key: Int64)] {
        guard let mapping = store.schema.entities[entity], !relationships.isEmpty else {
            try body()
            return []
        }
        return try store.notingDestinationsLeft(table: mapping.table, links: relationships) {
            try body()
            try flush()
        }
    }

    func entityName(rootEntity: String, key: Int64) throws -> String? {
        try flush()
        return try store.entityName(rootTable: rootEntity, key: key)
    }

    // MARK: - Internals

    /// The stored values of `columns` of the row under `key`, and the links of the to-many
    /// relationships among `positions` that join tables keep, as they are before this write
    /// (see `SQLiteStore.previousLinks`): what an undo needs to put the row back.
    private func previousValues(
        _ mapping: EntityMapping, key: Int64, columns: [Int], positions: some Sequence<Int>
    ) throws -> [String: SQLiteValue] {
        var values = try store.previousValues(mapping, primaryKey: key, columns: columns)
        for (name, value) in try store.previousLinks(of: mapping.schema, primaryKey: key, positions: positions) {
            values[name] = value
        }
        return values
    }

    /// Notes an update of the row under `key` that wrote the stored properties among
    /// `positions` (a to-many whose links changed included; transients left out).
    private func noteUpdate(
        of schema: EntitySchema, key: Int64, positions: some Sequence<Int>, _ mapping: EntityMapping,
        previous: [String: SQLiteValue]? = nil
    ) {
        let names = positions.compactMap { position -> String? in
            let property = schema.properties[position]
            switch property {
            case .relationship(let r) where r.isToMany: return r.isTransient ? nil : r.name
            default: return mapping.columnIndex[position] == nil ? nil : property.name
            }
        }
        history?.updated(entity: schema.name, root: schema.rootName, key: key, properties: names, previous: previous)
    }

    /// Notes the rows an insert under `.update` or `.skip` wrote: `written` holds each new
    /// row's key among `proposed`, and the key of each stored row an upsert updated instead.
    private func noteUpserts(_ mapping: EntityMapping, proposed: [Int64], written: [Int64]) {
        let schema = mapping.schema
        let proposed = Set(proposed)
        for key in written {
            if proposed.contains(key) {
                history?.inserted(entity: schema.name, root: schema.rootName, key: key)
            } else {
                noteUpdate(of: schema, key: key, positions: schema.properties.indices, mapping)
            }
        }
    }

    private func plan(for schema: EntitySchema) throws -> RowEncodePlan {
        if let plan = plans.plan(for: schema) { return plan }
        guard let mapping = store.schema.entities[schema.name] else {
            // Every entity of the store's model has a mapping, and objects come from contexts on it.
            preconditionFailure("The store has no mapping for \(schema.name)")
        }
        return plans.plan(for: mapping)
    }

    private func side(_ entity: String, _ relationship: String) throws -> JoinSide? {
        try flush()
        return store.schema.joinSide(entity: entity, relationship: relationship)
    }

    /// Values of a uniqueness constraint's attributes as their columns hold them.
    private func encoded(_ values: [AttributeValue], _ constraint: [String], _ mapping: EntityMapping) throws -> [SQLiteValue] {
        try zip(constraint, values).map { key, value in
            guard let attribute = mapping.schema.attribute(named: key) else { return .null }
            return try RowCodec.encode(value, for: attribute, entity: mapping.schema.name)
        }
    }

    /// Runs `body`, turning SQLite's UNIQUE failure into the model's `UniquenessViolation`.
    private func reportingViolation(tag: Int, schema: EntitySchema, _ body: () throws -> Void) throws {
        do { try body() } catch let error as SQLiteError where error.isUniqueConstraint {
            throw UniquenessViolation(tag: tag, constraintIndex: schema.uniquenessConstraintIndex(failedIn: error))
        }
    }

    /// Writes the buffered inserts; after a failed multi-row statement, the rows one by one,
    /// so that the violation names the row that broke the constraint.
    private func flushInserts() throws {
        guard let mapping = inserts.mapping else { return }
        let buffer = inserts
        inserts.removeAll()
        do {
            let noting = history != nil && buffer.onConflict != .fail
            let written = try store.insertRows(mapping, buffer.rows, onConflict: buffer.onConflict, returningKeys: noting)
            if noting { noteUpserts(mapping, proposed: buffer.rows.map(\.primaryKey), written: written) }
        } catch let error as SQLiteError where error.isUniqueConstraint {
            for (row, tag) in zip(buffer.rows, buffer.tags) {
                try reportingViolation(tag: tag, schema: mapping.schema) {
                    try store.insertRows(mapping, [row], onConflict: buffer.onConflict)
                }
            }
            throw error
        }
    }

    /// Writes the buffered updates; after a failed statement, row by row (see `flushInserts`).
    private func flushUpdates() throws {
        guard let mapping = updates.mapping else { return }
        let buffer = updates
        updates.removeAll()
        do {
            try store.updateRows(mapping, columns: buffer.columns, rows: buffer.rows)
        } catch let error as SQLiteError where error.isUniqueConstraint {
            for (row, tag) in zip(buffer.rows, buffer.tags) {
                try reportingViolation(tag: tag, schema: mapping.schema) {
                    try store.updateRow(mapping, primaryKey: row.primaryKey, columns: buffer.columns, values: row.values)
                }
            }
            throw error
        }
    }
}

/// New rows of one entity waiting to be written in multi-row statements.
///
/// The mapping (a large struct: table, SQL, plans) is stored when the first row of a run
/// comes, not with every row, and later rows are compared by their schema's identity: a
/// copy of the mapping per row (to store it, and to read it back in `needsFlush`) retained
/// and released its every string and array, a tenth of writing an inserted object.
private struct InsertBuffer {
    private(set) var mapping: EntityMapping?
    /// `mapping`'s entity, compared by identity.
    private var schema: EntitySchema?
    /// The rows a statement takes for `mapping` (`SQLiteStore.rowsPerInsert`).
    private var rowLimit = 0
    private(set) var onConflict = InsertConflictAction.fail
    private(set) var rows: [(primaryKey: Int64, columns: [SQLiteValue])] = []
    private(set) var tags: [Int] = []

    /// Whether the buffer must be written before a row of `mapping`'s entity joins it.
    func needsFlush(before mapping: EntityMapping, onConflict: InsertConflictAction) -> Bool {
        guard let schema else { return false }
        return schema !== mapping.schema || self.onConflict != onConflict || rows.count >= rowLimit
    }

    mutating func append(
        _ mapping: EntityMapping, key: Int64, columns: [SQLiteValue], tag: Int, onConflict: InsertConflictAction
    ) {
        if schema !== mapping.schema {
            self.mapping = mapping
            schema = mapping.schema
            rowLimit = SQLiteStore.rowsPerInsert(mapping)
        }
        self.onConflict = onConflict
        rows.append((key, columns))
        tags.append(tag)
    }

    mutating func removeAll() {
        mapping = nil
        schema = nil
        rows.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
    }
}

/// Changed rows of one entity, with the same changed columns, waiting to be written in
/// multi-row statements (see `SQLiteStore.updateRows`).
private struct UpdateBuffer {
    private(set) var mapping: EntityMapping?
    private(set) var columns: [Int] = []
    private(set) var rows: [(primaryKey: Int64, values: [SQLiteValue])] = []
    private(set) var tags: [Int] = []

    func needsFlush(before mapping: EntityMapping, columns: [Int]) -> Bool {
        guard let current = self.mapping else { return false }
        return current.schema !== mapping.schema || self.columns != columns
            || rows.count >= SQLiteStore.rowsPerUpdate(columnCount: columns.count)
    }

    mutating func append(_ mapping: EntityMapping, columns: [Int], key: Int64, values: [SQLiteValue], tag: Int) {
        self.mapping = mapping
        self.columns = columns
        rows.append((key, values))
        tags.append(tag)
    }

    mutating func removeAll() {
        mapping = nil
        columns = []
        rows.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
    }
}
