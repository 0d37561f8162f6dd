import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceRelational
import PersistenceStore

/// The persistent history Core Data records in a store (`NSPersistentHistoryTrackingKey`),
/// read as this library's `PersistentHistoryTransaction`s, so that an app on Linux can tell
/// what an app on a Mac changed since a token it kept.
///
/// Core Data's tables, as real stores hold them: `ATRANSACTION` (one row a save: `Z_PK` its
/// number, `ZTIMESTAMP` in seconds since 2001, the author and context name as keys of the
/// interned strings in `ATRANSACTIONSTRING.ZNAME`, `ZAUTHORTS`/`ZCONTEXTNAMETS`, or in older
/// stores as text in `ZAUTHOR`/`ZCONTEXTNAME`) and `ACHANGE` (one row an object:
/// `ZCHANGETYPE` 0 insert, 1 update, 2 delete; `ZENTITY` the entity's `Z_ENT`; `ZENTITYPK`
/// its row; `ZTRANSACTIONID`; an update's written properties in `ZCOLUMNS` and a delete's
/// preserved values in `ZTOMBSTONE<n>`, laid out as `CoreDataHistoryColumns` says). An
/// update whose `ZCOLUMNS` is NULL, or names a property past the entity's, has nil
/// `updatedProperties`: "unknown", as Core Data's own nil means. History Core Data deleted
/// is told apart by the first transaction left: a token before it has expired, as in Core
/// Data. A save here records its own transaction (see `CoreDataHistoryRecorder`).
extension CoreDataStore {
    /// Whether Core Data records its persistent history in the store.
    package var tracksHistory: Bool { recordsHistory }

    package func history(after bound: PersistentHistoryBound) throws -> [PersistentHistoryTransaction] {
        // One snapshot for both tables, as Core Data may delete history in between.
        try database.inSavepoint { try readHistory(after: bound) }
    }

    package func currentHistoryToken() throws -> PersistentHistoryToken {
        try checkHistoryIsRecorded()
        return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: try lastTransactionNumber())
    }

    /// Deletes the transactions before `bound` and their changes, as Core Data's
    /// `NSPersistentHistoryChangeRequest.deleteHistory(before:)` does: `Z_PRIMARYKEY.Z_MAX`
    /// keeps counting and the interned strings stay, so that a token of a deleted
    /// transaction reads as expired.
    ///
    /// - Throws: `PersistentHistoryError` for a store without history, a token of another
    ///   store or past the last transaction, or a future date.
    package func deleteHistory(before bound: PersistentHistoryBound) throws {
        try checkHistoryIsRecorded()
        try database.inTransaction(.immediate) {
            let condition: (sql: String, argument: SQLiteValue)
            switch bound {
            case .token(let token):
                // Before the token: the transactions it follows, as the SQLite store deletes them.
                let number = try PersistentHistoryBound.transactionNumber(
                    of: token, store: identifier, lastTransaction: lastTransactionNumber)
                condition = ("Z_PK < ?", .integer(number))
            case .date(let date):
                try PersistentHistoryBound.check(date)
                condition = ("ZTIMESTAMP < ?", .real(CoreDataTimestamp.seconds(of: date)))
            }
            guard let last = try database.scalar("SELECT max(Z_PK) FROM ATRANSACTION WHERE \(condition.sql)", [condition.argument]).int64Value
            else { return }
            try database.execute("DELETE FROM ACHANGE WHERE ZTRANSACTIONID <= ?", [.integer(last)])
            try database.execute("DELETE FROM ATRANSACTION WHERE Z_PK <= ?", [.integer(last)])
        }
    }

    private func readHistory(after bound: PersistentHistoryBound) throws -> [PersistentHistoryTransaction] {
        try checkHistoryIsRecorded()
        let after = try firstTransactionNumber(after: bound)
        let columns = Set(try database.query("SELECT name FROM pragma_table_info('ATRANSACTION')").compactMap { $0.first?.textValue })
        let author = text(of: "AUTHOR", among: columns), contextName = text(of: "CONTEXTNAME", among: columns)
        var rows = HistoryRows()
        for row in try database.query(
            "SELECT t.Z_PK, t.ZTIMESTAMP, \(author), \(contextName) FROM ATRANSACTION t WHERE t.Z_PK > ? ORDER BY t.Z_PK",
            [.integer(after)])
        {
            guard let number = row[0].int64Value else { continue }
            rows.addTransaction(
                number: number, timestamp: CoreDataTimestamp.date(fromSeconds: row[1].doubleValue ?? 0),
                author: row[2].textValue, contextName: row[3].textValue)
        }
        guard rows.lastTransactionNumber != nil else { return [] }
        let changeColumns = Set(try database.query("SELECT name FROM pragma_table_info('ACHANGE')").compactMap { $0.first?.textValue })
        var tombstones: [String] = []
        while changeColumns.contains("ZTOMBSTONE\(tombstones.count)") { tombstones.append("ZTOMBSTONE\(tombstones.count)") }
        let bitmap = changeColumns.contains("ZCOLUMNS") ? "ZCOLUMNS" : "NULL"
        for row in try database.query(
            "SELECT \((["Z_PK", "ZTRANSACTIONID", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", bitmap] + tombstones).joined(separator: ", ")) "
                + "FROM ACHANGE WHERE ZTRANSACTIONID > ? ORDER BY Z_PK",
            [.integer(after)])
        {
            guard let change = historyChange(row), let transaction = row[1].int64Value else { continue }
            rows.add(change, toTransaction: transaction)
        }
        return rows.history(storeID: identifier)
    }

    /// The SQL for a transaction's `name` (AUTHOR, CONTEXTNAME): its interned string where the
    /// table has the key column, else its own text column, else NULL.
    private func text(of name: String, among columns: Set<String>) -> String {
        var choices: [String] = []
        if columns.contains("Z\(name)TS") {
            choices.append("(SELECT s.ZNAME FROM ATRANSACTIONSTRING s WHERE s.Z_PK = t.Z\(name)TS)")
        }
        if columns.contains("Z\(name)") { choices.append("t.Z\(name)") }
        switch choices.count {
        case 0: return "NULL"
        case 1: return choices[0]
        default: return "coalesce(\(choices.joined(separator: ", ")))"
        }
    }

    /// One `ACHANGE` row (`Z_PK`, `ZTRANSACTIONID`, `ZCHANGETYPE`, `ZENTITY`, `ZENTITYPK`,
    /// `ZCOLUMNS`, `ZTOMBSTONE0`…) as a change; nil for an object of an entity the model does
    /// not have (Core Data's own) or a change type this library does not know. A preserved
    /// value that cannot be read as its attribute's type is left out of the tombstone.
    private func historyChange(_ row: [SQLiteValue]) -> PersistentHistoryChange? {
        guard let id = row[0].int64Value, let rawType = row[2].int64Value,
            let type = PersistentHistoryChange.ChangeType(rawValue: Int(rawType)),
            let number = row[3].int64Value, let key = row[4].int64Value,
            let name = layout.entityNames[number], let schema = layout.entities[name]?.schema
        else { return nil }
        var updated: Set<String>?
        if type == .update, let bitmap = row[5].dataValue {
            updated = CoreDataHistoryColumns.names(in: bitmap, order: layout.historySlots(of: schema))
        }
        var tombstone: [String: AttributeValue]?
        if type == .delete {
            var values: [String: AttributeValue] = [:]
            for (index, attribute) in CoreDataHistoryColumns.tombstoneAttributes(of: schema).enumerated() where index + 6 < row.count {
                guard
                    let value = try? CoreDataValueCodec.decode(
                        row[index + 6], for: attribute, entity: name, object: "\(name) \(key)", externalFolder: nil, path: path),
                    !value.isNull
                else { continue }
                values[attribute.name] = value
            }
            tombstone = values.isEmpty ? nil : values
        }
        return PersistentHistoryChange(
            changeID: id, changeType: type,
            changedObjectID: ObjectID(scope: idScope(entityName: name, rootName: schema.rootName), key: .permanent(key)),
            updatedProperties: updated, tombstone: tombstone)
    }

    private func checkHistoryIsRecorded() throws {
        guard recordsHistory else { throw PersistentHistoryError.notTracked(path: path) }
    }

    /// The number of the last transaction recorded, deleted or not (`Z_PRIMARYKEY.Z_MAX` of
    /// `TRANSACTION`, which Core Data advances as it numbers them).
    private func lastTransactionNumber() throws -> Int64 {
        let kept = try database.scalar("SELECT max(Z_PK) FROM ATRANSACTION").int64Value ?? 0
        let numbered =
            try database.scalar(
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'TRANSACTION' AND Z_ENT >= ?",
                [.integer(Self.firstInternalEntityNumber)]
            ).int64Value ?? 0
        return max(kept, numbered)
    }

    /// The number and time of the last transaction Core Data deleted from the history, if it
    /// deleted any: the one before the first left, or the last numbered when none is left.
    private func deletedThrough() throws -> (number: Int64, date: Date)? {
        let first = try database.query("SELECT Z_PK, ZTIMESTAMP FROM ATRANSACTION ORDER BY Z_PK LIMIT 1").first
        guard let first, let number = first[0].int64Value else {
            let last = try lastTransactionNumber()
            return last > 0 ? (last, Date()) : nil
        }
        return number > 1 ? (number - 1, CoreDataTimestamp.date(fromSeconds: first[1].doubleValue ?? 0)) : nil
    }

    private func firstTransactionNumber(after bound: PersistentHistoryBound) throws -> Int64 {
        try bound.firstTransactionNumber(
            store: identifier, lastTransaction: lastTransactionNumber, deletedThrough: try deletedThrough(),
            lastTransactionAtOrBefore: { date in
                try database.scalar(
                    "SELECT max(Z_PK) FROM ATRANSACTION WHERE ZTIMESTAMP <= ?", [.real(CoreDataTimestamp.seconds(of: date))]
                ).int64Value
            })
    }
}
