import Foundation
import Persistence

/// The catalogue's persistent history read in pieces, for `books undo` and `books redo`: the
/// transactions alone (number, time, author, context name) at once, and one transaction's
/// changes when asked. A command that changed 200,000 books then never has more than one of
/// its transactions' changes in memory, where reading the whole history would hold every
/// change of every command (see `PersistentHistoryResultType.transactionsOnly`).
struct HistoryReader {
    let context: ManagedObjectContext
    /// Every transaction of the history, oldest first, without its changes.
    let transactions: [PersistentHistoryTransaction]
    /// The token of the transaction before each one (none for the first): where a fetch of
    /// that one transaction starts.
    private let previousTokens: [Int64: PersistentHistoryToken]

    /// Reads the transactions of the history; nil for a catalogue that has never tracked it.
    ///
    /// - Throws: a store error when the history cannot be read.
    init?(context: ManagedObjectContext) throws {
        self.context = context
        do {
            transactions = try context.fetchHistory(
                after: nil as PersistentHistoryToken?, resultType: .transactionsOnly, fetchLimit: 0)
        } catch PersistentHistoryError.notTracked {
            return nil
        }
        var previous: [Int64: PersistentHistoryToken] = [:]
        for (before, transaction) in zip(transactions, transactions.dropFirst()) {
            previous[transaction.transactionNumber] = before.token
        }
        previousTokens = previous
    }

    /// The changes of one transaction of `transactions`, in the order it wrote them.
    ///
    /// - Throws: a store error when the history cannot be read.
    func changes(of transaction: PersistentHistoryTransaction) throws -> [PersistentHistoryChange] {
        let fetched = try context.fetchHistory(
            after: previousTokens[transaction.transactionNumber], resultType: .transactionsAndChanges, fetchLimit: 1)
        guard let read = fetched.first, read.transactionNumber == transaction.transactionNumber else { return [] }
        return read.changes
    }
}
