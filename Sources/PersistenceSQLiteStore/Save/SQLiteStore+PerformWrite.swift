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
