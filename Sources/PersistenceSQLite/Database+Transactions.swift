import CSQLite

extension Database {
    /// How a transaction takes its locks: see
    /// [BEGIN TRANSACTION](https://sqlite.org/lang_transaction.html).
    public enum TransactionKind: Sendable {
        /// Locks are taken on first read and first write (`BEGIN DEFERRED`).
        case deferred
        /// The write lock is taken at once (`BEGIN IMMEDIATE`), so the transaction cannot
        /// fail later with `SQLITE_BUSY` when it first writes. Use it for read-modify-write.
        case immediate
        /// Like `immediate`; in WAL mode the same (`BEGIN EXCLUSIVE`).
        case exclusive

        fileprivate var beginSQL: String {
            switch self {
            case .deferred: return "BEGIN DEFERRED TRANSACTION"
            case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
            case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
            }
        }
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Transactions do not nest: inside a transaction use ``inSavepoint(_:)``.
    ///
    /// - Parameters:
    ///   - kind: How the transaction takes its locks.
    ///   - body: The work to do; its result is returned.
    /// - Throws: The error `body` threw (after rolling back), or ``SQLiteError`` when the
    ///   transaction cannot begin (`SQLITE_BUSY`, or already in a transaction) or commit (the
    ///   transaction is then rolled back).
    public func inTransaction<T>(
        _ kind: TransactionKind = .deferred, _ body: () throws -> T
    ) throws -> T {
        try runCached(kind.beginSQL)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try runCached("COMMIT TRANSACTION")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Runs `body` inside a [savepoint](https://sqlite.org/lang_savepoint.html): released when
    /// it returns, rolled back (then released) when it throws.
    ///
    /// Savepoints nest, and work inside or outside a transaction; outside one, the outermost
    /// savepoint acts as a deferred transaction. Rolling back a savepoint undoes only the
    /// changes made inside it: an enclosing transaction keeps its own.
    ///
    /// - Parameter body: The work to do; its result is returned.
    /// - Throws: The error `body` threw (after rolling back to the savepoint), or
    ///   ``SQLiteError`` when the savepoint cannot be created or released.
    public func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        let isOutermost = !isInTransaction
        try runCached("SAVEPOINT persistence_savepoint")
        let result: T
        do {
            result = try body()
        } catch {
            undoSavepoint(isOutermost: isOutermost)
            throw error
        }
        do {
            try runCached("RELEASE SAVEPOINT persistence_savepoint")
        } catch {
            undoSavepoint(isOutermost: isOutermost)
            throw error
        }
        return result
    }

    // MARK: - Internals

    /// Runs a parameterless statement from the cache.
    private func runCached(_ sql: String) throws {
        let statement = try cachedStatement(sql)
        while try statement.step() {}
        statement.reset()
    }

    /// Rolls back the open transaction, if any. SQLite may already have rolled it back
    /// (after `SQLITE_FULL`, `SQLITE_IOERR`, …); a failure here would hide the error being
    /// reported, so it is ignored.
    private func rollbackIfNeeded() {
        guard isInTransaction else { return }
        try? runCached("ROLLBACK TRANSACTION")
    }

    /// Undoes the innermost savepoint; errors are ignored as in ``rollbackIfNeeded()``.
    private func undoSavepoint(isOutermost: Bool) {
        guard isInTransaction else { return }
        try? runCached("ROLLBACK TRANSACTION TO SAVEPOINT persistence_savepoint")
        try? runCached("RELEASE SAVEPOINT persistence_savepoint")
        if isOutermost { rollbackIfNeeded() }
    }
}
