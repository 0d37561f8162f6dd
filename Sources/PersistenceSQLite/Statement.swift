import CSQLite
import Foundation

/// SQLite's `SQLITE_TRANSIENT` destructor: SQLite copies the bound bytes before the call
/// returns. The C macro is not imported into Swift.
///
/// An unsafe cast, argued: the C header defines it as `((sqlite3_destructor_type)-1)`, a
/// function pointer whose bits are all ones, which SQLite compares against and never calls.
/// A Swift `@convention(c)` function type is one pointer wide, as is `Int`, so the cast gives
/// exactly those bits (it is the idiom every Swift SQLite wrapper uses). Every bind of text
/// or a blob passes it, so every test that stores a string covers it, under AddressSanitizer
/// in CI too.
///
/// See [`sqlite3_bind_blob`](https://sqlite.org/c3ref/bind_blob.html).
var SQLITE_TRANSIENT: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A prepared SQL statement: [`sqlite3_stmt`](https://sqlite.org/c3ref/stmt.html).
///
/// Get one from ``Database/prepare(_:)`` (the caller owns it) or
/// ``Database/cachedStatement(_:)`` (the database owns it and reuses it). Bind arguments with
/// the 1-based `bind` methods, call ``step()`` until it returns `false`, and read the current
/// row's columns with the 0-based accessors.
///
/// ```swift
/// let insert = try db.cachedStatement("INSERT INTO Book(title, pages) VALUES (?, ?)")
/// try insert.bind("Cien años de soledad", at: 1)
/// try insert.bind(417, at: 2)
/// _ = try insert.step()
/// ```
///
/// A statement belongs to one connection and is not `Sendable`. It is finalized when released;
/// once its ``Database`` is closed it can no longer step.
public final class Statement {
    /// The SQL text the statement was prepared from.
    public let sql: String

    /// The prepared statement, or `nil` once finalized. Usable from inlinable code so that
    /// the column accessors a store reads every row with are inlined into it.
    ///
    /// Read once per column of every row, so the run-time exclusivity check of each read (a
    /// thread-local access set) is off: the only write is `finalize()`'s, and no access spans
    /// a call out (each read passes the pointer to one SQLite function), so none can overlap.
    @exclusivity(unchecked) @usableFromInline private(set) var handle: OpaquePointer?
    /// The connection, kept alive while the statement lives.
    let connection: SQLiteConnection

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        // sqlite3_finalize(NULL) is a harmless no-op.
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds a value to the parameter at `index` (1-based).
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when the index is out of range.
    public func bind(_ value: SQLiteValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let data): try bind(data, at: index)
        }
    }

    /// Binds an integer ([`sqlite3_bind_int64`](https://sqlite.org/c3ref/bind_blob.html)).
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    public func bind(_ value: Int64, at index: Int32) throws {
        let resultCode = sqlite3_bind_int64(handle, index, value)
        if resultCode != SQLITE_OK { try fail(resultCode, binding: true) }
    }

    /// Binds an `Int` as a 64-bit integer; also what an integer literal binds as.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    public func bind(_ value: Int, at index: Int32) throws {
        try bind(Int64(value), at: index)
    }

    /// Binds a double ([`sqlite3_bind_double`](https://sqlite.org/c3ref/bind_blob.html)).
    ///
    /// - Important: SQLite has no NaN: a bound `Double.nan` is stored and read back as NULL.
    ///   Infinities are kept. Callers that must tell NaN apart from "no value" store it
    ///   some other way.
    /// - Throws: ``SQLiteError`` when the index is out of range.
    public func bind(_ value: Double, at index: Int32) throws {
        let resultCode = sqlite3_bind_double(handle, index, value)
        if resultCode != SQLITE_OK { try fail(resultCode, binding: true) }
    }

    /// Binds text as UTF-8 with its explicit length, so embedded NUL characters are kept
    /// ([`sqlite3_bind_text64`](https://sqlite.org/c3ref/bind_blob.html)). The empty string is
    /// bound as empty text, not NULL.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range or the text is too big.
    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let resultCode = value.withUTF8 { bytes -> Int32 in
            guard let start = bytes.baseAddress, bytes.count > 0 else {
                // A NULL pointer would bind SQL NULL.
                return sqlite3_bind_text64(
                    handle, index, "", 0, SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(
                    handle, index, $0, UInt64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            }
        }
        if resultCode != SQLITE_OK { try fail(resultCode, binding: true) }
    }

    /// Binds bytes as a blob ([`sqlite3_bind_blob64`](https://sqlite.org/c3ref/bind_blob.html)).
    /// Empty data is bound as a zero-length blob, not NULL.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range or the blob is too big.
    public func bind(_ value: Data, at index: Int32) throws {
        let resultCode = value.withUnsafeBytes { bytes -> Int32 in
            guard let start = bytes.baseAddress, bytes.count > 0 else {
                // sqlite3_bind_blob with a NULL pointer would bind SQL NULL.
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(handle, index, start, UInt64(bytes.count), SQLITE_TRANSIENT)
        }
        if resultCode != SQLITE_OK { try fail(resultCode, binding: true) }
    }

    /// Binds SQL NULL ([`sqlite3_bind_null`](https://sqlite.org/c3ref/bind_blob.html)).
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    public func bindNull(at index: Int32) throws {
        let resultCode = sqlite3_bind_null(handle, index)
        if resultCode != SQLITE_OK { try fail(resultCode, binding: true) }
    }

    /// Binds a value to a named parameter: `":name"`, `"@name"` or `"$name"`.
    ///
    /// A name given without its prefix (`"name"`) is looked up with `:`, `@` and `$` in turn.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when the statement has no such parameter.
    public func bind(_ value: SQLiteValue, forName name: String) throws {
        guard let index = parameterIndex(named: name) else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE, message: "the statement has no parameter named \(name)",
                sql: sql, path: connection.path)
        }
        try bind(value, at: index)
    }

    /// Binds all parameters at once, in order: `values[0]` to parameter 1, and so on.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_RANGE`) when the number of values differs from
    ///   ``parameterCount``.
    public func bind(_ values: [SQLiteValue]) throws {
        let expected = parameterCount
        guard values.count == Int(expected) else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message:
                    "the statement takes \(expected) argument(s) but \(values.count) were given",
                sql: sql, path: connection.path)
        }
        var index: Int32 = 1
        for value in values {
            try bind(value, at: index)
            index += 1
        }
    }

    /// The index of a named parameter, or `nil` when there is none
    /// ([`sqlite3_bind_parameter_index`](https://sqlite.org/c3ref/bind_parameter_index.html)).
    ///
    /// Resolve names once and bind by index in loops.
    public func parameterIndex(named name: String) -> Int32? {
        let index = sqlite3_bind_parameter_index(handle, name)
        if index > 0 { return index }
        if let first = name.first, first != ":", first != "@", first != "$" {
            for prefix in [":", "@", "$"] {
                let prefixed = sqlite3_bind_parameter_index(handle, prefix + name)
                if prefixed > 0 { return prefixed }
            }
        }
        return nil
    }

    /// The largest parameter index
    /// ([`sqlite3_bind_parameter_count`](https://sqlite.org/c3ref/bind_parameter_count.html)).
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: - Execution

    /// Evaluates the statement up to its next row ([`sqlite3_step`](https://sqlite.org/c3ref/step.html)).
    ///
    /// - Returns: `true` when a row is available for the column accessors, `false` when the
    ///   statement has run to completion.
    /// - Throws: ``SQLiteError`` with SQLite's extended code (a constraint failure, a busy
    ///   database, …), or when the statement's database was closed.
    public func step() throws -> Bool {
        guard connection.isOpen else { throw connection.closedError(sql: sql) }
        let resultCode = sqlite3_step(handle)
        if resultCode == SQLITE_ROW { return true }
        if resultCode == SQLITE_DONE { return false }
        try fail(resultCode)
    }

    /// Resets the statement so that it can run again; bindings are kept
    /// ([`sqlite3_reset`](https://sqlite.org/c3ref/reset.html)).
    ///
    /// The error of a failed step was already thrown by ``step()`` and is not repeated here.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL
    /// ([`sqlite3_clear_bindings`](https://sqlite.org/c3ref/clear_bindings.html)).
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement, binds `arguments` (when not empty), steps it to completion,
    /// discarding any rows, and resets it again so that it is ready for new bindings.
    ///
    /// With no arguments the current bindings are kept, so `bind(_:at:)` then `run()` works.
    ///
    /// - Throws: ``SQLiteError`` from binding or stepping.
    public func run(_ arguments: [SQLiteValue] = []) throws {
        sqlite3_reset(handle)
        if !arguments.isEmpty { try bind(arguments) }
        while try step() {}
        sqlite3_reset(handle)
    }

    // MARK: - Internals

    /// Finalizes the statement now ([`sqlite3_finalize`](https://sqlite.org/c3ref/finalize.html));
    /// later calls fail with a misuse error.
    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Throws the error for a failing result code of this statement.
    ///
    /// - Parameter binding: Whether a bind failed, where `SQLITE_MISUSE` means the statement
    ///   was stepped and not reset.
    private func fail(_ resultCode: Int32, binding: Bool = false) throws -> Never {
        var message: String? = nil
        if handle == nil {
            message = "the statement was finalized because its database was closed"
        } else if binding && resultCode == SQLITE_MISUSE {
            message = "cannot bind a statement that has been stepped; call reset() first"
        }
        try connection.raise(resultCode, sql: sql, message: message)
    }
}

@available(*, unavailable, message: "a Statement belongs to one connection and one thread")
extension Statement: Sendable {}
