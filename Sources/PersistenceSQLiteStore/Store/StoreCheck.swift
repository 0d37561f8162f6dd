import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

/// What is wrong with a store file, if anything: SQLite's own integrity check, then the
/// store's consistency with its model.
///
/// ```swift
/// let result = try StoreCheck.run(storeURL: url, model: model)
/// for problem in result.problems { print(problem) }
/// ```
///
/// The checks, in order:
/// 1. `PRAGMA integrity_check`: every page, cell, b-tree and index of the file;
/// 2. that it is a Persistence store written with `model` (`_metadata` and version hashes);
/// 3. every search index against its table (FTS5's `integrity-check`);
/// 4. primary-key counters ahead of every key, so that no deleted key is handed out again;
/// 5. to-one and join-table references that point at rows that exist;
/// 6. every stored value of every row: readable as its attribute's type, not NULL where
///    required, within an Integer 16's or 32's range (see `checkValues`);
/// 7. external data files: each reference has its file, of the recorded size, and no file
///    lacks a reference (see `ExternalDataStore`).
///
/// The check only reads: it opens the file the way a read-only store does, leaving no
/// `-wal` or `-shm` file behind, and works on read-only media (where the search indexes,
/// whose check SQLite runs as a write, are left unchecked).
public struct StoreCheck: Sendable {
    /// The problems found, one sentence each; empty when the store is healthy.
    public let problems: [String]

    /// Whether nothing is wrong.
    public var isHealthy: Bool { problems.isEmpty }

    /// The most integrity-check errors listed: a badly damaged file has thousands, and the
    /// first ones say what is wrong.
    public static let maximumIntegrityErrors = 100

    /// Checks the store file at `storeURL` against `model`.
    ///
    /// - Throws: `StoreError` when there is no store file there or the path is not a file;
    ///   `SQLiteError` when SQLite cannot open it at all or it is not an SQLite database.
    ///   Damage inside a database, even a schema SQLite cannot read, is reported in
    ///   `problems`, not thrown.
    public static func run(storeURL: URL, model: ManagedObjectModel) throws -> StoreCheck {
        let path = storeURL.path
        guard try StoreFile.check(path) else { throw StoreError.noStore(path: path) }
        var problems: [String] = []
        // A file whose schema SQLite cannot even read (a store cut short, a page of its
        // schema overwritten) is the worst damage a check can find, not a failure of the
        // check: it is reported as a problem, so that `check` says the store is damaged
        // (exit 1) where every other command refuses it.
        let database: Database
        let integrity: [String]
        do {
            database = try StoreFile.openForReading(path, busyTimeout: 10)
            integrity = try database.query(
                "PRAGMA integrity_check(\(maximumIntegrityErrors))"
            ).compactMap { $0.first?.textValue }
        } catch let error as SQLiteError where error.isCorrupt {
            return StoreCheck(problems: ["SQLite cannot read the file: \(error.message)"])
        }
        defer { try? database.close() }
        if integrity != ["ok"] { problems += findings(integrity).map { "SQLite integrity check: \($0)" } }

        var options = SQLiteStore.Options()
        options.readOnly = true
        options.passesThroughUnregisteredTransformers = true
        let store: SQLiteStore
        do {
            store = try SQLiteStore(model: model, url: storeURL, options: options)
        } catch {
            problems.append("\(error)".replacingOccurrences(of: "\n", with: " "))
            return StoreCheck(problems: problems)
        }
        defer { try? store.close() }
        for check in [checkSearchIndexes, checkPrimaryKeyCounters, checkReferences, checkValues] {
            do { problems += try check(store, database) } catch {
                problems.append("\(error)".replacingOccurrences(of: "\n", with: " "))
            }
        }
        do {
            let external = try store.checkExternalData()
            problems += external.missingFiles.map { "external data file missing or truncated: \($0)" }
            problems += external.orphanedFiles.map {
                "external data file without a row: \(store.externalData?.directory ?? "")/\($0)"
            }
        } catch {
            problems.append("\(error)".replacingOccurrences(of: "\n", with: " "))
        }
        return StoreCheck(problems: problems)
    }

    /// The lines of SQLite's integrity or quick check results, one finding each: a result
    /// row may hold several lines, and the `*** in database main ***` heading is dropped.
    package static func findings(_ rows: [String]) -> [String] {
        rows.flatMap { $0.split(whereSeparator: \.isNewline) }.map(String.init).filter {
            !$0.hasPrefix("*** in database ")
        }
    }

    // MARK: - Checks

    /// FTS5's own comparison of each search index with its table. SQLite runs it as an
    /// `INSERT`, which a reading connection refuses: it runs in a transaction that is
    /// rolled back (it changes nothing anyway), and not at all on a read-only file.
    private static func checkSearchIndexes(_ store: SQLiteStore, _ database: Database) throws -> [String] {
        guard let path = store.path, StoreFile.isWritable(path) else { return [] }
        let indexes = store.schema.searchIndexes.values.sorted { $0.table < $1.table }
        guard !indexes.isEmpty else { return [] }
        var problems: [String] = []
        try database.execute("PRAGMA query_only=OFF")
        defer { try? database.execute("PRAGMA query_only=ON") }
        for index in indexes {
            let name = sqlIdentifier(index.name)
            try database.execute("BEGIN")
            defer { try? database.execute("ROLLBACK") }
            do {
                try database.execute("INSERT INTO \(name) (\(name), rank) VALUES ('integrity-check', 1)")
            } catch let error as SQLiteError {
                problems.append("search index \(index.name) disagrees with \(index.table): \(error.message)")
            }
        }
        return problems
    }

    /// Each table's counter in `_primarykey` is at least its largest key.
    private static func checkPrimaryKeyCounters(_ store: SQLiteStore, _ database: Database) throws -> [String] {
        var problems: [String] = []
        for table in store.schema.tables.keys.sorted() {
            let largest = try database.scalar("SELECT max(_id) FROM \(sqlIdentifier(table))").int64Value ?? 0
            let counter =
                try database.scalar(
                    "SELECT lastKey FROM _primarykey WHERE tableName = ?", [.text(table)]
                ).int64Value ?? largest
            if counter < largest {
                problems.append(
                    "the key counter of \(table) (\(counter)) is behind its largest key (\(largest))")
            }
        }
        return problems
    }

    /// Every to-one column and join-table row points at a row that exists (the first five
    /// of each kind are named).
    private static func checkReferences(_ store: SQLiteStore, _ database: Database) throws -> [String] {
        var problems: [String] = []
        for table in store.schema.tables.values.sorted(by: { $0.name < $1.name }) {
            for column in table.columns {
                guard case .toOne(_, let destination) = column.kind else { continue }
                let name = sqlIdentifier(column.name)
                let rows = try database.query(
                    "SELECT _id, \(name) FROM \(sqlIdentifier(table.name)) WHERE \(name) IS NOT NULL "
                        + "AND \(name) NOT IN (SELECT _id FROM \(sqlIdentifier(destination))) LIMIT 5")
                problems += rows.map {
                    "\(table.name)/p\($0[0].int64Value ?? 0).\(column.name) points at "
                        + "\(destination)/p\($0[1].int64Value ?? 0), which does not exist"
                }
            }
        }
        for join in store.schema.joinTables {
            for (column, target) in [("source", join.sourceTable), ("destination", join.destinationTable)] {
                let rows = try database.query(
                    "SELECT \(column) FROM \(sqlIdentifier(join.name)) WHERE \(column) NOT IN "
                        + "(SELECT _id FROM \(sqlIdentifier(target))) LIMIT 5")
                problems += rows.map {
                    "\(join.name) links \(target)/p\($0[0].int64Value ?? 0), which does not exist"
                }
            }
        }
        return problems
    }
}
