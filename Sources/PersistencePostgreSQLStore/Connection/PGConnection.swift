#if PostgreSQL
import CLibPQ
import Foundation
import PersistenceModel

/// One libpq connection to a PostgreSQL server, used by one thread at a time: statements
/// with bound parameters only (`PQexecParams`, text format), results read as text.
///
/// Every value reaches the server as a parameter, never spliced into SQL; identifiers are
/// quoted by `pgIdentifier`. A statement that fails on a lost connection throws
/// `PostgreSQLError` with `isConnectionLost` set: the caller fails the current operation and
/// the next one reconnects (`reconnectIfNeeded`), never retrying behind the caller's back.
///
/// The session is named `persistence` (`application_name`, in `pg_stat_activity` and the
/// server's log) unless the connection string or `PGAPPNAME` names it otherwise. Notices
/// the server sends are not printed: what a caller must know arrives as an error.
package final class PGConnection {
    /// The `application_name` of a session whose connection string names none.
    package static let applicationName = "persistence"

    private var handle: OpaquePointer?
    /// The statements sent to the server so far: a round trip each (what a test counts to
    /// see that a save's writes go many per statement).
    package private(set) var statementsSent = 0
    /// The connection string it was opened with (a `postgresql://` URL or `key=value` pairs).
    package let conninfo: String
    /// Milliseconds after which the server cancels a statement; 0 for none.
    package let statementTimeout: Int
    /// Whether a transaction is open on this connection.
    package private(set) var inTransaction = false

    /// Connects, and sets the session up (statement timeout, UTC, quiet notices).
    ///
    /// - Throws: `PostgreSQLError` naming why the server could not be reached or refused.
    package init(conninfo: String, statementTimeout: Int = 30_000) throws {
        self.conninfo = conninfo
        self.statementTimeout = statementTimeout
        try connect()
    }

    deinit { close() }

    /// Closes the connection; later statements fail.
    package func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    private func connect() throws {
        close()
        // The connection string is expanded as libpq's `dbname` (a URL or key=value pairs);
        // the fallback name yields to one it or PGAPPNAME gives.
        let keywords = ["dbname", "fallback_application_name"]
        let values = [conninfo, Self.applicationName]
        let opened = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection = opened else {
            throw PostgreSQLError(message: "libpq could not allocate a connection", sqlState: nil, isConnectionLost: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            // libpq may quote a piece of the connection string it could not read, which can
            // be its password: hidden, as in every message (`SecretRedaction`).
            let message = SecretRedaction.redacting(Self.firstLine(String(cString: PQerrorMessage(connection))))
            PQfinish(connection)
            throw PostgreSQLError(message: message, sqlState: nil, isConnectionLost: true)
        }
        // A server ending the session says why in a notice before closing it (see
        // `readPendingInput`); libpq's default prints it on stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
        inTransaction = false
        do {
            try execute("SET client_min_messages = warning")
            try execute("SET TIME ZONE 'UTC'")
            try execute("SET statement_timeout = \(statementTimeout)")
        } catch {
            // A session half set up must not be taken for a ready one.
            close()
            throw error
        }
    }

    /// Whether the connection is up; a lost one is opened again before the next statement.
    package var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Opens the connection again when the server dropped it (a restart, an administrator
    /// ending the session), before anything is sent on it: a statement that found it lost
    /// has already failed its caller, and one never sent is not a retry.
    ///
    /// - Returns: Whether it connected again (the session's settings are to be made again).
    @discardableResult
    package func reconnectIfNeeded() throws -> Bool {
        if !inTransaction { readPendingInput() }
        guard !isConnected else { return false }
        try connect()
        return true
    }

    /// Reads what the server sent while the connection was idle. A server that ends the
    /// session (a restart's fast shutdown, `pg_terminate_backend`) sends its reason and
    /// closes the socket, but libpq marks the connection bad only once it reads them:
    /// without this, the next operation would fail on a connection already known dead.
    private func readPendingInput() {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return }
        // The reason and the end of the stream may take two reads.
        for _ in 0..<4 {
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return }
            guard PQconsumeInput(handle) != 0, PQstatus(handle) == CONNECTION_OK else { return }
        }
    }

    // MARK: - Statements

    /// Runs `sql` with `parameters` ($1, $2, …) and returns its rows, each column as text or nil.
    @discardableResult
    package func query(_ sql: String, _ parameters: [PGValue] = []) throws -> [[String?]] {
        var rows: [[String?]] = []
        try forEachRow(sql, parameters) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// Runs `sql`, discarding its rows.
    package func execute(_ sql: String, _ parameters: [PGValue] = []) throws {
        _ = try run(sql, parameters) { _ in true }
    }

    /// The number of rows a command changed (`UPDATE`, `DELETE`, `INSERT`).
    package func executeCounting(_ sql: String, _ parameters: [PGValue] = []) throws -> Int {
        try run(sql, parameters) { _ in true }
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ parameters: [PGValue] = []) throws -> String? {
        var value: String?
        try forEachRow(sql, parameters) { row in
            value = row.first ?? nil
            return false
        }
        return value
    }

    /// Calls `body` with each row until it returns false.
    package func forEachRow(_ sql: String, _ parameters: [PGValue], _ body: ([String?]) throws -> Bool) throws {
        _ = try run(sql, parameters, body)
    }

    private func run(_ sql: String, _ parameters: [PGValue], _ body: ([String?]) throws -> Bool) throws -> Int {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            throw PostgreSQLError(message: "the connection to the server was lost", sqlState: nil, isConnectionLost: true)
        }
        let texts: [String?] = parameters.map(\.text)
        let types: [Oid] = parameters.map(\.typeOID)
        statementsSent += 1
        let result: OpaquePointer? = withCStrings(texts) { values in
            types.withUnsafeBufferPointer { oids in
                PQexecParams(handle, sql, Int32(texts.count), oids.baseAddress, values, nil, nil, 0)
            }
        }
        guard let result else { throw lastError(handle) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return Int(String(cString: PQcmdTuples(result))) ?? 0
        case PGRES_TUPLES_OK:
            let rowCount = PQntuples(result)
            let columnCount = PQnfields(result)
            for row in 0..<rowCount {
                var values: [String?] = []
                values.reserveCapacity(Int(columnCount))
                for column in 0..<columnCount {
                    if PQgetisnull(result, row, column) != 0 {
                        values.append(nil)
                    } else {
                        values.append(String(cString: PQgetvalue(result, row, column)))
                    }
                }
                if try !body(values) { break }
            }
            return Int(rowCount)
        default:
            throw error(from: result, handle)
        }
    }

    private func error(from result: OpaquePointer, _ handle: OpaquePointer) -> PostgreSQLError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let constraint = PQresultErrorField(result, Int32(UInt8(ascii: "n"))).map { String(cString: $0) }
        let lost = PQstatus(handle) != CONNECTION_OK
        return PostgreSQLError(
            message: primary ?? Self.firstLine(String(cString: PQerrorMessage(handle))), sqlState: state,
            isConnectionLost: lost || Self.endsTheSession(state), constraint: constraint)
    }

    /// Whether SQLSTATE `state` is a connection failure (class 08) or the server ending the
    /// session (57P01 a shutdown or `pg_terminate_backend`, 57P02 a crash, 57P03 not yet
    /// accepting connections, 57P04 the database dropped, 57P05 an idle session timed out).
    private static func endsTheSession(_ state: String?) -> Bool {
        guard let state else { return false }
        return state.hasPrefix("08") || state.hasPrefix("57P")
    }

    private func lastError(_ handle: OpaquePointer) -> PostgreSQLError {
        let lost = PQstatus(handle) != CONNECTION_OK
        return PostgreSQLError(
            message: Self.firstLine(String(cString: PQerrorMessage(handle))), sqlState: nil, isConnectionLost: lost)
    }

    /// The first line of libpq's message, without a leading severity (`FATAL:  `), which
    /// says nothing to a user that the message does not.
    static func firstLine(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var line = trimmed.split(separator: "\n").first.map(String.init) ?? trimmed
        for severity in ["FATAL:", "ERROR:", "PANIC:"] where line.hasPrefix(severity) {
            line = line.dropFirst(severity.count).trimmingCharacters(in: .whitespaces)
        }
        return line
    }

    // MARK: - Transactions

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func inTransaction<T>(_ isolation: String = "READ COMMITTED", _ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        try execute("BEGIN ISOLATION LEVEL \(isolation)")
        inTransaction = true
        do {
            let value = try body()
            do {
                try execute("COMMIT")
            } catch let error as PostgreSQLError where error.isConnectionLost {
                // The server may have committed before the connection went: say so.
                throw PostgreSQLError(
                    message: error.message + " while committing: whether the transaction was committed is unknown",
                    sqlState: error.sqlState, isConnectionLost: true)
            }
            inTransaction = false
            return value
        } catch {
            inTransaction = false
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
    }

    // MARK: - Notifications

    /// The channels' notifications received since the last call, as (channel, payload).
    package func notifications() -> [(channel: String, payload: String)] {
        guard let handle else { return [] }
        PQconsumeInput(handle)
        var received: [(String, String)] = []
        while let notify = PQnotifies(handle) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return received
    }

    /// The connection's socket, to wait on for notifications; -1 when closed.
    package var socket: Int32 {
        guard let handle else { return -1 }
        return PQsocket(handle)
    }
}

/// Calls `body` with `strings` as a C array of C strings (a null pointer for nil), ending
/// with a null pointer: libpq's form for statement parameters and connection keywords.
private func withCStrings<T>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for copy in copies { free(copy) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// Quotes a PostgreSQL identifier: `title` → `"title"`, doubling embedded quotes.
package func pgIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
#endif
