import CSQLite
import Foundation

/// The `sqlite3 *` connection handle shared by a ``Database`` and its statements.
///
/// A ``Statement`` keeps its connection alive (not its ``Database``), so that the database's
/// statement cache holds no reference cycle. The connection is also the one place where a
/// failing SQLite result code becomes an ``SQLiteError``: see ``raise(_:sql:message:)``.
final class SQLiteConnection {
    /// The open handle, or `nil` once closed.
    private(set) var handle: OpaquePointer?
    /// The database file, or `nil` for an in-memory database.
    let path: String?

    /// Takes ownership of a handle returned by
    /// [`sqlite3_open_v2`](https://sqlite.org/c3ref/open.html), even a failed one.
    init(handle: OpaquePointer?, path: String?) {
        self.handle = handle
        self.path = path
    }

    deinit {
        // A connection that failed half-way through opening is closed here.
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Whether the connection is still open.
    var isOpen: Bool { handle != nil }

    /// The open handle.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISUSE`) when the connection was closed.
    func openHandle(for sql: String? = nil) throws -> OpaquePointer {
        guard let handle else { throw closedError(sql: sql) }
        return handle
    }

    /// Closes the connection with [`sqlite3_close_v2`](https://sqlite.org/c3ref/close.html).
    ///
    /// Statements still alive turn the connection into a "zombie" that SQLite frees when the
    /// last of them is finalized; they can no longer step. Closing twice does nothing.
    func close() throws {
        guard let handle else { return }
        let resultCode = sqlite3_close_v2(handle)
        if resultCode != SQLITE_OK { try raise(resultCode, sql: nil) }
        self.handle = nil
    }

    // MARK: - Opening

    /// Opens a connection and configures it, reading the schema before anything that could
    /// write so that a file which is not a database is refused untouched.
    static func open(
        filename: String, path: String?, flags: Int32, busyTimeout: Double, useWAL: Bool,
        queryOnly: Bool
    ) throws -> SQLiteConnection {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(filename, &handle, flags, nil)
        // From here on the connection owns the handle and closes it if setup fails.
        let connection = SQLiteConnection(handle: handle, path: path)
        if opened != SQLITE_OK { try connection.raise(opened, sql: nil) }
        guard let handle else { try connection.raise(SQLITE_NOMEM, sql: nil) }
        sqlite3_extended_result_codes(handle, 1)
        // NaN and negative timeouts mean "do not wait"; huge ones are capped.
        let milliseconds = min((busyTimeout * 1000).rounded(), Double(Int32.max))
        sqlite3_busy_timeout(handle, milliseconds > 0 ? Int32(milliseconds) : 0)
        do {
            try connection.run("PRAGMA schema_version")
        } catch var error as SQLiteError where error.isNotADatabase {
            error.sql = nil  // the failure is the file's, not this pragma's
            throw error
        }
        if queryOnly { try connection.run("PRAGMA query_only=ON") }
        if useWAL { try connection.switchToWAL(waitingUpTo: milliseconds) }
        try connection.run("PRAGMA foreign_keys=ON")
        // Statement journals (and other temporary files) in memory: a save writes up to 500
        // rows per statement, and such a statement's journal outgrew SQLite's in-memory
        // threshold and spilled to a temporary file, written and read back page by page.
        try connection.run("PRAGMA temp_store=MEMORY")
        return connection
    }

    /// Prepares and runs one statement to completion, discarding its rows.
    /// `PRAGMA journal_mode=WAL`, retried while another connection holds the lock it needs.
    ///
    /// Switching a store into WAL mode needs an exclusive lock, and SQLite answers
    /// `SQLITE_BUSY` at once, without calling the busy handler, when another process holds
    /// a lock on the file (seen when two processes create one store at the same moment:
    /// one is still writing the new schema). So this waits the way the busy timeout would:
    /// short sleeps, up to `milliseconds` in all, then the error.
    private func switchToWAL(waitingUpTo milliseconds: Double) throws {
        var waited = 0.0
        var pause = 1.0
        while true {
            do {
                return try run("PRAGMA journal_mode=WAL")
            } catch let error as SQLiteError where error.isBusy && waited < milliseconds {
                usleep(UInt32(pause * 1000))
                waited += pause
                pause = min(pause * 2, 50)
            }
        }
    }

    private func run(_ sql: String) throws {
        let statement = try prepare(sql, persistent: false)
        while try statement.step() {}
    }

    // MARK: - Preparing

    /// Prepares exactly one statement
    /// ([`sqlite3_prepare_v3`](https://sqlite.org/c3ref/prepare.html)).
    ///
    /// - Parameter persistent: Hints SQLite that the statement will be kept and reused
    ///   (`SQLITE_PREPARE_PERSISTENT`).
    /// - Throws: ``SQLiteError`` when the SQL is invalid, holds no statement or more than one.
    func prepare(_ sql: String, persistent: Bool) throws -> Statement {
        let handle = try openHandle(for: sql)
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        var statement: OpaquePointer?
        var extraStatement = false
        let resultCode = sql.withCString { start -> Int32 in
            let length = strlen(start)
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(
                handle, start, Int32(clamping: length + 1), flags, &statement, &tail)
            guard resultCode == SQLITE_OK, let tail else { return resultCode }
            // Anything after the statement other than blanks, semicolons and comments is a
            // second statement: refuse it rather than silently ignore it.
            var rest = tail
            while rest < start + length, rest.pointee == 0x3B || isspace(Int32(rest.pointee)) != 0 {
                rest += 1
            }
            if rest < start + length {
                var next: OpaquePointer?
                let nextCode = sqlite3_prepare_v2(handle, rest, -1, &next, nil)
                if nextCode != SQLITE_OK || next != nil { extraStatement = true }
                sqlite3_finalize(next)
            }
            return resultCode
        }
        if resultCode != SQLITE_OK { try raise(resultCode, sql: sql) }
        guard let statement, !extraStatement else {
            sqlite3_finalize(statement)
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE,
                message: statement == nil
                    ? "there is no SQL statement to prepare"
                    : "only one statement can be prepared at a time; use execute(_:) for scripts",
                sql: sql, path: path)
        }
        return Statement(handle: statement, sql: sql, connection: self)
    }

    // MARK: - Errors

    /// Builds and throws the ``SQLiteError`` for a failing result code: the one place where
    /// SQLite failures become errors.
    ///
    /// The message is SQLite's [`sqlite3_errmsg`](https://sqlite.org/c3ref/errcode.html) when
    /// it describes this failure, else [`sqlite3_errstr`](https://sqlite.org/c3ref/errcode.html)
    /// for the code. For `SQLITE_CANTOPEN` the operating system's reason is appended.
    ///
    /// - Parameters:
    ///   - resultCode: The (extended) result code SQLite returned.
    ///   - sql: The SQL being prepared or executed, if any.
    ///   - message: A clearer message than SQLite's, when the caller knows better.
    /// - Throws: Always.
    func raise(
        _ resultCode: Int32, sql: String?, message explanation: String? = nil
    ) throws -> Never {
        var message: String
        if let explanation {
            message = explanation
        } else if let handle, sqlite3_extended_errcode(handle) & 0xFF == resultCode & 0xFF {
            message = String(cString: sqlite3_errmsg(handle))
        } else {
            message = String(cString: sqlite3_errstr(resultCode))
        }
        if resultCode & 0xFF == SQLITE_CANTOPEN, let handle {
            let systemError = sqlite3_system_errno(handle)
            if systemError != 0 { message += " (\(String(cString: strerror(systemError))))" }
        }
        throw SQLiteError(extendedCode: resultCode, message: message, sql: sql, path: path)
    }

    /// The error for any use of a closed connection.
    func closedError(sql: String?) -> SQLiteError {
        SQLiteError(
            extendedCode: SQLITE_MISUSE, message: "the database connection is closed",
            sql: sql, path: path)
    }
}
