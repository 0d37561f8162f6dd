import Foundation

/// One save (or batch insert) as the persistent history recorded it, in the same database
/// transaction as its writes: Core Data's `NSPersistentHistoryTransaction`.
///
/// A store keeps a history only when opened with history tracking on (see
/// `PersistentContainer(model:storeURL:classes:readOnly:tracksPersistentHistory:)`).
public struct PersistentHistoryTransaction: Sendable, Equatable {
    /// The transaction's number in the store, increasing with each transaction.
    public let transactionNumber: Int64
    /// When the transaction was committed.
    public let timestamp: Date
    /// The saving context's `transactionAuthor`, if it had one.
    public let author: String?
    /// The saving context's `name`, if it had one.
    public let contextName: String?
    /// The identifier of the store the transaction was recorded in.
    public let storeID: String
    /// The place in the history just after this transaction: the history after it begins
    /// with the next one.
    public let token: PersistentHistoryToken
    /// What the transaction did, object by object, in the order it wrote them.
    public let changes: [PersistentHistoryChange]

    package init(
        transactionNumber: Int64, timestamp: Date, author: String?, contextName: String?, storeID: String,
        changes: [PersistentHistoryChange]
    ) {
        self.transactionNumber = transactionNumber
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.storeID = storeID
        self.token = PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: transactionNumber)
        self.changes = changes
    }
}
