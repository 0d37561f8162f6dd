import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// What one save in a store where Core Data records its persistent history changed, gathered
/// as `CoreDataStoreTransaction` writes and recorded in Core Data's own tables just before
/// the commit (`record(in:)`), so that the history holds a transaction exactly when its
/// writes were committed, and Core Data (or an app reading the history on a Mac) sees it as
/// one of its own.
///
/// What is written, and the real rows each rule comes from (the corpus store
/// `CoreDataPlus-SampleModel2_V2.sqlite`, whose one transaction Core Data recorded):
///
/// - one `ATRANSACTION` row: `Z_PK` the next of `Z_PRIMARYKEY.Z_MAX` of `TRANSACTION`, `Z_ENT`
///   that row's `Z_ENT` (16002 there), `Z_OPT` NULL, `ZTIMESTAMP` seconds since 2001 (a REAL:
///   737057651.681977), `ZQUERYGEN` NULL; the author, bundle identifier, context name and
///   process name each as the key of its interned string (`ZAUTHORTS`, `ZBUNDLEIDTS`,
///   `ZCONTEXTNAMETS`, `ZPROCESSIDTS`: there 1 "com.apple.dt.xctest.tool" and 2 "xctest",
///   the others NULL) with the text columns of the same names left NULL; where a store's
///   table has only the text column (older stores), the text;
/// - an `ATRANSACTIONSTRING` row (`Z_ENT` of `TRANSACTIONSTRING`, `Z_OPT` NULL, `ZNAME`, under
///   a unique index) for each string not interned yet, in Core Data's order (author, bundle
///   identifier, process name, context name, as the Notes stores of the corpus number them),
///   numbered from its `Z_MAX`: a string already there is reused;
/// - one `ACHANGE` row per object (`Z_ENT` of `CHANGE`, `Z_OPT` NULL, `ZCHANGETYPE` 0 insert,
///   1 update, 2 delete, `ZENTITY` the object's own entity number (a sub-entity's: 2 and 6
///   there), `ZENTITYPK`, `ZTRANSACTIONID`); `ZCOLUMNS` NULL on inserts (as on all 126
///   there) and deletes, the bitmap of written properties on updates, and on deletes the
///   preserved attributes in `ZTOMBSTONE<n>` (see `CoreDataHistoryColumns`);
/// - `Z_MAX` of `CHANGE`, `TRANSACTION` and `TRANSACTIONSTRING` advanced to the last number
///   given out (126, 1 and 2 there: each equal to its table's last `Z_PK`).
///
/// One change per object, as Core Data's: an object inserted and then written again in the
/// save stays an insert; two writes of one row are one update with both writes' properties;
/// a row updated and deleted is deleted; a row inserted and deleted is left out.
final class CoreDataHistoryRecorder {
    /// A change waiting to be recorded.
    struct Change {
        var type: PersistentHistoryChange.ChangeType
        /// The object's own entity.
        var schema: EntitySchema
        var entityNumber: Int64
        var key: Int64
        /// The properties an update wrote.
        var properties: Set<String> = []
        /// The slots of the entity's properties in the `ZCOLUMNS` bitmap (see
        /// `CoreDataLayout.historySlots(of:)`), for an update.
        var slots: [String] = []
        /// A delete's preserved values, in `CoreDataHistoryColumns.tombstoneAttributes` order.
        var tombstone: [SQLiteValue] = []
    }

    var author: String?
    var contextName: String?
    private(set) var changes: [Change?] = []
    /// Each change's place in `changes`, by root entity and key.
    private var places: [RowName: Int] = [:]
    private let path: String

    private struct RowName: Hashable {
        var root: String
        var key: Int64
    }

    init(path: String) { self.path = path }

    func inserted(_ schema: EntitySchema, number: Int64, key: Int64) {
        let name = RowName(root: schema.rootName, key: key)
        places[name] = changes.count
        changes.append(Change(type: .insert, schema: schema, entityNumber: number, key: key))
    }

    func updated(_ schema: EntitySchema, number: Int64, key: Int64, slots: [String], properties: some Sequence<String>) {
        let name = RowName(root: schema.rootName, key: key)
        if let place = places[name], var change = changes[place] {
            if change.type == .update {
                change.properties.formUnion(properties)
                changes[place] = change
            }
            return
        }
        places[name] = changes.count
        changes.append(
            Change(type: .update, schema: schema, entityNumber: number, key: key, properties: Set(properties), slots: slots))
    }

    func deleted(_ schema: EntitySchema, number: Int64, key: Int64, tombstone: [SQLiteValue]) {
        let name = RowName(root: schema.rootName, key: key)
        let change = Change(type: .delete, schema: schema, entityNumber: number, key: key, tombstone: tombstone)
        if let place = places[name] {
            // Inserted and deleted by one save: Core Data records nothing of it.
            changes[place] = changes[place]?.type == .insert ? nil : change
            return
        }
        places[name] = changes.count
        changes.append(change)
    }

    /// Writes the transaction and its changes (nothing for a save that changed no row).
    ///
    /// - Throws: `CoreDataStoreError` (refusing the write; the caller's transaction rolls
    ///   back) for a store whose `Z_PRIMARYKEY` lacks Core Data's history entities or whose
    ///   `ACHANGE` lacks the tombstone column a preserved attribute needs; `SQLiteError`.
    func record(in database: Database) throws {
        let changes = self.changes.compactMap { $0 }
        guard !changes.isEmpty else { return }
        var counters = try Self.counters(database, path: path)
        let transactionColumns = try Self.columns(of: "ATRANSACTION", in: database)
        let changeColumns = try Self.columns(of: "ACHANGE", in: database)
        // Strings are interned where the store keeps them (and numbers them), else written as text.
        let hasStrings = counters.entries["TRANSACTIONSTRING"] != nil

        var names: [String] = ["Z_PK", "Z_ENT", "ZTIMESTAMP"]
        let transactionNumber = counters.next("TRANSACTION")
        var values: [SQLiteValue] = [
            .integer(transactionNumber), .integer(counters.number("TRANSACTION")),
            .real(CoreDataTimestamp.seconds(of: Date())),
        ]
        // Interned in the order Core Data numbers them in the Notes stores: author, bundle
        // identifier, process name, context name ("712" 1, "com.apple.Notes" 2, "Notes" 3,
        // "ViewContext" 4).
        let strings: [(column: String, value: String?)] = [
            ("AUTHOR", author), ("BUNDLEID", Bundle.main.bundleIdentifier), ("PROCESSID", ProcessInfo.processInfo.processName),
            ("CONTEXTNAME", contextName),
        ]
        for (column, value) in strings {
            guard let value, !value.isEmpty else { continue }
            if hasStrings, transactionColumns.contains("Z\(column)TS") {
                names.append("Z\(column)TS")
                values.append(.integer(try intern(value, in: database, counters: &counters)))
            } else if transactionColumns.contains("Z\(column)") {
                names.append("Z\(column)")
                values.append(.text(value))
            }
        }
        try insert(into: "ATRANSACTION", names, values, database)

        for change in changes {
            var names = ["Z_PK", "Z_ENT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"]
            var values: [SQLiteValue] = [
                .integer(counters.next("CHANGE")), .integer(counters.number("CHANGE")),
                .integer(Int64(change.type.rawValue)), .integer(change.entityNumber), .integer(change.key),
                .integer(transactionNumber),
            ]
            if change.type == .update, changeColumns.contains("ZCOLUMNS") {
                names.append("ZCOLUMNS")
                values.append(
                    .blob(CoreDataHistoryColumns.bitmap(of: change.properties, order: change.slots)))
            }
            for (index, value) in change.tombstone.enumerated() {
                guard changeColumns.contains("ZTOMBSTONE\(index)") else {
                    throw CoreDataStoreError(
                        path: path,
                        "its history table ACHANGE has no column ZTOMBSTONE\(index) for the value \(change.schema.name) "
                            + "preserves after deletion (the store was written with another model)",
                        refusesWrites: true)
                }
                names.append("ZTOMBSTONE\(index)")
                values.append(value)
            }
            try insert(into: "ACHANGE", names, values, database)
        }
        for name in ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"] where counters.entries[name] != nil {
            try database.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(counters.last(name)), .integer(counters.number(name))])
        }
    }

    // MARK: - Internals

    /// The numbers Core Data gives out for its history entities, read from `Z_PRIMARYKEY`.
    private struct Counters {
        /// By name: the entity number and the last key given out.
        var entries: [String: (number: Int64, last: Int64)]

        mutating func next(_ name: String) -> Int64 {
            let entry = entries[name] ?? (0, 0)
            entries[name] = (entry.number, entry.last + 1)
            return entry.last + 1
        }
        func number(_ name: String) -> Int64 { entries[name]?.number ?? 0 }
        func last(_ name: String) -> Int64 { entries[name]?.last ?? 0 }
    }

    private static func counters(_ database: Database, path: String) throws -> Counters {
        var entries: [String: (number: Int64, last: Int64)] = [:]
        let tables = ["CHANGE": "ACHANGE", "TRANSACTION": "ATRANSACTION", "TRANSACTIONSTRING": "ATRANSACTIONSTRING"]
        for row in try database.query(
            "SELECT Z_NAME, Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT >= ? AND Z_NAME IN ('CHANGE', 'TRANSACTION', 'TRANSACTIONSTRING')",
            [.integer(CoreDataStore.firstInternalEntityNumber)])
        {
            guard let name = row[0].stringValue, let number = row[1].int64Value, let table = tables[name] else { continue }
            // A key above Z_MAX (a row written by hand) is never given out again either.
            guard try !columns(of: table, in: database).isEmpty else { continue }
            let stored = try database.scalar("SELECT max(Z_PK) FROM \(table)").int64Value ?? 0
            entries[name] = (number, max(row[2].int64Value ?? 0, stored))
        }
        for name in ["CHANGE", "TRANSACTION"] where entries[name] == nil {
            throw CoreDataStoreError(
                path: path,
                "its Z_PRIMARYKEY has no row for Core Data's history entity \(name), so a save's history cannot be numbered",
                refusesWrites: true)
        }
        return Counters(entries: entries)
    }

    private static func columns(of table: String, in database: Database) throws -> Set<String> {
        Set(try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.first?.stringValue })
    }

    /// The key of `string` in `ATRANSACTIONSTRING`, added when it is not there.
    private func intern(_ string: String, in database: Database, counters: inout Counters) throws -> Int64 {
        if let key = try database.query("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(string)]).first?.first?.int64Value {
            return key
        }
        let key = counters.next("TRANSACTIONSTRING")
        try insert(
            into: "ATRANSACTIONSTRING", ["Z_PK", "Z_ENT", "ZNAME"],
            [.integer(key), .integer(counters.number("TRANSACTIONSTRING")), .text(string)], database)
        return key
    }

    private func insert(into table: String, _ names: [String], _ values: [SQLiteValue], _ database: Database) throws {
        try database.execute(
            "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))",
            values)
    }
}
