import Foundation

/// Where a history request starts or ends, as a store receives it: Core Data's
/// `NSPersistentHistoryChangeRequest` is made with a token or a date.
package enum PersistentHistoryBound: Sendable {
    /// A place in the history; nil is before the first transaction.
    case token(PersistentHistoryToken?)
    /// A moment: transactions committed after it (for a fetch) or before it (for a delete).
    case date(Date)

    /// The number of the last transaction before the place `token` names in the store
    /// `identifier` (0 for nil: before the first), so that every store refuses the same
    /// tokens alike.
    ///
    /// - Throws: `PersistentHistoryError.tokenFromAnotherStore`, or `.tokenFromTheFuture` for
    ///   a number past `lastTransaction()`, the last the store numbered (deleted or not).
    package static func transactionNumber(
        of token: PersistentHistoryToken?, store identifier: String, lastTransaction: () throws -> Int64
    ) throws -> Int64 {
        guard let token else { return 0 }
        guard token.storeIdentifier == identifier else {
            throw PersistentHistoryError.tokenFromAnotherStore(tokenStore: token.storeIdentifier, store: identifier)
        }
        let last = try lastTransaction()
        guard token.transactionNumber >= 0, token.transactionNumber <= last else {
            throw PersistentHistoryError.tokenFromTheFuture(transactionNumber: token.transactionNumber, lastTransaction: last)
        }
        return token.transactionNumber
    }

    /// Refuses a date in the future: no transaction can follow it yet.
    package static func check(_ date: Date) throws {
        guard date <= Date() else { throw PersistentHistoryError.dateInTheFuture(date) }
    }

    /// The number of the transaction after which a fetch of the history after this bound
    /// starts.
    ///
    /// - Parameters:
    ///   - identifier: The store's identifier, which a token must name.
    ///   - lastTransaction: The number of the last transaction the store numbered.
    ///   - deletedThrough: The last transaction whose history was deleted, and its time.
    ///   - lastTransactionAtOrBefore: The last transaction committed at or before a date.
    /// - Throws: as `transactionNumber(of:store:lastTransaction:)` and `check(_:)`, and
    ///   `PersistentHistoryError.expired` for a place whose following history was deleted
    ///   (nil asks for all there is, however much was deleted).
    package func firstTransactionNumber(
        store identifier: String, lastTransaction: () throws -> Int64, deletedThrough: (number: Int64, date: Date)?,
        lastTransactionAtOrBefore: (Date) throws -> Int64?
    ) throws -> Int64 {
        switch self {
        case .token(let token):
            let number = try Self.transactionNumber(of: token, store: identifier, lastTransaction: lastTransaction)
            if let deletedThrough, token != nil, number < deletedThrough.number {
                throw PersistentHistoryError.expired(deletedThrough: deletedThrough.number)
            }
            return number
        case .date(let date):
            try Self.check(date)
            if let deletedThrough, date < deletedThrough.date {
                throw PersistentHistoryError.expired(deletedThrough: deletedThrough.number)
            }
            // Transactions are numbered in time order.
            return try lastTransactionAtOrBefore(date) ?? deletedThrough?.number ?? 0
        }
    }
}
