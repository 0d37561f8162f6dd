import CSQLite
import Foundation

extension Database {
    /// Registers a Swift function callable from SQL
    /// ([`sqlite3_create_function_v2`](https://sqlite.org/c3ref/create_function.html)).
    ///
    /// ```swift
    /// try db.createFunction("rev", argumentCount: 1) { arguments in
    ///     .text(String((arguments[0].stringValue ?? "").reversed()))
    /// }
    /// try db.scalar("SELECT rev('abc')")  // .text("cba")
    /// ```
    ///
    /// An error thrown by `body` makes the SQL statement fail with an ``SQLiteError`` whose
    /// message is the error's description.
    ///
    /// - Parameters:
    ///   - name: The SQL name. Registering the same name and argument count again replaces it.
    ///   - argumentCount: The number of arguments, or -1 for any number.
    ///   - deterministic: Whether the result depends only on the arguments, which lets SQLite
    ///     use the function in indexes and factor calls out of loops.
    ///   - body: Computes the result from the arguments.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration (a bad name or count).
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping ([SQLiteValue]) throws -> SQLiteValue
    ) throws {
        let handle = try connection.openHandle()
        var flags = SQLITE_UTF8
        if deterministic { flags |= SQLITE_DETERMINISTIC }
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        // SQLite releases the box through xDestroy, even when the registration fails.
        let resultCode = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, argumentCount, arguments in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                let box = Unmanaged<FunctionBox>.fromOpaque(userData).takeUnretainedValue()
                var values = [SQLiteValue]()
                values.reserveCapacity(Int(argumentCount))
                for index in 0..<Int(argumentCount) {
                    values.append(SQLiteValue(sqliteValue: arguments?[index]))
                }
                do {
                    try box.body(values).setResult(of: context)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            nil, nil,
            { userData in
                guard let userData else { return }
                Unmanaged<FunctionBox>.fromOpaque(userData).release()
            })
        if resultCode != SQLITE_OK { try connection.raise(resultCode, sql: nil) }
    }

    /// Registers a Swift function of SQL returning true (1), false (0) or NULL, whose body
    /// reads its arguments in place (`SQLiteFunctionArguments`): no `SQLiteValue`, `String`
    /// or array is made per call, so a function called for every row of a large table (a
    /// text match in a `WHERE`) costs only what its body does
    /// ([`sqlite3_create_function_v2`](https://sqlite.org/c3ref/create_function.html)).
    ///
    /// - Parameters:
    ///   - name: The SQL name. Registering the same name and argument count again replaces it.
    ///   - argumentCount: The number of arguments, or -1 for any number.
    ///   - body: The result from the arguments: true, false, or nil for NULL.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration (a bad name or count).
    public func createPredicateFunction(
        _ name: String, argumentCount: Int32, _ body: @escaping (SQLiteFunctionArguments) -> Bool?
    ) throws {
        try createInPlaceFunction(name, argumentCount: argumentCount) { context, arguments in
            if let result = body(arguments) { sqlite3_result_int(context, result ? 1 : 0) } else { sqlite3_result_null(context) }
        }
    }

    /// Registers a Swift function of SQL returning an integer or NULL, whose body reads its
    /// arguments in place (`SQLiteFunctionArguments`), as
    /// ``createPredicateFunction(_:argumentCount:_:)`` does: for a value computed for every
    /// row a statement sorts (a search's rank in an `ORDER BY`), no `SQLiteValue` or array of
    /// them is made per call
    /// ([`sqlite3_create_function_v2`](https://sqlite.org/c3ref/create_function.html)).
    ///
    /// - Parameters:
    ///   - name: The SQL name. Registering the same name and argument count again replaces it.
    ///   - argumentCount: The number of arguments, or -1 for any number.
    ///   - body: The result from the arguments: an integer, or nil for NULL. It is called on
    ///     the connection's thread only, one call at a time.
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration (a bad name or count).
    public func createIntegerFunction(
        _ name: String, argumentCount: Int32, _ body: @escaping (SQLiteFunctionArguments) -> Int64?
    ) throws {
        try createInPlaceFunction(name, argumentCount: argumentCount) { context, arguments in
            if let result = body(arguments) { sqlite3_result_int64(context, result) } else { sqlite3_result_null(context) }
        }
    }

    /// Registers a deterministic function whose `body` reads its arguments in place and sets
    /// the result on SQLite's context itself: the one registration of the two above.
    private func createInPlaceFunction(
        _ name: String, argumentCount: Int32, _ body: @escaping (OpaquePointer, SQLiteFunctionArguments) -> Void
    ) throws {
        let handle = try connection.openHandle()
        let box = Unmanaged.passRetained(InPlaceFunctionBox(body)).toOpaque()
        // SQLite releases the box through xDestroy, even when the registration fails.
        let resultCode = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, argumentCount, arguments in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                // Called once a row: the box, which SQLite keeps alive until it calls the
                // destructor below, is used without a retain.
                Unmanaged<InPlaceFunctionBox>.fromOpaque(userData)._withUnsafeGuaranteedRef { box in
                    box.body(context, SQLiteFunctionArguments(arguments, count: Int(argumentCount)))
                }
            },
            nil, nil,
            { userData in
                guard let userData else { return }
                Unmanaged<InPlaceFunctionBox>.fromOpaque(userData).release()
            })
        if resultCode != SQLITE_OK { try connection.raise(resultCode, sql: nil) }
    }

    /// Registers a Swift collation usable in `COLLATE name`, indexes and `ORDER BY`
    /// ([`sqlite3_create_collation_v2`](https://sqlite.org/c3ref/create_collation.html)).
    ///
    /// `compare` receives the two texts' raw UTF-8 bytes in place (no copy, no NUL
    /// terminator) and returns a negative number, zero or a positive number. It must be a
    /// consistent total order.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func createCollation(
        _ name: String,
        _ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32
    ) throws {
        let handle = try connection.openHandle()
        let box = Unmanaged.passRetained(CollationBox(compare))
        let resultCode = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box.toOpaque(),
            { userData, leftCount, left, rightCount, right in
                guard let userData else { return 0 }
                // Called for every comparison a sort or filter makes: the box, which SQLite
                // keeps alive until it calls the destructor below, is used without a retain.
                return Unmanaged<CollationBox>.fromOpaque(userData)._withUnsafeGuaranteedRef { box in
                    box.compare(
                        UnsafeRawBufferPointer(start: left, count: left == nil ? 0 : Int(leftCount)),
                        UnsafeRawBufferPointer(start: right, count: right == nil ? 0 : Int(rightCount)))
                }
            },
            { userData in
                guard let userData else { return }
                Unmanaged<CollationBox>.fromOpaque(userData).release()
            })
        if resultCode != SQLITE_OK {
            // Unlike functions, SQLite does not call xDestroy when this registration fails.
            box.release()
            try connection.raise(resultCode, sql: nil)
        }
    }
}

// MARK: - Internals

/// Keeps a Swift function alive while SQLite holds it.
private final class FunctionBox {
    let body: ([SQLiteValue]) throws -> SQLiteValue
    init(_ body: @escaping ([SQLiteValue]) throws -> SQLiteValue) { self.body = body }
}

/// Keeps a Swift function reading its arguments in place alive while SQLite holds it.
private final class InPlaceFunctionBox {
    let body: (OpaquePointer, SQLiteFunctionArguments) -> Void
    init(_ body: @escaping (OpaquePointer, SQLiteFunctionArguments) -> Void) { self.body = body }
}

/// Keeps a Swift collation alive while SQLite holds it.
private final class CollationBox {
    package let compare: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32
    init(_ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32) {
        self.compare = compare
    }
}

extension SQLiteValue {
    /// Reads a function argument ([`sqlite3_value_*`](https://sqlite.org/c3ref/value_blob.html)).
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { self = .text(""); return }
            let count = Int(sqlite3_value_bytes(value))
            self = .text(
                String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_value_blob(value) else { self = .blob(Data()); return }
            self = .blob(Data(bytes: blob, count: Int(sqlite3_value_bytes(value))))
        default:
            self = .null
        }
    }

    /// Sets a function's result ([`sqlite3_result_*`](https://sqlite.org/c3ref/result_blob.html)).
    func setResult(of context: OpaquePointer) {
        switch self {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { bytes in
                guard let start = bytes.baseAddress, bytes.count > 0 else {
                    sqlite3_result_text64(context, "", 0, SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
                    return
                }
                start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_result_text64(
                        context, $0, UInt64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress, bytes.count > 0 else {
                    sqlite3_result_zeroblob(context, 0)
                    return
                }
                sqlite3_result_blob64(context, start, UInt64(bytes.count), SQLITE_TRANSIENT)
            }
        }
    }
}
