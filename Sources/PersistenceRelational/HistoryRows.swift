import Foundation
import PersistenceStore

/// A persistent history read back from a store's tables, row by row: its transactions in
/// order, then the changes of each, put together as `PersistentHistoryTransaction`s. The three
/// stores read their own tables with their own SQL (and their own timestamps' epoch); what
/// they make of the rows is this.
package struct HistoryRows {
    private struct Transaction {
        var number: Int64
        var timestamp: Date
        var author: String?
        var contextName: String?
    }

    private var transactions: [Transaction] = []
    private var changes: [Int64: [PersistentHistoryChange]] = [:]

    package init() {}

    /// The number of the last transaction read, nil before the first.
    package var lastTransactionNumber: Int64? { transactions.last?.number }

    /// Adds the next transaction, in the history's order.
    package mutating func addTransaction(number: Int64, timestamp: Date, author: String?, contextName: String?) {
        transactions.append(Transaction(number: number, timestamp: timestamp, author: author, contextName: contextName))
    }

    /// Adds the next change of transaction `number`, in the history's order.
    package mutating func add(_ change: PersistentHistoryChange, toTransaction number: Int64) {
        changes[number, default: []].append(change)
    }

    /// The transactions read, each with its changes, as recorded by the store `storeID`.
    package func history(storeID: String) -> [PersistentHistoryTransaction] {
        transactions.map { transaction in
            PersistentHistoryTransaction(
                transactionNumber: transaction.number, timestamp: transaction.timestamp, author: transaction.author,
                contextName: transaction.contextName, storeID: storeID, changes: changes[transaction.number] ?? [])
        }
    }
}
