import CSQLite
import Foundation

/// A connection to an SQLite database: [`sqlite3`](https://sqlite.org/c3ref/sqlite3.html).
///
/// ```swift
/// let db = try Database(path: "/tmp/books.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS Book(id INTEGER PRIMARY KEY, title TEXT)")
/// try db.inTransaction(.immediate) {
///     let insert = try db.cachedStatement("INSERT INTO Book(title) VALUES (?)")
///     for title in titles { try insert.run([.text(title)]) }
/// }
/// let count = try db.scalar("SELECT count(*) FROM Book").int64Value
/// ```
///
/// A file database opens in [WAL mode](https://sqlite.org/wal.html) with
/// [foreign keys](https://sqlite.org/foreignkeys.html) enforced and a busy timeout. The
/// connection is opened with `SQLITE_OPEN_NOMUTEX`: use it from one thread at a time. It is
/// not `Sendable`.
public final class Database {
    /// How ``Database/init(path:mode:busyTimeout:)`` treats the file.
    public enum OpenMode: Sendable {
        /// Open the file for reading and writing, creating an empty database when missing.
        case createIfMissing
        /// Open an existing file for reading and writing; a missing file is an error.
        case mustExist
        /// Open an existing file for reading only; a missing file is an error.
        ///
        /// In WAL mode SQLite creates the `-wal` and `-shm` files of a read-only connection
        /// when the folder is writable and, unlike a writer, cannot remove them when it
        /// closes; see ``queryOnly`` and ``immutable`` for readers that leave nothing behind.
        case readOnly
        /// Open an existing file for reading and writing, but refuse every write
        /// ([`PRAGMA query_only`](https://sqlite.org/pragma.html#pragma_query_only)); the
        /// journal mode is left as the file has it.
        ///
        /// A reader that leaves no file behind: as the last connection to close it removes
        /// the `-wal` and `-shm` files, as a writer does. Needs a writable file and folder.
        case queryOnly
        /// Open an existing file read-only as
        /// [immutable](https://sqlite.org/uri.html#uriimmutable): no locks, no `-wal` or
        /// `-shm` file. Only for files nobody can be writing, such as one on read-only media
        /// (SQLite's "read-only databases", https://sqlite.org/wal.html#readonly).
        case immutable
    }

    /// The database file, or `nil` for an in-memory database.
    public let path: String?

    /// The connection handle, shared with this database's statements.
    let connection: SQLiteConnection

    /// Statements prepared by ``cachedStatement(_:)``, keyed by their SQL.
    private var statementCache: [String: Statement] = [:]

    /// Opens (or creates) the database file at `path`.
    ///
    /// The file's schema is read before anything is written, so a file that is not an SQLite
    /// database is refused here and left byte-for-byte untouched. Then, unless read-only,
    /// `PRAGMA journal_mode=WAL`; always `PRAGMA foreign_keys=ON` and
    /// [`sqlite3_busy_timeout`](https://sqlite.org/c3ref/busy_timeout.html). Extended result
    /// codes are on ([`sqlite3_open_v2`](https://sqlite.org/c3ref/open.html),
    /// [`sqlite3_extended_result_codes`](https://sqlite.org/c3ref/extended_result_codes.html)).
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: Whether to create a missing file, require it, or open it read-only.
    ///   - busyTimeout: Seconds to wait for another connection's lock before failing with
    ///     `SQLITE_BUSY` ("database is locked").
    /// - Throws: ``SQLiteError``: `SQLITE_CANTOPEN` (with the system's reason) when the file
    ///   cannot be opened or is missing under `.mustExist`/`.readOnly`; `SQLITE_NOTADB` when
    ///   it is not a database; `SQLITE_BUSY` when it stays locked longer than `busyTimeout`.
    public init(path: String, mode: OpenMode = .createIfMissing, busyTimeout: Double = 5.0) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var filename = path
        switch mode {
        case .createIfMissing: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .mustExist, .queryOnly: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            filename = Self.uri(forPath: path) + "?immutable=1"
        }
        self.path = path
        self.connection = try SQLiteConnection.open(
            filename: filename, path: path, flags: flags, busyTimeout: busyTimeout,
            useWAL: mode == .createIfMissing || mode == .mustExist,
            queryOnly: mode == .queryOnly)
    }

    /// A `file:` URI for a path (https://sqlite.org/uri.html): every byte but unreserved
    /// ones and `/` percent-encoded, so that `?`, `#` and `%` in a name stay part of it.
    static func uri(forPath path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var uri = "file:"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                uri.append(Character(Unicode.Scalar(byte)))
            default:
                uri += String(format: "%%%02X", byte)
            }
        }
        return uri
    }

    private init(connection: SQLiteConnection) {
        self.path = nil
        self.connection = connection
    }

    /// Opens a private, empty, in-memory database with foreign keys enforced.
    ///
    /// - Throws: ``SQLiteError`` when SQLite cannot allocate the database.
    public static func inMemory() throws -> Database {
        let flags =
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_MEMORY
        let connection = try SQLiteConnection.open(
            filename: ":memory:", path: nil, flags: flags, busyTimeout: 0, useWAL: false,
            queryOnly: false)
        return Database(connection: connection)
    }

    deinit {
        try? close()
    }

    /// Finalizes the cached statements and closes the connection
    /// ([`sqlite3_close_v2`](https://sqlite.org/c3ref/close.html)).
    ///
    /// An open transaction is rolled back. Closing twice does nothing; any later use of the
    /// database or its statements throws. The deinitializer closes too.
    ///
    /// - Throws: ``SQLiteError`` if SQLite refuses to close.
    public func close() throws {
        guard connection.isOpen else { return }
        for statement in statementCache.values { statement.finalize() }
        statementCache.removeAll()
        try connection.close()
    }

    // MARK: - Executing SQL

    /// Runs one or more SQL statements separated by semicolons, discarding any rows.
    ///
    /// - Throws: ``SQLiteError`` naming the statement that failed; statements before it
    ///   have run.
    public func execute(_ sql: String) throws {
        let handle = try connection.openHandle(for: sql)
        try sql.withCString { start in
            var cursor = start
            let end = start + strlen(start)
            while cursor < end {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let prepared = sqlite3_prepare_v2(
                    handle, cursor, Int32(clamping: end - cursor), &statement, &tail)
                if prepared != SQLITE_OK { try connection.raise(prepared, sql: sql) }
                guard let next = tail, next > cursor else {
                    sqlite3_finalize(statement)
                    break
                }
                cursor = next
                guard let statement else { continue }  // whitespace or a comment
                defer { sqlite3_finalize(statement) }
                var stepped = sqlite3_step(statement)
                while stepped == SQLITE_ROW { stepped = sqlite3_step(statement) }
                if stepped != SQLITE_DONE {
                    try connection.raise(stepped, sql: String(cString: sqlite3_sql(statement)))
                }
            }
        }
    }

    /// Runs one SQL statement with arguments bound to its `?` parameters, discarding any rows.
    ///
    /// The statement comes from the statement cache.
    ///
    /// - Throws: ``SQLiteError`` when the SQL is invalid, the argument count is wrong, or
    ///   the statement fails.
    public func execute(_ sql: String, _ arguments: [SQLiteValue]) throws {
        let statement = try cachedStatement(sql)
        defer { statement.reset(); statement.clearBindings() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs a query and returns all its rows. Meant for small results and tests; use a
    /// ``Statement`` to stream large ones.
    ///
    /// - Throws: ``SQLiteError`` when the SQL is invalid, the argument count is wrong, or
    ///   the statement fails.
    public func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try cachedStatement(sql)
        defer { statement.reset(); statement.clearBindings() }
        try statement.bind(arguments)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The first column of the first row of a query, or `.null` when there is no row.
    ///
    /// - Throws: ``SQLiteError`` when the SQL is invalid, the argument count is wrong, or
    ///   the statement fails.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> SQLiteValue {
        let statement = try cachedStatement(sql)
        defer { statement.reset(); statement.clearBindings() }
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : .null
    }

    // MARK: - Statements

    /// Prepares a new statement that the caller owns
    /// ([`sqlite3_prepare_v3`](https://sqlite.org/c3ref/prepare.html)).
    ///
    /// - Throws: ``SQLiteError`` when the SQL is invalid, empty, or holds more than one
    ///   statement.
    public func prepare(_ sql: String) throws -> Statement {
        try connection.prepare(sql, persistent: false)
    }

    /// The cached statement for `sql`, prepared on first use, then reused: reset, with its
    /// bindings cleared.
    ///
    /// The same SQL always returns the same instance, so do not interleave two uses of one
    /// SQL (the second resets the first). ``execute(_:_:)``, ``query(_:_:)`` and
    /// ``scalar(_:_:)`` use this cache too.
    ///
    /// - Throws: ``SQLiteError`` when the SQL is invalid, empty, or holds more than one
    ///   statement.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try connection.prepare(sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    // MARK: - SQLiteConnection state

    /// The rowid of the most recent successful INSERT on this connection
    /// ([`sqlite3_last_insert_rowid`](https://sqlite.org/c3ref/last_insert_rowid.html)).
    public var lastInsertRowID: Int64 {
        guard let handle = connection.handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE
    /// ([`sqlite3_changes64`](https://sqlite.org/c3ref/changes.html)).
    public var changes: Int {
        guard let handle = connection.handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// Whether a transaction is open, that is, the connection is not in autocommit mode
    /// ([`sqlite3_get_autocommit`](https://sqlite.org/c3ref/get_autocommit.html)).
    public var isInTransaction: Bool {
        guard let handle = connection.handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// The most `?` parameters one statement may have
    /// ([`SQLITE_LIMIT_VARIABLE_NUMBER`](https://sqlite.org/c3ref/c_limit_attached.html):
    /// 32,766 since SQLite 3.32, 999 before); 999 while the connection is closed.
    public var parameterLimit: Int {
        guard let handle = connection.handle else { return 999 }
        return Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }

    /// The version of the SQLite library in use, such as `3.40.1`
    /// ([`sqlite3_libversion`](https://sqlite.org/c3ref/libversion.html)).
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}

@available(*, unavailable, message: "a Database connection is used from one thread at a time")
extension Database: Sendable {}
