import CSQLite
import Foundation

/// Reading the current row. Column indexes are 0-based; call these only after ``step()``
/// returned `true`. Accessors convert as SQLite does
/// ([`sqlite3_column_*`](https://sqlite.org/c3ref/column_blob.html)): `int64(at:)` of a
/// NULL is 0, `string(at:)` of a NULL is `""`. Use ``value(at:)`` or ``isNull(at:)`` to tell
/// NULL apart.
extension Statement {
    /// The number of columns in a result row
    /// ([`sqlite3_column_count`](https://sqlite.org/c3ref/column_count.html)).
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of a result column: its `AS` alias, else SQLite's choice
    /// ([`sqlite3_column_name`](https://sqlite.org/c3ref/column_name.html)).
    public func columnName(_ index: Int32) -> String {
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// The storage class of the column's value in the current row
    /// ([`sqlite3_column_type`](https://sqlite.org/c3ref/column_blob.html)): what a reader
    /// checks before it reads a column as the type it expects.
    @inlinable
    public func storageClass(at index: Int32) -> SQLiteStorageClass {
        column(at: index).storageClass
    }

    /// Whether the column of the current row is NULL.
    @inlinable
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The column as an integer; NULL reads as 0, text and reals are converted by SQLite.
    @inlinable
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The column as a double; NULL reads as 0.0, integers and text are converted by SQLite.
    @inlinable
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The column as text, decoded from its UTF-8 bytes with their explicit length, so
    /// embedded NUL characters are kept. NULL reads as `""`; invalid UTF-8 is repaired with
    /// U+FFFD.
    @inlinable
    public func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as bytes (copied). NULL and the empty blob both read as empty `Data`; use
    /// ``value(at:)`` to tell them apart.
    public func data(at index: Int32) -> Data {
        guard let blob = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: blob, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// The column as an ``SQLiteValue`` of its storage class
    /// ([`sqlite3_column_type`](https://sqlite.org/c3ref/column_blob.html)).
    ///
    /// A zero-length blob reads as `.blob(Data())`, never `.null`.
    public func value(at index: Int32) -> SQLiteValue {
        column(at: index).value
    }

    /// The values of every column of the current row.
    public func row() -> [SQLiteValue] {
        let count = columnCount
        var values = [SQLiteValue]()
        values.reserveCapacity(Int(count))
        for index in 0..<count { values.append(value(at: index)) }
        return values
    }

    /// Calls `body` with the column's bytes in place, without copying.
    ///
    /// The buffer is valid only inside `body` and only until the statement steps, resets or
    /// reads the column as another type. NULL and the empty blob give an empty buffer.
    public func withBlob<T>(
        at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T
    ) rethrows -> T {
        let start = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count))
    }

    /// Calls `body` with the column's raw UTF-8 bytes in place (no terminating NUL, no
    /// copy, no validation).
    ///
    /// The buffer is valid only inside `body` and only until the statement steps, resets or
    /// reads the column as another type. NULL gives an empty buffer.
    @inlinable
    public func withText<T>(
        at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T
    ) rethrows -> T {
        let start = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count))
    }
}
