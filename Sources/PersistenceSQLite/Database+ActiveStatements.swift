import CSQLite

extension Database {
    /// Whether any statement of this connection has started but not finished or been reset
    /// ([`sqlite3_stmt_busy`](https://sqlite.org/c3ref/stmt_busy.html)).
    ///
    /// Such a statement holds a read transaction open, even after `COMMIT`: in WAL mode the
    /// connection then reads an old snapshot, and its next `BEGIN IMMEDIATE` fails with
    /// `SQLITE_BUSY` at once, without waiting out the busy timeout, whenever another process
    /// has written meanwhile. The store resets every statement it steps; tests check this.
    package var hasActiveStatements: Bool {
        guard let handle = connection.handle else { return false }
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { return true }
            statement = sqlite3_next_stmt(handle, current)
        }
        return false
    }
}
