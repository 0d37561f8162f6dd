import CSQLite
import Foundation

/// One column of a statement's current row, found once and then asked for its storage class
/// and its value ([`sqlite3_column_value`](https://sqlite.org/c3ref/column_blob.html) and
/// the [`sqlite3_value_*`](https://sqlite.org/c3ref/value_blob.html) functions).
///
/// Why: each `sqlite3_column_*` call finds the column again (a range check, the connection's
/// mutex and error state). A row reader asks every column its class and then its value, for
/// every row; reading both through one `sqlite3_value` finds the column once.
///
/// Valid only until the statement steps, resets or is finalized, and only on the statement's
/// thread. SQLite calls the value *unprotected*: no mutex is held for it. That distinction
/// does not exist on a connection without mutexes, and every ``Database`` connection is
/// opened with `SQLITE_OPEN_NOMUTEX` (see <https://sqlite.org/c3ref/value.html>).
///
/// As with the column accessors, reading a value as another type converts it in place:
/// ask for ``storageClass`` first.
public struct ColumnValue {
    @usableFromInline let handle: OpaquePointer

    @inlinable init(_ handle: OpaquePointer) { self.handle = handle }

    /// The value's storage class.
    @inlinable public var storageClass: SQLiteStorageClass {
        switch sqlite3_value_type(handle) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// The value as an integer, converted as `sqlite3_column_int64` converts it.
    @inlinable public var int64: Int64 { sqlite3_value_int64(handle) }

    /// The value as a double, converted as `sqlite3_column_double` converts it.
    @inlinable public var double: Double { sqlite3_value_double(handle) }

    /// Calls `body` with the value's UTF-8 bytes in place (no terminating NUL, no copy, no
    /// validation); NULL gives an empty buffer. The buffer is valid only inside `body`.
    @inlinable
    public func withText<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let start = sqlite3_value_text(handle)
        let count = Int(sqlite3_value_bytes(handle))
        return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count))
    }

    /// Calls `body` with the value's bytes in place; NULL and the empty blob give an empty
    /// buffer. The buffer is valid only inside `body`.
    @inlinable
    public func withBlob<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let start = sqlite3_value_blob(handle)
        let count = Int(sqlite3_value_bytes(handle))
        return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count))
    }

    /// The value's bytes, copied. NULL and the empty blob both read as empty `Data`.
    public var data: Data { withBlob { Data($0) } }

    /// The value as an ``SQLiteValue`` of its storage class (see ``Statement/value(at:)``).
    public var value: SQLiteValue {
        switch storageClass {
        case .integer: return .integer(int64)
        case .real: return .real(double)
        case .text: return .text(withText { String(decoding: $0, as: UTF8.self) })
        case .blob: return .blob(data)
        case .null: return .null
        }
    }
}

extension Statement {
    /// The column at `index` of the current row (0-based; call only after ``step()`` returned
    /// `true`), valid until the statement steps or resets.
    @inlinable
    public func column(at index: Int32) -> ColumnValue {
        // SQLite answers every index (a NULL value past the last column), never a null pointer.
        ColumnValue(sqlite3_column_value(handle, index)!)
    }
}
