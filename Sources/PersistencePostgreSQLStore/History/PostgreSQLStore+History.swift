#if PostgreSQL
import Foundation
import PersistenceModel
import PersistenceRelational
import PersistenceStore

// Persistent history in tables beside the rows (`_historyTransaction`, `_historyChange`,
// with deletes' tombstones in `_tombstone`, and the values each change replaced, see
// `PostgreSQLStore+PreviousValues`), as the SQLite store keeps it. Transactions
// are numbered in commit order: recording takes a lock on `_historyTransaction` until the
// commit, so a reader that saw transaction n never later finds a smaller number appear.

extension PostgreSQLStore {
    private static let trackingKey = "historyTracking"

    func storeTracksHistory() throws -> Bool {
        try metadata(Self.trackingKey) == "1"
    }

    func startTrackingHistory() throws {
        try writing {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("persistence-history:" + options.schema)])
            if try storeTracksHistory() { return }
            try connection.execute(Self.tombstoneTable)
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS \"_historyTransaction\" (\"_id\" bigserial PRIMARY KEY, "
                    + "\"timestamp\" double precision NOT NULL, author text, \"contextName\" text)")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS \"_historyChange\" (\"_id\" bigserial PRIMARY KEY, "
                    + "\"transactionID\" bigint NOT NULL, \"changeType\" integer NOT NULL, entity text NOT NULL, "
                    + "\"objectKey\" bigint NOT NULL, properties text, tombstone bigint, \"previousValues\" text)")
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \"_historyChange_transactionID\" ON \"_historyChange\" (\"transactionID\")")
            try setMetadata(Self.trackingKey, "1")
        }
        tracksHistory = true
    }

    func recordHistory(_ recorder: PGHistoryRecorder) throws {
        guard !recorder.changes.isEmpty else { return }
        try connection.execute("LOCK TABLE \"_historyTransaction\" IN EXCLUSIVE MODE")
        let number = try connection.scalar(
            "INSERT INTO \"_historyTransaction\" (\"timestamp\", author, \"contextName\") VALUES ($1, $2, $3) RETURNING \"_id\"",
            [.double(Date().timeIntervalSince1970), recorder.author.map { .text(PGRowCodec.escape($0)) } ?? .null,
             recorder.contextName.map { .text(PGRowCodec.escape($0)) } ?? .null]
        ).flatMap { Int64($0) } ?? 0
        try ensurePreviousValuesColumn()
        // Every change in one statement a chunk, its columns as arrays (an update's property
        // names as JSON text, '' for none; a tombstone's key, 0 for none; the previous
        // values' JSON text, '' for none: the text of some values is never empty).
        for chunk in stride(from: 0, to: recorder.changes.count, by: 10_000) {
            let changes = recorder.changes[chunk..<min(chunk + 10_000, recorder.changes.count)]
            var types: [Int64] = [], entities: [String] = [], keys: [Int64] = []
            var properties: [String] = [], tombstones: [Int64] = [], previous: [String] = []
            for change in changes {
                types.append(Int64(change.type.rawValue))
                entities.append(change.entity)
                keys.append(change.key)
                if change.type == .update {
                    let names = try JSONSerialization.data(withJSONObject: change.properties.sorted())
                    properties.append(String(decoding: names, as: UTF8.self))
                } else {
                    properties.append("")
                }
                tombstones.append(change.tombstone ?? 0)
                previous.append(change.previous?.json ?? "")
            }
            try connection.execute(
                "INSERT INTO \"_historyChange\" (\"transactionID\", \"changeType\", entity, \"objectKey\", properties, tombstone, "
                    + "\"previousValues\") SELECT $1, t, e, k, NULLIF(p, ''), NULLIF(s, 0), NULLIF(v, '') "
                    + "FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::text[]) "
                    + "WITH ORDINALITY AS c(t, e, k, p, s, v, n) ORDER BY n",
                [.integer(number), .integerArray(types), .textArray(entities), .integerArray(keys),
                 .textArray(properties), .integerArray(tombstones), .textArray(previous)])
        }
    }

    package func history(after bound: PersistentHistoryBound) throws -> [PersistentHistoryTransaction] {
        try history(after: bound, limit: nil, includesChanges: true)
    }

    /// Reads only the rows asked for: `limit` transactions, and their changes only when
    /// `includesChanges` (those of the transactions read), so that a caller reading a long
    /// history a transaction at a time (an undo) holds one at a time.
    package func history(after bound: PersistentHistoryBound, limit: Int?, includesChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        try reading {
            try checkHistoryIsTracked()
            let after = try firstTransactionNumber(after: bound)
            var rows = HistoryRows()
            var sql = "SELECT \"_id\", \"timestamp\", author, \"contextName\" FROM \"_historyTransaction\" WHERE \"_id\" > $1 ORDER BY \"_id\""
            var parameters: [PGValue] = [.integer(after)]
            if let limit {
                sql += " LIMIT $2"
                parameters.append(.integer(Int64(max(0, limit))))
            }
            for row in try connection.query(sql, parameters) {
                rows.addTransaction(
                    number: row[0].flatMap { Int64($0) } ?? 0,
                    timestamp: Date(timeIntervalSince1970: row[1].flatMap { Double($0) } ?? 0),
                    author: row[2].map(PGRowCodec.unescape), contextName: row[3].map(PGRowCodec.unescape))
            }
            guard let through = rows.lastTransactionNumber else { return [] }
            let previousColumn = try historyKeepsPreviousValues() ? "c.\"previousValues\"" : "NULL"
            for row in try !includesChanges ? [] : connection.query(
                "SELECT c.\"_id\", c.\"transactionID\", c.\"changeType\", c.entity, c.\"objectKey\", c.properties, t.\"values\", "
                    + previousColumn + " FROM \"_historyChange\" c LEFT JOIN _tombstone t ON t.\"_id\" = c.tombstone "
                    + "WHERE c.\"transactionID\" > $1 AND c.\"transactionID\" <= $2 ORDER BY c.\"_id\"",
                [.integer(after), .integer(through)])
            {
                guard let change = try historyChange(row) else { continue }
                rows.add(change, toTransaction: row[1].flatMap { Int64($0) } ?? 0)
            }
            return rows.history(storeID: identifier)
        }
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken {
        try reading {
            try checkHistoryIsTracked()
            return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: try lastTransactionNumber())
        }
    }

    package func deleteHistory(before bound: PersistentHistoryBound) throws {
        try writing {
            try checkHistoryIsTracked()
            let condition: (sql: String, argument: PGValue)
            switch bound {
            case .token(let token):
                condition = ("\"_id\" < $1", .integer(try checked(token)))
            case .date(let date):
                try PersistentHistoryBound.check(date)
                condition = ("\"timestamp\" < $1", .double(date.timeIntervalSince1970))
            }
            guard let last = try connection.scalar(
                "SELECT max(\"_id\") FROM \"_historyTransaction\" WHERE \(condition.sql)", [condition.argument]
            ).flatMap({ Int64($0) })
            else { return }
            try connection.execute(
                "DELETE FROM _tombstone WHERE \"_id\" IN (SELECT tombstone FROM \"_historyChange\" "
                    + "WHERE \"transactionID\" <= $1 AND tombstone IS NOT NULL)", [.integer(last)])
            try connection.execute("DELETE FROM \"_historyChange\" WHERE \"transactionID\" <= $1", [.integer(last)])
            let timestamp = try connection.scalar(
                "SELECT \"timestamp\" FROM \"_historyTransaction\" WHERE \"_id\" = $1", [.integer(last)])
            try connection.execute("DELETE FROM \"_historyTransaction\" WHERE \"_id\" <= $1", [.integer(last)])
            try setMetadata(
                PersistentHistoryDeletion.metadataKey,
                PersistentHistoryDeletion(transactionNumber: last, timestamp: timestamp.flatMap { Double($0) } ?? 0).metadataText)
        }
    }

    // MARK: - Internals

    private func checkHistoryIsTracked() throws {
        guard try storeTracksHistory() else { throw PersistentHistoryError.notTracked(path: nil) }
    }

    private func lastTransactionNumber() throws -> Int64 {
        let recorded = try connection.scalar("SELECT max(\"_id\") FROM \"_historyTransaction\"").flatMap { Int64($0) } ?? 0
        return max(recorded, try deletion()?.transactionNumber ?? 0)
    }

    private func deletion() throws -> PersistentHistoryDeletion? {
        try metadata(PersistentHistoryDeletion.metadataKey).flatMap(PersistentHistoryDeletion.init(metadataText:))
    }

    private func firstTransactionNumber(after bound: PersistentHistoryBound) throws -> Int64 {
        try bound.firstTransactionNumber(
            store: identifier, lastTransaction: lastTransactionNumber,
            deletedThrough: try deletion()?.bound,
            lastTransactionAtOrBefore: { date in
                try connection.scalar(
                    "SELECT max(\"_id\") FROM \"_historyTransaction\" WHERE \"timestamp\" <= $1",
                    [.double(date.timeIntervalSince1970)]
                ).flatMap { Int64($0) }
            })
    }

    private func checked(_ token: PersistentHistoryToken?) throws -> Int64 {
        try PersistentHistoryBound.transactionNumber(of: token, store: identifier, lastTransaction: lastTransactionNumber)
    }

    private func historyChange(_ row: [String?]) throws -> PersistentHistoryChange? {
        guard let id = row[0].flatMap({ Int64($0) }), let rawType = row[2].flatMap({ Int($0) }),
            let type = PersistentHistoryChange.ChangeType(rawValue: rawType),
            let entity = row[3], let key = row[4].flatMap({ Int64($0) }),
            let schema = model.schema(for: entity)
        else { return nil }
        var properties: Set<String>?
        if type == .update {
            let names = row[5].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String] }
            properties = Set(names ?? [])
        }
        var tombstone: [String: AttributeValue]?
        if let json = row[6] { tombstone = try preservedValues(json, of: schema) }
        var previous: [String: PersistentHistoryValue]?
        if let json = row[7] { previous = try previousValues(json, of: schema) }
        return PersistentHistoryChange(
            changeID: id, changeType: type,
            changedObjectID: ObjectID(scope: idScope(entityName: entity, rootName: schema.rootName), key: .permanent(key)),
            updatedProperties: properties, tombstone: tombstone, previousValues: previous)
    }

    /// The values a tombstone kept, by attribute (the text form each value is sent in).
    func preservedValues(_ json: String, of schema: EntitySchema) throws -> [String: AttributeValue] {
        guard let texts = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String] else {
            throw PostgreSQLStoreError.corruptValue(entity: schema.name, attribute: "(tombstone)")
        }
        var values: [String: AttributeValue] = [:]
        for (name, text) in texts {
            guard let attribute = schema.attribute(named: name) else { continue }
            values[name] = try PGRowCodec.decode(text, for: attribute, entity: schema.name)
        }
        return values
    }
}
#endif
