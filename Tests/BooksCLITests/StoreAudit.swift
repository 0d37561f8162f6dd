import Foundation
import Persistence
import PersistenceSQLite

// Why these tests look inside the store file on purpose
// -----------------------------------------------------
// The CLI tests drive the `books` binary and check what it prints. A few must see the file
// the binary leaves: after a process was killed or raced with others (crash safety: whole
// saves only, indexes and counters consistent), while a seed is still writing (to stop it
// mid-way), and to set up what another program could have done to the file (foreign rows,
// hostile text, an edited version hash, a damaged page). Every such look goes through
// this file, with a connection of its own, so that the places that know the store's
// layout are few and named.

/// Reads a catalogue store directly (through Persistence's `Database`, never through the
/// `books` binary under test) and lists every way in which it is inconsistent.
///
/// Used after a `books` process was killed or raced with others: the store must open, pass
/// SQLite's own `integrity_check`, and hold whole saves only.
struct StoreAudit {
    /// The store file.
    let store: URL

    /// One check of a store: given an open connection, the problems found (empty when fine).
    typealias Check = @Sendable (Database) throws -> [String]

    /// Checks that every store must pass, whatever features it has. Add new ones to this
    /// list; the crash-safety and concurrency tests run all of them.
    static let checks: [(name: String, check: Check)] = [
        ("integrity_check", integrity),
        ("search indexes agree with their tables", searchIndexes),
        ("books have authors that exist", danglingAuthors),
        ("primary-key counters are ahead of every key", primaryKeyCounters),
        ("unique UUIDs and author names", duplicates),
        ("external data files match their rows", externalData),
    ]

    /// Every problem found by ``checks``, each prefixed with the check's name. Throws only
    /// when the store cannot be opened at all.
    ///
    /// A database with no tables (a process killed while creating the store, before the
    /// schema committed) is an empty store: it only has to pass `integrity_check`.
    func problems() throws -> [String] {
        let database = try Database(path: store.path, mode: .mustExist, busyTimeout: 10)
        defer { try? database.close() }
        var found: [String] = []
        let isEmpty = try database.scalar("SELECT count(*) FROM sqlite_master").int64Value == 0
        for (name, check) in Self.checks where !isEmpty || name == "integrity_check" {
            do {
                found += try check(database).map { "\(name): \($0)" }
            } catch {
                found.append("\(name): \(error)")
            }
        }
        return found
    }

    /// The number of rows of a table.
    func count(_ table: String) throws -> Int {
        let database = try Database(path: store.path, mode: .mustExist, busyTimeout: 10)
        defer { try? database.close() }
        return Int(try database.scalar("SELECT count(*) FROM \"\(table)\"").int64Value ?? -1)
    }

    /// Each Book's title and UUID (none in an empty database).
    func books() throws -> [(title: String, uuid: String)] {
        let database = try Database(path: store.path, mode: .mustExist, busyTimeout: 10)
        defer { try? database.close() }
        if try database.scalar("SELECT count(*) FROM sqlite_master").int64Value == 0 { return [] }
        return try database.query("SELECT title, uuid FROM Book").map { row in
            (row[0].textValue ?? "", row[1].textValue ?? "")
        }
    }

    /// The number of distinct authors that books point at.
    func distinctAuthorsOfBooks() throws -> Int {
        let database = try Database(path: store.path, mode: .mustExist, busyTimeout: 10)
        defer { try? database.close() }
        return Int(try database.scalar("SELECT count(DISTINCT source) FROM Author_books").int64Value ?? -1)
    }

    // MARK: - Checks

    static func integrity(_ database: Database) throws -> [String] {
        let rows = try database.query("PRAGMA integrity_check").compactMap { $0.first?.textValue }
        return rows == ["ok"] ? [] : rows
    }

    /// FTS5's own check of an external-content index against its table (`rank = 1` compares
    /// the indexed text with the table's current values), and one index row per table row.
    static func searchIndexes(_ database: Database) throws -> [String] {
        let indexes = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_search\\_%' ESCAPE '\\' AND sql LIKE '%fts5%'"
        ).compactMap { $0.first?.textValue }
        var found: [String] = []
        if indexes.isEmpty { found.append("the store has no search index") }
        for index in indexes {
            do {
                try database.execute("INSERT INTO \"\(index)\" (\"\(index)\", rank) VALUES ('integrity-check', 1)")
            } catch {
                found.append("\(index): \(error)")
            }
        }
        return found
    }

    static func danglingAuthors(_ database: Database) throws -> [String] {
        let rows = try database.query(
            "SELECT destination, source FROM Author_books WHERE source NOT IN (SELECT _id FROM Author) "
                + "OR destination NOT IN (SELECT _id FROM Book) LIMIT 5")
        return rows.map { "Book \($0[0]) and Author \($0[1]) are linked, and one of them is missing" }
    }

    static func primaryKeyCounters(_ database: Database) throws -> [String] {
        var found: [String] = []
        for table in ["Book", "Author"] {
            let maxKey = try database.scalar("SELECT max(_id) FROM \"\(table)\"").int64Value ?? 0
            let counter = try database.scalar("SELECT lastKey FROM _primarykey WHERE tableName = ?", [.text(table)])
                .int64Value ?? 0
            if counter < maxKey { found.append("\(table) counter \(counter) is behind key \(maxKey)") }
        }
        return found
    }

    /// Every `external:<UUID>:<bytes>` reference in a BLOB column has its file, of that
    /// size, and the external data folder holds no file without a reference (see
    /// `ExternalDataStore`). The catalogue has no such attribute, so both lists stay empty
    /// unless something writes where it must not.
    static func externalData(_ database: Database) throws -> [String] {
        guard let path = database.path else { return [] }
        let directory = ExternalDataStore.directory(forStorePath: path)
        var referenced: Set<String> = []
        var found: [String] = []
        let tables = try database.query(
            // Entity tables only: `_metadata`, search indexes and the like start with `_`.
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ).compactMap { $0.first?.textValue }
        for table in tables {
            let columns = try database.query("SELECT name FROM pragma_table_info(?) WHERE type = 'BLOB'", [.text(table)])
                .compactMap { $0.first?.textValue }
            for column in columns {
                let rows = try database.query(
                    "SELECT _id, \"\(column)\" FROM \"\(table)\" WHERE typeof(\"\(column)\") = 'text'")
                for row in rows {
                    guard let text = row[1].textValue, let reference = ExternalDataStore.Reference(text) else {
                        continue
                    }
                    referenced.insert(reference.fileName)
                    let file = directory + "/" + reference.fileName
                    let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber
                    if size?.intValue != reference.byteCount { found.append("\(table) \(row[0]).\(column): \(file) is missing") }
                }
            }
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        found += files.filter { !referenced.contains($0) }.sorted().map { "\(directory)/\($0) is orphaned" }
        return found
    }

    static func duplicates(_ database: Database) throws -> [String] {
        let books = try database.query("SELECT uuid, count(*) FROM Book GROUP BY uuid HAVING count(*) > 1 LIMIT 5")
        let authors = try database.query("SELECT name, count(*) FROM Author GROUP BY name HAVING count(*) > 1 LIMIT 5")
        return books.map { "UUID \($0[0]) is on \($0[1]) books" } + authors.map { "author \($0[0]) has \($0[1]) rows" }
    }
}

// MARK: - Watching and changing a store on purpose

extension StoreAudit {
    /// Changes the file with a writable connection of its own, as any other program could:
    /// rows the binary must show safely, or metadata it must refuse.
    func write(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        let database = try Database(path: store.path, mode: .mustExist)
        defer { try? database.close() }
        if arguments.isEmpty { try database.execute(sql) } else { try database.execute(sql, arguments) }
    }

    /// Creates a plain SQLite database that is no catalogue: another program's file.
    static func writeForeignDatabase(at url: URL) throws {
        let database = try Database(path: url.path)
        defer { try? database.close() }
        try database.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    }

    /// The page numbers of the Book table's leaf pages, in file order (SQLite's `dbstat`).
    func bookLeafPages() throws -> [Int64] {
        let database = try Database(path: store.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(
            "SELECT pageno FROM dbstat WHERE name = 'Book' AND pagetype = 'leaf' ORDER BY pageno"
        ).compactMap { $0.first?.int64Value }
    }

    /// A read-only connection kept open while a `books` process writes the store, or nil
    /// while there is no file (yet) or it cannot be opened.
    func watcher() -> Watcher? {
        guard FileManager.default.fileExists(atPath: store.path),
            let database = try? Database(path: store.path, mode: .readOnly, busyTimeout: 1)
        else { return nil }
        return Watcher(database: database)
    }

    /// One connection that polls a store another process is writing.
    final class Watcher {
        private let database: Database

        fileprivate init(database: Database) { self.database = database }

        deinit { try? database.close() }

        /// The number of books committed so far, or nil while the table is not there.
        func bookCount() -> Int64? {
            try? database.scalar("SELECT count(*) FROM Book").int64Value
        }

        /// SQLite's `data_version`: it changes each time another connection commits.
        func dataVersion() -> Int64? {
            try? database.scalar("PRAGMA data_version").int64Value
        }
    }
}
