import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

extension SQLiteStore {
    // MARK: - Writing

    /// Runs `body` in an immediate (write) transaction: all or nothing.
    ///
    /// The first write of a connection checks the file beside it (`verifyingBeside`): a
    /// store SQLite finds damaged is never written to.
    ///
    /// - Throws: the body's error, after rolling back; `SQLiteError` when the database is
    ///   locked longer than the busy timeout, is read-only (`SQLITE_READONLY`) or damaged
    ///   (`SQLITE_CORRUPT`).
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        if isReadOnly { throw Self.readOnlyError(path: path) }
        // Inside a write group the transaction is open already: a write is a savepoint of
        // it, rolled back alone when it throws, committed with the group.
        if writeGroupDepth > 0 { return try database.inSavepoint(body) }
        guard let externalData else {
            return try database.inTransaction(.immediate) { try verifyingBeside(body) }
        }
        // External data files it writes are removed if it fails; replaced ones once it commits.
        return try externalData.transaction(noReaderPredatesCommit: { noReaderHoldsAnOlderSnapshot() }) {
            try database.inTransaction(.immediate) {
                let result = try verifyingBeside(body)
                try externalData.prepareToCommit()
                return result
            }
        }
    }

    /// Reserves `count` new primary keys in `table` and returns the first. Keys are never
    /// reused, even after deletes, so a dangling reference never points at a new object.
    /// Call inside a write transaction.
    package func allocatePrimaryKeys(table: String, count: Int) throws -> Int64 {
        let current = try database.scalar(
            "SELECT lastKey FROM _primarykey WHERE tableName = ?", [.text(table)])
        var last: Int64
        if case .integer(let v) = current {
            last = v
        } else {
            let maxID = try database.scalar("SELECT max(_id) FROM \(sqlIdentifier(table))")
            last = maxID.int64Value ?? 0
        }
        let first: Int64
        (first, last) = try KeyCounter.keys(after: last, count: count, entity: table)
        let statement = try database.cachedStatement(
            "INSERT INTO _primarykey (tableName, lastKey) VALUES (?, ?) "
                + "ON CONFLICT(tableName) DO UPDATE SET lastKey = excluded.lastKey")
        try statement.run([.text(table), .integer(last)])
        return first
    }

    /// Inserts a row. `columns` has a value per column of the entity's table, in table order.
    ///
    /// - Throws: `SQLiteError` (a UNIQUE constraint failure has extended code
    ///   SQLITE_CONSTRAINT_UNIQUE).
    package func insertRow(_ mapping: EntityMapping, primaryKey: Int64, columns: [SQLiteValue]) throws {
        let statement = try database.cachedStatement(mapping.insertSQL)
        var index: Int32 = 1
        try bindInsertedRow(mapping, primaryKey: primaryKey, columns: columns, to: statement, at: &index)
        _ = try statement.step()
    }

    /// Binds one inserted row's parameters from `index` on: its key, its entity (in a table
    /// with an `_entity` column) and its columns, large values first written outside the
    /// file.
    func bindInsertedRow(
        _ mapping: EntityMapping, primaryKey: Int64, columns: [SQLiteValue], to statement: Statement, at index: inout Int32
    ) throws {
        let columns = try externalizing(columns, columns: Array(columns.indices), mapping: mapping)
        try statement.bind(primaryKey, at: index)
        index += 1
        if mapping.table.hasEntityColumn {
            try statement.bind(mapping.schema.name, at: index)
            index += 1
        }
        for value in columns {
            try statement.bind(value, at: index)
            index += 1
        }
    }

    /// Updates the given columns (by index into the table's columns) of a row, and bumps its
    /// version unless `bumpingVersion` is false (derived values recomputed by a save, which
    /// are no one's edit of the row). With no columns, only the version is bumped.
    package func updateRow(
        _ mapping: EntityMapping, primaryKey: Int64, columns: [Int], values: [SQLiteValue], bumpingVersion: Bool = true
    ) throws {
        guard !columns.isEmpty || bumpingVersion else { return }
        let values = try externalizing(
            values, columns: columns, mapping: mapping, replacingRow: primaryKey)
        let table = mapping.table
        var assignments = columns.map { "\(sqlIdentifier(table.columns[$0].name)) = ?" }
        if bumpingVersion { assignments.append(Self.versionBump) }
        let sql = "UPDATE \(sqlIdentifier(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \"_id\" = ?"
        let statement = try database.cachedStatement(sql)
        var index: Int32 = 1
        for value in values {
            try statement.bind(value, at: index)
            index += 1
        }
        try statement.bind(primaryKey, at: index)
        _ = try statement.step()
    }

    /// The assignment that bumps a written row's version (see `SQLiteStore+Versions`).
    static let versionBump = "\"_opt\" = \"_opt\" + 1"

    /// The most rows one `deleteRows(table:primaryKeys:)` statement deletes (fewer where
    /// SQLite allows fewer parameters).
    package static let rowsPerDelete = 4096

    /// Deletes rows, up to `rowsPerDelete` per `DELETE … WHERE "_id" IN (…)` statement.
    ///
    /// Many rows a statement, because the search index's delete trigger runs under a
    /// statement savepoint, at which FTS5 writes its pending changes as a new segment and
    /// does merge work, once per statement: one statement a row would flush once per row.
    /// A bigger statement's journal (in memory) holds every
    /// page it changes, so the statements stay bounded; `Benchmarks/RESULTS.md` has both
    /// sides of the trade measured.
    package func deleteRows(table: String, primaryKeys: [Int64]) throws {
        if let mapping = schema.tables[table] {
            for key in primaryKeys { try removeExternalDataAfterCommit(table: mapping, primaryKey: key) }
        }
        var length = 1
        while length * 2 <= min(Self.rowsPerDelete, database.parameterLimit) { length *= 2 }
        for chunk in KeyList.chunks(of: primaryKeys, maximumLength: length) {
            let statement = try database.cachedStatement("DELETE FROM \(sqlIdentifier(table)) WHERE \"_id\" IN (\(chunk.marks))")
            try statement.bind(chunk.arguments)
            _ = try statement.step()
        }
    }

    /// The primary key of the row of `mapping`'s hierarchy whose `keys` columns hold
    /// `values`, if any: how a uniqueness conflict is found.
    package func primaryKey(
        in mapping: EntityMapping, matching keys: [String], values: [SQLiteValue]
    ) throws -> Int64? {
        var query = StoreQuery(table: mapping.table)
        if !mapping.schema.ancestors.isEmpty { query.entityNames = mapping.schema.hierarchyNames }
        // `=`, not IS: a UNIQUE index treats NULLs as distinct, so a NULL never conflicts.
        query.condition = keys.map { key in
            "\(mapping.table.column(named: key)?.comparableSQL ?? sqlIdentifier(key)) = ?"
        }.joined(separator: " AND ")
        query.arguments = values
        query.limit = 1
        let statement = try database.cachedStatement("SELECT \"_id\"" + query.fromClause + query.whereClause + query.tail)
        // A statement left on a row keeps its read transaction open after COMMIT; the next
        // BEGIN IMMEDIATE would then fail with SQLITE_BUSY at once instead of waiting.
        defer { statement.reset() }
        try statement.bind(query.arguments)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    // MARK: - Reading

    /// The row with this primary key in `table`, or nil.
    package func row(table: TableMapping, primaryKey: Int64) throws -> StoreRow? {
        var query = StoreQuery(table: table)
        query.condition = "\(sqlIdentifier(table.name)).\"_id\" = ?"
        query.arguments = [.integer(primaryKey)]
        var found: StoreRow?
        try rows(query) { row in
            found = row
            return false
        }
        return found
    }

    /// How a read of `query` orders its rows: its ORDER BY / LIMIT / OFFSET tail, and whether
    /// its sort spills to a temporary file (see `withTemporaryStorage(inFile:_:)`).
    ///
    /// An unlimited read sorted by stored columns is sorted by SQLite rather than read in an
    /// index's order (its `sortedOrdering`), unless the index holds every column read
    /// (`indexHoldsColumns`). Walking an index reads each row from wherever it lies in the
    /// table: once the table outgrows the page cache, a page read per row (measured in
    /// `Benchmarks/RESULTS.md`). Reading the table in order and sorting reads each page once.
    /// A limited read keeps the index, which lets it stop after its rows; a read inside a
    /// transaction keeps it too, since its sort could not spill to a file.
    ///
    /// An unlimited read sorted by a search rank or by `sortedOrdering` sorts every row in
    /// SQLite's sorter, which spills to temporary storage: with the connection's
    /// `temp_store=MEMORY` (kept for statement journals) that is memory growing with the row
    /// count. Outside a transaction (where the setting can change) such a read spills to a
    /// temporary file instead, so that printing every match of a common word, or every book
    /// of a large catalogue, keeps memory flat.
    func readingOrder(of query: StoreQuery, indexHoldsColumns: Bool = false) -> (tail: String, spillsToFile: Bool) {
        let spillable = query.limit == nil && !database.isInTransaction
        let sortsRows = spillable && !indexHoldsColumns && query.sortedOrdering != nil
        return (
            query.tail(ordering: sortsRows ? query.sortedOrdering : query.ordering),
            spillable && (sortsRows || query.sortsComputedRank)
        )
    }

    /// Runs `body` with the connection's temporary storage in a file when `inFile` (then
    /// back in memory), else as it is.
    func withTemporaryStorage<T>(inFile: Bool, _ body: () throws -> T) rethrows -> T {
        if inFile { try? database.execute("PRAGMA temp_store=FILE") }
        defer { if inFile { try? database.execute("PRAGMA temp_store=MEMORY") } }
        return try body()
    }

    /// Reads the rows a query selects, in order (see `readingOrder(of:indexHoldsColumns:)`),
    /// calling `body` with each until it returns false. Rows stream from SQLite: memory does
    /// not grow with the number of rows.
    package func rows(_ query: StoreQuery, _ body: (consuming StoreRow) throws -> Bool) throws {
        var noOrdering: InMemoryOrdering?
        try rows(query, collectingSortKeysInto: &noOrdering, body)
    }

    /// `rows(_:_:)`, copying each row's sort keys into `ordering` (when there is one) before
    /// the row is decoded.
    func rows(
        _ query: StoreQuery, collectingSortKeysInto ordering: inout InMemoryOrdering?,
        _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        let table = query.table
        let t = sqlIdentifier(table.name)
        var columns = ["\(t).\"_id\""]
        if table.hasEntityColumn { columns.append("\(t).\"_entity\"") }
        columns += table.columns.map { "\(t).\(sqlIdentifier($0.name))" }
        // The version last, so that the columns keep the offsets the decode plans use.
        let versionColumn = Int32(columns.count)
        columns.append(versionColumnSQL(table))
        let order = readingOrder(of: query)
        let sql = "SELECT " + columns.joined(separator: ", ") + query.fromClause + query.whereClause + order.tail
        try withTemporaryStorage(inFile: order.spillsToFile) {
            try rows(query, sql: sql, versionColumn: versionColumn, ordering: &ordering, body)
        }
    }

    /// `rows(_:collectingSortKeysInto:_:)` once its SQL is written.
    private func rows(
        _ query: StoreQuery, sql: String, versionColumn: Int32, ordering: inout InMemoryOrdering?,
        _ body: (consuming StoreRow) throws -> Bool
    ) throws {
        let table = query.table
        let statement = try database.cachedStatement(sql)
        // Reset on every exit (an early stop, a throwing body): see primaryKey(in:matching:values:).
        defer { statement.reset() }
        try statement.bind(query.arguments + query.orderingArguments)
        let columns = RowColumns(count: table.columns.count, firstColumn: table.hasEntityColumn ? 2 : 1)
        // Each entity's plan (its value transformers and to-ones' ID scopes resolved) and the
        // scope of its rows' IDs, made once for the whole read. Mappings and plans are passed
        // along, never copied per row: a copy retains every array and string they hold.
        func read(_ mapping: EntityMapping, _ plan: RowDecodePlan, _ idScope: ObjectID.Scope) throws -> Bool {
            let primaryKey = statement.int64(at: 0)
            columns.load(from: statement)
            ordering?.collect(columns, primaryKey: primaryKey)
            let slots = try plan.slots(of: columns, mapping: mapping, primaryKey: primaryKey, store: self)
            // The slots are moved into the row, so that the object made from it holds them
            // alone and writes them in place.
            return try body(
                StoreRow(
                    schema: mapping.schema, primaryKey: primaryKey, idScope: idScope, slots: consume slots,
                    version: statement.int64(at: versionColumn)))
        }
        guard table.hasEntityColumn else {
            guard let mapping = schema.entities[table.name] else { return }
            let plan = mapping.decodePlan.resolved(for: self)
            let scope = idScope(entityName: mapping.schema.name, rootName: table.name)
            while try statement.step() {
                if try !read(mapping, plan, scope) { break }
            }
            return
        }
        // A hierarchy's table: each row names its entity.
        var readers: [String: (plan: RowDecodePlan, scope: ObjectID.Scope)] = [:]
        while try statement.step() {
            let entity = statement.string(at: 1)
            guard let mapping = schema.entities[entity], mapping.table.name == table.name else {
                throw StoreError.unplacedRow(table: table.name, key: statement.int64(at: 0), entity: entity)
            }
            let reader = readers[entity]
                ?? (mapping.decodePlan.resolved(for: self), idScope(entityName: entity, rootName: table.name))
            readers[entity] = reader
            if try !read(mapping, reader.plan, reader.scope) { break }
        }
    }

    /// The primary keys a query selects, in order.
    package func primaryKeys(_ query: StoreQuery) throws -> [Int64] {
        let sql = "SELECT \(sqlIdentifier(query.table.name)).\"_id\"" + query.fromClause + query.whereClause + query.tail
        let statement = try database.cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(query.arguments + query.orderingArguments)
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(at: 0)) }
        return keys
    }

    /// The number of rows a query selects (ignoring its ordering).
    package func count(_ query: StoreQuery) throws -> Int {
        var counting = query
        counting.ordering = nil
        let sql = "SELECT count(*) FROM (SELECT 1" + counting.fromClause + counting.whereClause + counting.tail + ")"
        return Int(try database.scalar(sql, counting.arguments).int64Value ?? 0)
    }
}
