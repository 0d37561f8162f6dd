#if PostgreSQL
import CLibPQ
import Foundation

/// One libpq connection to a PostgreSQL server, used by one thread at a time: statements
/// with bound parameters only (`PQexecParams`, text format), results read as text.
///
/// Every value reaches the server as a parameter, never spliced into SQL; identifiers are
/// quoted by `pgIdentifier`. A statement that fails on a lost connection throws
/// `PostgreSQLError` with `isConnectionLost` set: the caller fails the current operation and
/// the next one reconnects (`reconnectIfNeeded`), never retrying behind the caller's back.
package final class PGConnection {
    private var handle: OpaquePointer?
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
        guard let connection = PQconnectdb(conninfo) else {
            throw PostgreSQLError(message: "libpq could not allocate a connection", sqlState: nil, isConnectionLost: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.firstLine(String(cString: PQerrorMessage(connection)))
            PQfinish(connection)
            throw PostgreSQLError(message: message, sqlState: nil, isConnectionLost: true)
        }
        handle = connection
        inTransaction = false
        try execute("SET client_min_messages = warning")
        try execute("SET TIME ZONE 'UTC'")
        try execute("SET statement_timeout = \(statementTimeout)")
    }

    /// Whether the connection is up; a lost one is opened again before the next statement.
    package var isConnected: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Opens the connection again when the server dropped it (a restart): the statement that
    /// found it lost has already failed its caller.
    package func reconnectIfNeeded() throws {
        if !isConnected { try connect() }
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
        var cStrings: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
        defer { for pointer in cStrings { free(pointer) } }
        let result: OpaquePointer? = cStrings.withUnsafeMutableBufferPointer { values in
            types.withUnsafeBufferPointer { oids in
                guard let first = values.baseAddress, !values.isEmpty else {
                    return PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0)
                }
                return first.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: values.count) { pointer in
                    PQexecParams(handle, sql, Int32(values.count), oids.baseAddress, pointer, nil, nil, 0)
                }
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
            isConnectionLost: lost || (state?.hasPrefix("08") ?? false) || state == "57P01", constraint: constraint)
    }

    private func lastError(_ handle: OpaquePointer) -> PostgreSQLError {
        let lost = PQstatus(handle) != CONNECTION_OK
        return PostgreSQLError(
            message: Self.firstLine(String(cString: PQerrorMessage(handle))), sqlState: nil, isConnectionLost: lost)
    }

    static func firstLine(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.split(separator: "\n").first.map(String.init) ?? trimmed
    }

    // MARK: - Transactions

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func inTransaction<T>(_ isolation: String = "READ COMMITTED", _ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        try execute("BEGIN ISOLATION LEVEL \(isolation)")
        inTransaction = true
        do {
            let value = try body()
            try execute("COMMIT")
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

/// Quotes a PostgreSQL identifier: `title` → `"title"`, doubling embedded quotes.
package func pgIdentifier(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
#endif
