#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceStore

/// The writes of one save in one transaction of a PostgreSQL store (see `StoreTransaction`):
/// statements with bound parameters. New rows of one table are buffered and written many per
/// statement (`INSERT … VALUES (…), (…)`, at most `rowsPerWrite` rows), and so are updates of
/// the same columns of one entity's rows (`UPDATE … FROM (VALUES (…), (…))`), so a save of
/// many objects is a few round trips, not one a row; anything else the transaction does first
/// writes what is buffered, so statements reach the server in the order they were asked for.
/// A buffered row the server refuses for a unique value is named by its tag: the rows of the
/// refused statement are written again one by one, under a savepoint, up to that row.
///
/// Optimistic locking: `currentVersions` reads the rows' `_opt` with `FOR UPDATE`, so the
/// versions a save checks stay current until it commits. Upserts are `INSERT … ON
/// CONFLICT … DO UPDATE` (or `DO NOTHING`), atomic against another process inserting the
/// same unique values at the same moment.
final class PostgreSQLStoreTransaction: StoreTransaction {
    let store: PostgreSQLStore
    /// The connection, once the buffered rows are written: every statement but theirs goes
    /// through here.
    var connection: PGConnection {
        get throws {
            try flush()
            return store.connection
        }
    }
    /// New rows waiting to be written together.
    private var pending: PendingInserts?
    /// Changed columns of stored rows waiting to be written together (never at the same time
    /// as `pending`: each writes the other first, so statements keep their order).
    private var pendingUpdates: PendingUpdates?
    /// The changes written so far: recorded in the persistent history when the store
    /// tracks it, and sent to other processes at the commit (see `notifySave`).
    private(set) var changes = PGHistoryRecorder()
    /// Deleted objects whose previous values are read, many per statement, before the next
    /// statement that is not a tombstone's (see `recordTombstone`), when the store tracks
    /// history; their changes are noted then, in this order.
    private var pendingDeletes: [PendingDelete] = []
    /// Links waiting to be written many per statement, a buffer per join-table side and
    /// kind of write (see `PendingLinks`); never at the same time as buffered rows: each
    /// writes the other first.
    var pendingLinks: [PendingLinks] = []
    /// While `notingDestinationsLeft` runs: the to-ones watched and what they left.
    private var leaving: (entity: String, relationships: [String], left: [(relationship: String, key: Int64)])?

    init(store: PostgreSQLStore) {
        self.store = store
    }

    // MARK: - Rows

    func allocateKeys(rootEntity: String, count: Int) throws -> Int64 {
        let last = try connection.scalar(
            "INSERT INTO _primarykey (\"tableName\", \"lastKey\") VALUES ($1, $2) ON CONFLICT (\"tableName\") "
                + "DO UPDATE SET \"lastKey\" = _primarykey.\"lastKey\" + excluded.\"lastKey\" RETURNING \"lastKey\"",
            [.text(rootEntity), .integer(Int64(count))]
        ).flatMap { Int64($0) }
        guard let last else { throw PostgreSQLStoreError.corruptValue(entity: rootEntity, attribute: "_primarykey") }
        // The counter as it was: negative only when set by hand, refused like a spent one
        // (PostgreSQL itself refuses a sum past the largest bigint).
        let (previous, overflow) = last.subtractingReportingOverflow(Int64(count))
        guard !overflow else { throw KeyCounterError(entity: rootEntity, counter: last, isExhausted: true) }
        return try KeyCounter.keys(after: previous, count: count, entity: rootEntity).first
    }

    func currentVersions(rootEntity: String, keys: [Int64]) throws -> [Int64: Int64] {
        guard let table = store.schema.tables[rootEntity], !keys.isEmpty else { return [:] }
        var versions: [Int64: Int64] = [:]
        try connection.forEachRow(
            "SELECT \"_id\", \"_opt\" FROM \(pgIdentifier(table.name)) WHERE \"_id\" = ANY($1) ORDER BY \"_id\" FOR UPDATE",
            [.integerArray(keys)]
        ) { columns in
            if let key = columns[0].flatMap({ Int64($0) }), let version = columns[1].flatMap({ Int64($0) }) {
                versions[key] = version
            }
            return true
        }
        return versions
    }

    func insert(_ object: any SavedObject, key: Int64, tag: Int, onConflict: InsertConflictAction) throws {
        let entity = try mapping(object.schema)
        let values = try columnValues(of: object, entity)
        let table = entity.table
        var names = ["\"_id\""]
        var parameters: [PGValue] = [.integer(key)]
        if table.hasEntityColumn {
            names.append("\"_entity\"")
            parameters.append(.text(entity.schema.name))
        }
        names += table.columns.map { pgIdentifier($0.name) }
        parameters += values
        switch onConflict {
        case .fail, .skip:
            if pendingUpdates != nil || !pendingLinks.isEmpty { try flush() }
            if let batch = pending,
                batch.entity.schema.name != entity.schema.name || batch.onConflict != onConflict
                    || batch.rows.count >= rowsPerWrite(entity: entity.schema.name)
            {
                try flush()
            }
            if pending == nil { pending = PendingInserts(entity: entity, names: names, onConflict: onConflict) }
            pending?.rows.append(PendingInserts.Row(key: key, tag: tag, parameters: parameters))
        case .update:
            let (sql, _) = PendingInserts(
                entity: entity, names: names, onConflict: .update, rows: [.init(key: key, tag: tag, parameters: parameters)]
            ).statement()
            // The stored row a constraint finds takes the new values and keeps its key.
            for constraint in entity.schema.uniquenessConstraints {
                let constraintValues = constraint.map { name in table.columnPositions[name].map { values[$0] } ?? .null }
                guard let existing = try existingKey(entity, constraint: constraint, values: constraintValues, locking: true)
                else { continue }
                try noteLeftDestinations(table: table, key: existing, newValues: values)
                try reportingViolation(tag: tag, schema: entity.schema) {
                    try write(entity, key: existing, columns: Array(table.columns.indices), values: values, bumping: true)
                }
                changes.updated(
                    entity: entity.schema.name, root: table.name, key: existing, properties: storedNames(entity))
                return
            }
            try reportingViolation(tag: tag, schema: entity.schema) { try connection.execute(sql, parameters) }
            changes.inserted(entity: entity.schema.name, root: table.name, key: key)
        }
    }

    /// Buffers the row's changed columns (and its version's bump) with those of the rows of
    /// the same entity that change the same columns; written by `flush()`.
    func update(_ object: any SavedObject, key: Int64, positions: [Int], tag: Int) throws {
        let entity = try mapping(object.schema)
        var columns: [Int] = []
        var values: [PGValue] = []
        for position in positions {
            guard let column = entity.columnIndex[position] else { continue }
            columns.append(column)
            values.append(try value(of: object.storedSlot(at: position), at: position, entity))
        }
        if pending != nil || !pendingLinks.isEmpty { try flush() }
        if let batch = pendingUpdates,
            batch.entity.schema.name != entity.schema.name || batch.columns != columns
                || batch.rows.count >= Self.rowsPerStatement(parametersPerRow: columns.count + 1)
        {
            try flush()
        }
        if pendingUpdates == nil { pendingUpdates = PendingUpdates(entity: entity, columns: columns) }
        pendingUpdates?.rows.append(
            PendingUpdates.Row(key: key, tag: tag, values: values, properties: names(entity, positions)))
    }

    func overwrite(_ object: any SavedObject, key: Int64, tag: Int) throws {
        let entity = try mapping(object.schema)
        let values = try columnValues(of: object, entity)
        try noteLeftDestinations(table: entity.table, key: key, newValues: values)
        // Every column and kept link of the row as stored before it is overwritten.
        let previous = try previousValues(
            entity, keys: [key], columns: Array(entity.table.columns.indices), positions: entity.schema.properties.indices
        )?[key]
        try reportingViolation(tag: tag, schema: entity.schema) {
            try write(entity, key: key, columns: Array(entity.table.columns.indices), values: values, bumping: true)
        }
        changes.updated(
            entity: entity.schema.name, root: entity.table.name, key: key,
            properties: names(entity, Array(entity.schema.properties.indices)), previous: previous)
    }

    func setValues(_ values: [(position: Int, value: AttributeValue)], of schema: EntitySchema, key: Int64) throws {
        let entity = try mapping(schema)
        var columns: [Int] = []
        var encoded: [PGValue] = []
        for (position, value) in values {
            guard let column = entity.columnIndex[position], case .attribute(let attribute) = schema.properties[position]
            else { continue }
            columns.append(column)
            encoded.append(try PGRowCodec.encode(value, for: attribute, entity: schema.name))
        }
        let previous = try previousValues(entity, keys: [key], columns: columns, positions: [])?[key]
        try write(entity, key: key, columns: columns, values: encoded, bumping: false)
        changes.updated(
            entity: schema.name, root: entity.table.name, key: key, properties: names(entity, values.map(\.position)),
            previous: previous)
    }

    func deleteRows(rootEntity: String, keys: [Int64]) throws {
        guard let table = store.schema.tables[rootEntity], !keys.isEmpty else { return }
        try connection.execute("DELETE FROM \(pgIdentifier(table.name)) WHERE \"_id\" = ANY($1)", [.integerArray(keys)])
    }

    func recordTombstone(of object: any SavedObject, key: Int64) throws {
        let schema = object.schema
        var preserved: [String: String] = [:]
        for (position, property) in schema.properties.enumerated() {
            guard case .attribute(let a) = property, a.preservesValueInHistoryOnDeletion,
                case .value(let value) = object.storedSlot(at: position), value != .null
            else { continue }
            preserved[a.name] = try PGRowCodec.encode(value, for: a, entity: schema.name).text
        }
        // Buffered rows are written first; the previous values of deletes already asked for
        // wait, so that a batch of deletes reads them in a few statements.
        if pending != nil || pendingUpdates != nil || !pendingLinks.isEmpty { try flush() }
        var tombstone: Int64?
        if !preserved.isEmpty {
            let json = try JSONSerialization.data(withJSONObject: preserved, options: [.sortedKeys])
            tombstone = try store.connection.scalar(
                "INSERT INTO _tombstone (entity, \"objectKey\", \"deletedAt\", \"values\") VALUES ($1, $2, $3, $4) RETURNING \"_id\"",
                [.text(schema.name), .integer(key), .double(Date().timeIntervalSince1970),
                 .text(String(decoding: json, as: UTF8.self))]
            ).flatMap { Int64($0) }
        }
        if store.tracksHistory {
            pendingDeletes.append(PendingDelete(entity: try mapping(schema), key: key, tombstone: tombstone))
        } else {
            changes.deleted(entity: schema.name, root: schema.rootName, key: key, tombstone: tombstone)
        }
    }

    func setHistoryAuthor(_ author: String?, contextName: String?) {
        changes.author = author
        changes.contextName = contextName
    }

    /// New rows of `entity` a statement writes (see `rowsPerStatement(parametersPerRow:)`).
    func rowsPerWrite(entity: String) -> Int {
        guard let mapping = store.schema.entities[entity] else { return 1 }
        return Self.rowsPerStatement(parametersPerRow: mapping.table.columns.count + 2)
    }

    /// Whether rows (new, changed or deleted) wait to be written.
    var hasBufferedRows: Bool { pending != nil || pendingUpdates != nil || !pendingDeletes.isEmpty }

    /// Writes the buffered rows: one statement, or for rows that may only be skipped, one
    /// statement that returns the keys it wrote, so that only those enter the history.
    func flush() throws {
        try notePendingDeletes()
        try flushUpdates()
        try flushLinks()
        guard let batch = pending else { return }
        pending = nil
        guard !batch.rows.isEmpty else { return }
        let connection = store.connection
        let table = batch.entity.table
        let (sql, parameters) = batch.statement()
        switch batch.onConflict {
        case .skip:
            let written = try connection.query(sql + " ON CONFLICT DO NOTHING RETURNING \"_id\"", parameters)
            for case let key? in written.map({ $0.first.flatMap { $0 }.flatMap { Int64($0) } }) {
                changes.inserted(entity: batch.entity.schema.name, root: table.name, key: key)
            }
        case .fail, .update:
            try executeNamingRefusedRow((sql, parameters), schema: batch.entity.schema, tags: batch.rows.map(\.tag)) {
                PendingInserts(entity: batch.entity, names: batch.names, onConflict: .fail, rows: [batch.rows[$0]]).statement()
            }
            for row in batch.rows {
                changes.inserted(entity: batch.entity.schema.name, root: table.name, key: row.key)
            }
        }
    }

    /// Writes the buffered updates in one statement (see `executeNamingRefusedRow`).
    private func flushUpdates() throws {
        guard let batch = pendingUpdates else { return }
        pendingUpdates = nil
        guard !batch.rows.isEmpty else { return }
        // The rows as stored before the statement: the written columns, and the kept links of
        // the to-manys any row's update changed (each row's own taken below).
        let schema = batch.entity.schema
        let toManys = Set(batch.rows.flatMap(\.properties)).filter { schema.relationship(named: $0)?.isToMany == true }
        let previous = try previousValues(
            batch.entity, keys: batch.rows.map(\.key), columns: batch.columns,
            positions: toManys.compactMap { schema.propertyIndex[$0] })
        try executeNamingRefusedRow(batch.statement(), schema: batch.entity.schema, tags: batch.rows.map(\.tag)) {
            PendingUpdates(entity: batch.entity, columns: batch.columns, rows: [batch.rows[$0]]).statement()
        }
        for row in batch.rows {
            var values = previous?[row.key]
            if values != nil, !toManys.isEmpty {
                let own = Set(row.properties)
                values?.keepOnly { own.contains($0) || schema.relationship(named: $0)?.isToMany != true }
            }
            changes.updated(
                entity: batch.entity.schema.name, root: batch.entity.table.name, key: row.key, properties: row.properties,
                previous: values)
        }
    }

    /// Runs a statement of several buffered rows. When the server refuses it for a unique
    /// value, the rows are written again one a statement (`single(index)`), under a
    /// savepoint, up to the one refused, which is named by its tag.
    private func executeNamingRefusedRow(
        _ statement: (sql: String, parameters: [PGValue]), schema: EntitySchema, tags: [Int],
        single: (Int) -> (String, [PGValue])
    ) throws {
        let connection = store.connection
        guard !schema.uniquenessConstraints.isEmpty else { return try connection.execute(statement.sql, statement.parameters) }
        try connection.execute("SAVEPOINT \"rows\"")
        do {
            try connection.execute(statement.sql, statement.parameters)
            try connection.execute("RELEASE SAVEPOINT \"rows\"")
        } catch let error as PostgreSQLError where error.isUniqueViolation {
            try connection.execute("ROLLBACK TO SAVEPOINT \"rows\"")
            for (index, tag) in tags.enumerated() {
                let (rowSQL, rowParameters) = single(index)
                try reportingViolation(tag: tag, schema: schema) { try connection.execute(rowSQL, rowParameters) }
            }
        }
    }

    // MARK: - Uniqueness

    func existingKey(entity: String, constraint: [String], values: [AttributeValue]) throws -> Int64? {
        guard let mapping = store.schema.entities[entity] else { return nil }
        let encoded = try zip(constraint, values).map { name, value in
            try PGRowCodec.encode(value, for: mapping.schema.attribute(named: name), entity: entity)
        }
        return try existingKey(mapping, constraint: constraint, values: encoded, locking: false)
    }

    func hasRow(entity: String, constraint: [String], anyOf valueLists: [[AttributeValue]]) throws -> Bool {
        for values in valueLists where try existingKey(entity: entity, constraint: constraint, values: values) != nil {
            return true
        }
        return false
    }

    // MARK: - Aggregates

    func aggregate(_ derivation: Derivation, members: String, linkedBy link: String, to key: Int64) throws -> AttributeValue {
        guard let mapping = store.schema.entities[members] else { return .null }
        var parameters: [PGValue] = [.integer(key)]
        var condition = "\(pgIdentifier(link)) = $1"
        if !mapping.schema.ancestors.isEmpty {
            parameters.append(.textArray(mapping.schema.hierarchyNames))
            condition += " AND \"_entity\" = ANY($2)"
        }
        let table = pgIdentifier(mapping.table.name)
        switch derivation {
        case .count:
            let count = try connection.scalar("SELECT count(*) FROM \(table) WHERE \(condition)", parameters)
            return .integer(count.flatMap { Int64($0) } ?? 0)
        case .sum(_, let name):
            guard let attribute = mapping.schema.attribute(named: name), attribute.isStored else { return .integer(0) }
            let rows = try connection.query("SELECT \(pgIdentifier(name)) FROM \(table) WHERE \(condition)", parameters)
            return try AttributeValue.sum(of: try rows.map { try PGRowCodec.decode($0[0], for: attribute, entity: members) })
        default:
            return .null
        }
    }

    func notingDestinationsLeft(
        entity: String, relationships: [String], _ body: () throws -> Void
    ) throws -> [(relationship: String, key: Int64)] {
        guard store.schema.entities[entity] != nil, !relationships.isEmpty else {
            try body()
            return []
        }
        leaving = (entity, relationships, [])
        defer { leaving = nil }
        try body()
        var seen: Set<String> = []
        return (leaving?.left ?? []).filter { seen.insert("\($0.relationship) \($0.key)").inserted }
    }

    func entityName(rootEntity: String, key: Int64) throws -> String? {
        guard let table = store.schema.tables[rootEntity] else { return nil }
        let column = table.hasEntityColumn ? "\"_entity\"" : "NULL"
        let rows = try connection.query("SELECT \(column) FROM \(pgIdentifier(table.name)) WHERE \"_id\" = $1", [.integer(key)])
        guard let row = rows.first else { return nil }
        return row[0] ?? rootEntity
    }

    // MARK: - Internals

    /// A deleted object whose change waits for its previous values (see `pendingDeletes`).
    private struct PendingDelete {
        var entity: PGSchema.Entity
        var key: Int64
        var tombstone: Int64?
    }

    /// The previous values of `entity`'s rows among `keys` (see `PostgreSQLStore.previousValues`):
    /// `columns`, and the kept links of the to-manys among `positions`; nil when the store
    /// does not track history. Uses the store's connection: call with nothing buffered, or
    /// before writing what is.
    private func previousValues(
        _ entity: PGSchema.Entity, keys: [Int64], columns: [Int], positions: some Sequence<Int>
    ) throws -> [Int64: PGPreviousValues]? {
        guard store.tracksHistory else { return nil }
        return try store.previousValues(
            of: entity, keys: keys, columns: columns, links: store.keptLinks(of: entity.schema, positions: positions))
    }

    /// Reads the previous values of the deletes `recordTombstone` queued (every column and
    /// kept link of each row, a batch of one entity's rows per statement) and notes their
    /// changes, in the order they were asked for.
    private func notePendingDeletes() throws {
        guard !pendingDeletes.isEmpty else { return }
        let deletes = pendingDeletes
        pendingDeletes = []
        var previous: [String: [Int64: PGPreviousValues]] = [:]
        for (name, group) in Dictionary(grouping: deletes, by: { $0.entity.schema.name }) {
            guard let entity = group.first?.entity else { continue }
            let columns = entity.columnIndex.compactMap { $0 }
            previous[name] = try previousValues(
                entity, keys: group.map(\.key), columns: columns, positions: entity.schema.properties.indices)
        }
        for delete in deletes {
            let schema = delete.entity.schema
            changes.deleted(
                entity: schema.name, root: schema.rootName, key: delete.key, tombstone: delete.tombstone,
                previous: previous[schema.name]?[delete.key])
        }
    }

    private func mapping(_ schema: EntitySchema) throws -> PGSchema.Entity {
        guard let entity = store.schema.entities[schema.name] else {
            throw FetchError(entity: schema.name, reason: "the store's model has no entity named '\(schema.name)'")
        }
        return entity
    }

    /// Every column's value for `object`'s row, in table order.
    private func columnValues(of object: any SavedObject, _ entity: PGSchema.Entity) throws -> [PGValue] {
        var values = [PGValue](repeating: .null, count: entity.table.columns.count)
        for (position, column) in entity.columnIndex.enumerated() {
            guard let column else { continue }
            values[column] = try value(of: object.storedSlot(at: position), at: position, entity)
        }
        return values
    }

    private func value(of slot: StoredSlot, at position: Int, _ entity: PGSchema.Entity) throws -> PGValue {
        switch slot {
        case .value(let value):
            guard case .attribute(let attribute) = entity.schema.properties[position] else { return .null }
            return try PGRowCodec.encode(value, for: attribute, entity: entity.schema.name)
        case .toOneFault(let id?):
            return id.primaryKey.map(PGValue.integer) ?? .null
        default:
            return .null
        }
    }

    /// `UPDATE … SET <columns> [, "_opt" = "_opt" + 1] WHERE "_id" = key`.
    private func write(_ entity: PGSchema.Entity, key: Int64, columns: [Int], values: [PGValue], bumping: Bool) throws {
        var assignments: [String] = []
        var parameters: [PGValue] = [.integer(key)]
        for (column, value) in zip(columns, values) {
            parameters.append(value)
            assignments.append("\(pgIdentifier(entity.table.columns[column].name)) = $\(parameters.count)")
        }
        if bumping { assignments.append("\"_opt\" = \"_opt\" + 1") }
        guard !assignments.isEmpty else { return }
        try connection.execute(
            "UPDATE \(pgIdentifier(entity.table.name)) SET \(assignments.joined(separator: ", ")) WHERE \"_id\" = $1",
            parameters)
    }

    /// The key of the row of `entity`'s hierarchy holding `values` in `constraint`'s
    /// columns (locked for this transaction when `locking`), or nil.
    private func existingKey(_ entity: PGSchema.Entity, constraint: [String], values: [PGValue], locking: Bool) throws -> Int64? {
        var parameters: [PGValue] = []
        var conditions: [String] = []
        for (name, value) in zip(constraint, values) {
            guard case .null = value else {
                parameters.append(value)
                conditions.append("\(pgIdentifier(name)) = $\(parameters.count)")
                continue
            }
            return nil  // NULLs are distinct in a UNIQUE index: no stored row conflicts.
        }
        if entity.table.hasEntityColumn && !entity.schema.ancestors.isEmpty {
            parameters.append(.textArray(entity.schema.hierarchyNames))
            conditions.append("\"_entity\" = ANY($\(parameters.count))")
        }
        let sql = "SELECT \"_id\" FROM \(pgIdentifier(entity.table.name)) WHERE \(conditions.joined(separator: " AND ")) "
            + "LIMIT 1" + (locking ? " FOR UPDATE" : "")
        return try connection.scalar(sql, parameters).flatMap { Int64($0) }
    }

    /// While `notingDestinationsLeft` runs, notes each watched to-one of the row `key` whose
    /// stored destination the new values replace.
    private func noteLeftDestinations(table: PGSchema.Table, key: Int64, newValues: [PGValue]) throws {
        guard let watched = leaving?.relationships else { return }
        let columns = watched.compactMap { name in table.columnPositions[name].map { (name, $0) } }
        guard !columns.isEmpty else { return }
        let list = columns.map { pgIdentifier($0.0) }.joined(separator: ", ")
        guard let old = try connection.query("SELECT \(list) FROM \(pgIdentifier(table.name)) WHERE \"_id\" = $1", [.integer(key)]).first
        else { return }
        for ((name, column), oldText) in zip(columns, old) {
            guard let oldText, let oldKey = Int64(oldText) else { continue }
            if newValues[column] != .integer(oldKey) { leaving?.left.append((name, oldKey)) }
        }
    }

    private func storedNames(_ entity: PGSchema.Entity) -> [String] {
        names(entity, Array(entity.schema.properties.indices))
    }

    /// The stored properties among `positions` (a to-many whose links changed included).
    private func names(_ entity: PGSchema.Entity, _ positions: [Int]) -> [String] {
        positions.compactMap { position in
            let property = entity.schema.properties[position]
            switch property {
            case .relationship(let r) where r.isToMany: return r.isTransient ? nil : r.name
            default: return entity.columnIndex[position] == nil ? nil : property.name
            }
        }
    }

    /// Runs `body`, turning the server's unique violation into the model's `UniquenessViolation`.
    /// A write that may break a constraint runs under a savepoint: PostgreSQL aborts the
    /// whole transaction at a failed statement, and the save goes on after a violation its
    /// merge policy resolves.
    private func reportingViolation(tag: Int, schema: EntitySchema, _ body: () throws -> Void) throws {
        guard !schema.uniquenessConstraints.isEmpty else { return try body() }
        try connection.execute("SAVEPOINT \"write\"")
        do {
            try body()
            try connection.execute("RELEASE SAVEPOINT \"write\"")
        } catch let error as PostgreSQLError where error.isUniqueViolation {
            try connection.execute("ROLLBACK TO SAVEPOINT \"write\"")
            let index = schema.uniquenessConstraints.firstIndex { keys in
                error.constraint?.hasSuffix("_unique_" + keys.joined(separator: "_")) ?? false
            }
            throw UniquenessViolation(tag: tag, constraintIndex: index)
        }
    }
}
#endif
