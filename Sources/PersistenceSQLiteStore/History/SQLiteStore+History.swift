import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceRelational
import PersistenceStore

/// Persistent history (Core Data's persistent history tracking), in two tables of the store:
///
/// - `_historyTransaction`: one row per committed write transaction that changed rows (a
///   save, a batch insert): its number (`_id`, never reused, so a token stays a place even
///   after history before it is deleted), timestamp (seconds since 1970), author and
///   context name.
/// - `_historyChange`: one row per object a transaction inserted, updated or deleted: the
///   transaction, the change type (0 insert, 1 update, 2 delete), the object's entity and
///   key, the names of an update's properties (JSON array), the `_tombstone` row that
///   holds a delete's preserved values, and the values the change replaced (see
///   `SQLiteStore+PreviousValues`; beyond Core Data).
///
/// Tracking is a property of the store, recorded in `_metadata` (`historyTracking`): a store
/// opened once with `Options.tracksHistory` keeps recording its transactions whoever opens
/// it, so that no reader of its history misses a change made by a process that did not ask
/// for tracking (Core Data instead opens such a store read-only). A connection opened
/// before tracking began learns of it at its next write (`storeTracksHistory`).
///
/// `historyDeletedThrough` keeps the number and time of the last deleted transaction, so
/// that a request for the history after a place that was deleted throws rather than
/// answering part of it.
extension SQLiteStore {
    // MARK: - Opening

    /// Reads whether the store tracks history, and starts tracking it when `tracking` asks
    /// and the store can be written: an older store gains the tables, its rows untouched.
    func prepareHistory(tracking: Bool, readOnly: Bool) throws {
        if tracking && !readOnly {
            try startTrackingHistory()
        } else {
            tracksHistory = try storeTracksHistory()
        }
    }

    /// Creates the history's tables when they are missing, and records that the store
    /// tracks its history.
    func startTrackingHistory() throws {
        if try storeTracksHistory() {
            tracksHistory = true
            return
        }
        try database.inTransaction(.immediate) { try createHistoryTables() }
        tracksHistory = true
    }

    /// Creates the history's tables and records that the store tracks its history, inside
    /// the caller's transaction (a new store's, or `startTrackingHistory`'s).
    func createHistoryTables() throws {
        try ensureTombstoneTable()
        try database.execute(
            "CREATE TABLE IF NOT EXISTS _historyTransaction (_id INTEGER PRIMARY KEY AUTOINCREMENT, "
                + "timestamp REAL NOT NULL, author TEXT, contextName TEXT)")
        try database.execute(
            "CREATE TABLE IF NOT EXISTS _historyChange (_id INTEGER PRIMARY KEY, transactionID INTEGER NOT NULL, "
                + "changeType INTEGER NOT NULL, entity TEXT NOT NULL, objectKey INTEGER NOT NULL, "
                + "properties TEXT, tombstone INTEGER, previousValues TEXT)")
        try database.execute(
            "CREATE INDEX IF NOT EXISTS _historyChange_transactionID ON _historyChange (transactionID)")
        try setMetadata(Self.trackingKey, "1")
    }

    /// Whether the store's metadata says it tracks history: read by a connection that did
    /// not track it when opened, at each write, so that it records its writes from the
    /// moment another process turns tracking on.
    func storeTracksHistory() throws -> Bool {
        try metadata(Self.trackingKey) == "1"
    }

    private static let trackingKey = "historyTracking"

    // MARK: - Recording

    /// Records the transaction `recorder` gathered, inside the write transaction whose
    /// changes it describes; nothing when it changed no row.
    func recordHistory(_ recorder: HistoryRecorder) throws {
        guard !recorder.changes.isEmpty else { return }
        try database.cachedStatement(
            "INSERT INTO _historyTransaction (timestamp, author, contextName) VALUES (?, ?, ?)"
        ).run([
            .real(Date().timeIntervalSince1970), recorder.author.map(SQLiteValue.text) ?? .null,
            recorder.contextName.map(SQLiteValue.text) ?? .null,
        ])
        let transaction = database.lastInsertRowID
        try ensurePreviousValuesColumn()
        // Many changes a statement, in order (their keys, which order them, ascend with it):
        // a save of 10,000 objects writes a few dozen statements, not 10,000.
        let changes = recorder.changes
        let length = KeyList.powerOfTwo(atMost: min(Self.changesPerInsert, database.parameterLimit / 7))
        for run in KeyList.runs(count: changes.count, maximumLength: length) {
            var arguments: [SQLiteValue] = []
            arguments.reserveCapacity(run.count * 7)
            for change in changes[run] {
                var properties = SQLiteValue.null
                if change.type == .update {
                    let names = try JSONSerialization.data(withJSONObject: change.properties.sorted())
                    properties = .text(String(decoding: names, as: UTF8.self))
                }
                arguments += [
                    .integer(transaction), .integer(Int64(change.type.rawValue)), .text(change.entity),
                    .integer(change.key), properties, change.tombstone.map(SQLiteValue.integer) ?? .null,
                    Self.previousValuesJSON(change.previous),
                ]
            }
            try database.cachedStatement(
                "INSERT INTO _historyChange (transactionID, changeType, entity, objectKey, properties, tombstone, previousValues) "
                    + "VALUES " + Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: run.count).joined(separator: ", ")
            ).run(arguments)
        }
    }

    /// The most changes one statement of `recordHistory(_:)` writes (seven parameters each).
    static let changesPerInsert = 128

    // MARK: - Reading

    package func history(after bound: PersistentHistoryBound) throws -> [PersistentHistoryTransaction] {
        // One snapshot for both tables: a deletion of history between the two reads would
        // otherwise leave transactions without their changes.
        try database.inSavepoint { try readHistory(after: bound, limit: nil, includesChanges: true) }
    }

    /// Reads only the rows asked for: `limit` transactions, and their changes only when
    /// `includesChanges` (those of the transactions read, not of every later one), so that a
    /// caller reading a long history a transaction at a time holds one at a time.
    package func history(after bound: PersistentHistoryBound, limit: Int?, includesChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        try database.inSavepoint { try readHistory(after: bound, limit: limit, includesChanges: includesChanges) }
    }

    private func readHistory(after bound: PersistentHistoryBound, limit: Int?, includesChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        try checkHistoryIsTracked()
        let after = try firstTransactionNumber(after: bound)
        var rows = HistoryRows()
        for row in try database.query(
            "SELECT _id, timestamp, author, contextName FROM _historyTransaction WHERE _id > ? ORDER BY _id LIMIT ?",
            [.integer(after), .integer(limit.map { Int64(max(0, $0)) } ?? -1)])
        {
            rows.addTransaction(
                number: row[0].int64Value ?? 0, timestamp: Date(timeIntervalSince1970: row[1].doubleValue ?? 0),
                author: row[2].textValue, contextName: row[3].textValue)
        }
        guard let through = rows.lastTransactionNumber else { return [] }
        let previousColumn = try historyKeepsPreviousValues() ? "c.previousValues " : "NULL "
        for row in try !includesChanges ? [] : database.query(
            "SELECT c._id, c.transactionID, c.changeType, c.entity, c.objectKey, c.properties, t.\"values\", "
                + previousColumn
                + "FROM _historyChange c LEFT JOIN _tombstone t ON t._id = c.tombstone "
                + "WHERE c.transactionID > ? AND c.transactionID <= ? ORDER BY c._id", [.integer(after), .integer(through)])
        {
            guard let change = try historyChange(row) else { continue }
            rows.add(change, toTransaction: row[1].int64Value ?? 0)
        }
        return rows.history(storeID: identifier)
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken {
        try checkHistoryIsTracked()
        return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: try lastTransactionNumber())
    }

    // MARK: - Deleting

    package func deleteHistory(before bound: PersistentHistoryBound) throws {
        try writeTransaction {
            try checkHistoryIsTracked()
            let condition: (sql: String, argument: SQLiteValue)
            switch bound {
            case .token(let token):
                condition = ("_id < ?", .integer(try checked(token)))
            case .date(let date):
                try PersistentHistoryBound.check(date)
                condition = ("timestamp < ?", .real(date.timeIntervalSince1970))
            }
            guard case .integer(let last) = try database.scalar(
                "SELECT max(_id) FROM _historyTransaction WHERE \(condition.sql)", [condition.argument])
            else { return }
            try database.execute(
                "DELETE FROM _tombstone WHERE _id IN "
                    + "(SELECT tombstone FROM _historyChange WHERE transactionID <= ? AND tombstone IS NOT NULL)",
                [.integer(last)])
            try database.execute("DELETE FROM _historyChange WHERE transactionID <= ?", [.integer(last)])
            let timestamp = try database.scalar("SELECT timestamp FROM _historyTransaction WHERE _id = ?", [.integer(last)])
            try database.execute("DELETE FROM _historyTransaction WHERE _id <= ?", [.integer(last)])
            try setMetadata(
                PersistentHistoryDeletion.metadataKey,
                PersistentHistoryDeletion(transactionNumber: last, timestamp: timestamp.doubleValue ?? 0).metadataText)
        }
    }

    // MARK: - Internals

    private func checkHistoryIsTracked() throws {
        // Read each time: another process may have started tracking since this connection opened.
        guard try storeTracksHistory() else { throw PersistentHistoryError.notTracked(path: path) }
    }

    /// The number of the last transaction the store recorded, whether or not its history was
    /// deleted since (0 before the first).
    private func lastTransactionNumber() throws -> Int64 {
        let recorded = try database.scalar("SELECT max(_id) FROM _historyTransaction").int64Value ?? 0
        return max(recorded, try deletion()?.transactionNumber ?? 0)
    }

    /// How far the history was deleted, if it was.
    private func deletion() throws -> PersistentHistoryDeletion? {
        try metadata(PersistentHistoryDeletion.metadataKey).flatMap(PersistentHistoryDeletion.init(metadataText:))
    }

    /// The number after which a fetch of the history after `bound` starts.
    private func firstTransactionNumber(after bound: PersistentHistoryBound) throws -> Int64 {
        try bound.firstTransactionNumber(
            store: identifier, lastTransaction: lastTransactionNumber,
            deletedThrough: try deletion()?.bound,
            lastTransactionAtOrBefore: { date in
                try database.scalar(
                    "SELECT max(_id) FROM _historyTransaction WHERE timestamp <= ?", [.real(date.timeIntervalSince1970)]
                ).int64Value
            })
    }

    /// The transaction number of a token of this store (0 for nil: before the first).
    private func checked(_ token: PersistentHistoryToken?) throws -> Int64 {
        try PersistentHistoryBound.transactionNumber(of: token, store: identifier, lastTransaction: lastTransactionNumber)
    }

    /// One change read from `_historyChange` joined with its tombstone's values; nil for an
    /// object of an entity the model no longer has.
    private func historyChange(_ row: [SQLiteValue]) throws -> PersistentHistoryChange? {
        guard let id = row[0].int64Value, let rawType = row[2].int64Value,
            let type = PersistentHistoryChange.ChangeType(rawValue: Int(rawType)),
            let entity = row[3].textValue, let key = row[4].int64Value,
            let schema = model.schema(for: entity)
        else { return nil }
        var properties: Set<String>?
        if type == .update {
            let names = row[5].textValue.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String] }
            properties = Set(names ?? [])
        }
        var tombstone: [String: AttributeValue]?
        if case .text(let json) = row[6] { tombstone = try preservedValues(json, of: schema) }
        var previous: [String: PersistentHistoryValue]?
        if case .text(let json) = row[7] { previous = try previousValues(json, of: schema) }
        return PersistentHistoryChange(
            changeID: id, changeType: type,
            changedObjectID: ObjectID(scope: idScope(entityName: entity, rootName: schema.rootName), key: .permanent(key)),
            updatedProperties: properties, tombstone: tombstone, previousValues: previous)
    }
}
