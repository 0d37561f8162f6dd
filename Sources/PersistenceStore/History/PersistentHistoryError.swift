import Foundation

/// A history request that cannot be answered truthfully: rather than an empty answer that
/// would read as "nothing changed", the request throws.
public enum PersistentHistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store does not track its history: it was never opened with history tracking on.
    case notTracked(path: String?)
    /// The token is a place in another store's history.
    case tokenFromAnotherStore(tokenStore: String, store: String)
    /// The token is past the store's last transaction: it was not made by this store as
    /// it is now (a store file replaced by an older copy, or a token made up).
    case tokenFromTheFuture(transactionNumber: Int64, lastTransaction: Int64)
    /// The date is later than now: no transaction can follow it yet.
    case dateInTheFuture(Date)
    /// The history after this place was partly deleted (`deleteHistory(before:)`), so the
    /// changes since it cannot all be told: Core Data's `NSPersistentHistoryTokenExpiredError`.
    /// Fetch the objects again, then continue from `currentPersistentHistoryToken()`.
    case expired(deletedThrough: Int64)

    /// Core Data's error code: `NSPersistentHistoryTokenExpiredError` (134301) for an
    /// expired token, else its general `NSCoreDataError` (134060).
    public var code: Int {
        if case .expired = self { return 134_301 }
        return 134_060
    }

    public var description: String {
        switch self {
        case .notTracked(let path):
            return "The store\(path.map { " at \($0)" } ?? "") does not track its history: open it with "
                + "persistent history tracking on"
        case .tokenFromAnotherStore(let tokenStore, let store):
            return "The history token belongs to store \(tokenStore), not to this store (\(store))"
        case .tokenFromTheFuture(let number, let last):
            return "The history token names transaction \(number), but the store's last transaction is \(last): "
                + "the token was not made by this store as it is now"
        case .dateInTheFuture(let date):
            return "The history date \(date.formatted(.iso8601)) is in the future"
        case .expired(let deletedThrough):
            return "The history token has expired: history through transaction \(deletedThrough) was deleted, "
                + "so the changes since the token cannot all be told; fetch again and continue from the current token"
        }
    }
}
