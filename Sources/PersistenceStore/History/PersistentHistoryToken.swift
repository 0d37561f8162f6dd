import Foundation

/// A place in a store's persistent history: Core Data's `NSPersistentHistoryToken`.
///
/// Every transaction of the history carries the token that follows it; an app keeps the
/// token of the last transaction it processed (it is `Codable`, so it can be written to a
/// file or to the store's metadata) and later asks for the history after it
/// (`PersistentStoreCoordinator.history(after:)`). A token belongs to one store: asking
/// another store for the history after it throws `PersistentHistoryError.tokenFromAnotherStore`.
///
/// Tokens of one store are ordered as their transactions were committed. Tokens of two
/// stores are ordered by store identifier first, which means nothing but keeps the order
/// total.
public struct PersistentHistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The identifier of the store whose history the token is a place in.
    package let storeIdentifier: String
    /// The number of the last transaction before the place (0: before the first).
    package let transactionNumber: Int64

    package init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    /// `PersistentHistoryToken(<store>, 12)`.
    public var description: String { "PersistentHistoryToken(\(storeIdentifier), \(transactionNumber))" }
}
