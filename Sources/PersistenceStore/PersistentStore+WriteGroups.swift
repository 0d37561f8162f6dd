import Foundation

/// Why a store refused to group several writes into one transaction (see
/// `PersistentStore.performWriteGroup`).
public struct PersistentStoreWriteGroupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of store that refused (`CoreDataStore`).
    public var store: String

    public var description: String {
        "The \(store) cannot make several saves one transaction; nothing was written."
    }
}

// The defaults of the requirements a store may leave out: a store that cannot group writes
// refuses before anything is written, and a store that cannot read its history in pieces
// reads it whole and cuts it.
extension PersistentStore {
    package func performWriteGroup<T>(_ body: () throws -> T) throws -> T {
        throw PersistentStoreWriteGroupError(store: String(describing: type(of: self)))
    }

    package func history(after bound: PersistentHistoryBound, limit: Int?, includesChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        var transactions = try history(after: bound)
        if let limit { transactions = Array(transactions.prefix(max(0, limit))) }
        guard !includesChanges else { return transactions }
        return transactions.map { $0.withoutChanges }
    }
}

extension PersistentHistoryTransaction {
    /// The transaction with no changes: what a request for transactions only answers.
    package var withoutChanges: PersistentHistoryTransaction {
        PersistentHistoryTransaction(
            transactionNumber: transactionNumber, timestamp: timestamp, author: author, contextName: contextName,
            storeID: storeID, changes: [])
    }
}
