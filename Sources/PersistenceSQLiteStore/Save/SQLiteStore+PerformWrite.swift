import PersistenceModel
import PersistenceStore

extension SQLiteStore {
    /// Runs `body` in one write transaction, with the page cache raised for a large write
    /// (see `raisePageCache(forRows:)`); what `body` buffered is written before the commit,
    /// and, in a store that tracks history, the transaction's changes (see
    /// `SQLiteStore+History`).
    package func performWrite<T>(rowCount: Int, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let pageCache = try raisePageCache(forRows: rowCount)
        defer { restorePageCache(pageCache) }
        return try writeTransaction {
            // Another process may have started tracking since this connection opened.
            if !tracksHistory { tracksHistory = try storeTracksHistory() }
            let transaction = SQLiteStoreTransaction(store: self)
            let result = try body(transaction)
            try transaction.flush()
            if let history = transaction.history { try recordHistory(history) }
            return result
        }
    }
}

extension SQLiteStore {
    /// Runs `body` in one immediate transaction that every write of this connection joins
    /// as a savepoint (see `writeTransaction`), committed when `body` returns and rolled
    /// back, every write with it, when it throws. The history records each write as its
    /// own transaction, numbered and timed as it is made, all of them committed together.
    /// A group inside a group is a savepoint of the outer one.
    ///
    /// The group runs with the connection's temporary storage in a file (see
    /// `withTemporaryStorage(inFile:_:)`): each write of it is a savepoint, whose statement
    /// journal keeps every page the write changes. With `temp_store=MEMORY` that journal
    /// grew on the heap with each save of a large undo (8 MB of a 200,000-book redo's 47 MB
    /// heap); in a file SQLite keeps 64 KiB of it in memory and the rest in the kernel's
    /// page cache. What is written, and when it commits, does not change. The setting can
    /// change only outside a transaction, so a group inside another keeps the outer's.
    package func performWriteGroup<T>(_ body: () throws -> T) throws -> T {
        let outermost = writeGroupDepth == 0 && !database.isInTransaction
        return try withTemporaryStorage(inFile: outermost) {
            try writeTransaction {
                writeGroupDepth += 1
                defer { writeGroupDepth -= 1 }
                return try body()
            }
        }
    }
}
