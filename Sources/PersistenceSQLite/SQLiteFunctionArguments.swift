import CSQLite

/// The arguments of one call of a function registered with
/// `Database.createPredicateFunction(_:argumentCount:_:)`, read in place: a text argument is
/// SQLite's own UTF-8 bytes, with no Swift `String` made for it.
///
/// Valid only during the call that receives it (SQLite owns the values): it is not
/// `Sendable`, and must not be kept past the call.
public struct SQLiteFunctionArguments {
    // MARK: - Reading arguments

    private let values: UnsafeMutablePointer<OpaquePointer?>?

    /// The number of arguments.
    public let count: Int

    init(_ values: UnsafeMutablePointer<OpaquePointer?>?, count: Int) {
        self.values = values
        self.count = count
    }

    /// Whether argument `index` is SQL NULL (an index out of range reads as NULL).
    public func isNull(_ index: Int) -> Bool {
        guard index >= 0, index < count, let values else { return true }
        return sqlite3_value_type(values[index]) == SQLITE_NULL
    }

    /// Calls `body` with argument `index` as UTF-8 text, in place
    /// ([`sqlite3_value_text`](https://sqlite.org/c3ref/value_blob.html)): a number as
    /// SQLite writes it in text, a blob's bytes as they are; nil for NULL (or an index out
    /// of range). The bytes are valid only inside `body`.
    public func withText<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        guard !isNull(index), let values, let text = sqlite3_value_text(values[index]) else { return try body(nil) }
        let count = Int(sqlite3_value_bytes(values[index]))
        return try body(UnsafeRawBufferPointer(start: text, count: count))
    }
}

@available(*, unavailable)
extension SQLiteFunctionArguments: Sendable {}
