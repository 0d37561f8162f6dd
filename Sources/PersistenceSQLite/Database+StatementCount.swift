import CSQLite
import Foundation

extension Database {
    /// Runs `body` and returns, with its result, how many SQL statements SQLite started
    /// meanwhile on this connection (each run of a statement counts once, however many rows
    /// it steps through; a trigger's statements are not counted)
    /// ([`sqlite3_trace_v2`](https://sqlite.org/c3ref/trace_v2.html) with
    /// `SQLITE_TRACE_STMT`).
    ///
    /// For tests and diagnostics that check a write is batched (a save deleting thousands of
    /// rows reads and writes them in a few statements, not one a row). Any trace callback set
    /// before is replaced for the call and removed after it.
    ///
    /// - Throws: what `body` throws; ``SQLiteError`` when the connection is closed.
    package func countingStatements<T>(_ body: () throws -> T) throws -> (result: T, statements: Int) {
        let handle = try connection.openHandle()
        let counter = StatementCounter()
        let box = Unmanaged.passRetained(counter)
        defer {
            sqlite3_trace_v2(handle, 0, nil, nil)
            box.release()
        }
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context else { return 0 }
                // A trigger's statements are traced as comments ("-- TRIGGER name").
                if let text {
                    let sql = text.assumingMemoryBound(to: CChar.self)
                    if sql[0] == 45, sql[1] == 45 { return 0 }
                }
                Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue().count += 1
                return 0
            },
            box.toOpaque())
        let result = try body()
        return (result, counter.count)
    }
}

/// The count `countingStatements(_:)` keeps while its trace callback runs.
private final class StatementCounter {
    var count = 0
}
