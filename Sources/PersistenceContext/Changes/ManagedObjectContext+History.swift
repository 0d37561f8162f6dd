import Foundation
import PersistenceStore

/// Catching up with the persistent history: what other contexts and processes saved, read
/// from the store rather than announced (Core Data's `NSPersistentHistoryChangeRequest`
/// executed in a context, and `mergeChanges(fromContextDidSave:)` with a transaction's
/// `objectIDNotification()`).
///
/// ```swift
/// let transactions = try context.fetchHistory(after: lastToken)
/// context.mergeChanges(fromHistory: transactions.filter { $0.author != "importer" })
/// lastToken = transactions.last?.token ?? lastToken
/// ```
extension ManagedObjectContext {
    /// The transactions recorded in the store after `token` (every one for nil), oldest first.
    ///
    /// - Throws: as `PersistentStoreCoordinator.history(after:)`.
    public func fetchHistory(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        try checkQueue("fetch history")
        return try persistentStoreCoordinator.history(after: token)
    }

    /// At most `fetchLimit` transactions recorded after `token` (every one when it is 0),
    /// oldest first, with or without their changes as `resultType` says: Core Data's
    /// `NSPersistentHistoryChangeRequest` with its `fetchLimit` and `resultType`. A long
    /// history is read in pieces this way, so that no more of it is in memory at once than
    /// a caller asks for:
    ///
    /// ```swift
    /// let transactions = try context.fetchHistory(after: nil, resultType: .transactionsOnly, fetchLimit: 0)
    /// var previous: PersistentHistoryToken? = nil
    /// for transaction in transactions {
    ///     let changes = try context.fetchHistory(after: previous, resultType: .transactionsAndChanges, fetchLimit: 1)
    ///     …  // changes[0].changes: this transaction's only
    ///     previous = transaction.token
    /// }
    /// ```
    ///
    /// - Throws: as `PersistentStoreCoordinator.history(after:)`.
    public func fetchHistory(
        after token: PersistentHistoryToken?, resultType: PersistentHistoryResultType, fetchLimit: Int
    ) throws -> [PersistentHistoryTransaction] {
        try checkQueue("fetch history")
        return try persistentStoreCoordinator.history(after: token, resultType: resultType, fetchLimit: fetchLimit)
    }

    /// The transactions committed after `date`, oldest first.
    ///
    /// - Throws: as `PersistentStoreCoordinator.history(after:)`.
    public func fetchHistory(after date: Date) throws -> [PersistentHistoryTransaction] {
        try checkQueue("fetch history")
        return try persistentStoreCoordinator.history(after: date)
    }

    /// Deletes the history recorded before `token` (its own transaction is kept).
    ///
    /// - Throws: as `PersistentStoreCoordinator.deleteHistory(before:)`.
    public func deleteHistory(before token: PersistentHistoryToken) throws {
        try checkQueue("delete history")
        try persistentStoreCoordinator.deleteHistory(before: token)
    }

    /// Deletes the history committed before `date`.
    ///
    /// - Throws: as `PersistentStoreCoordinator.deleteHistory(before:)`.
    public func deleteHistory(before date: Date) throws {
        try checkQueue("delete history")
        try persistentStoreCoordinator.deleteHistory(before: date)
    }

    /// Brings the context's registered objects up to date with `transactions`, in order, as
    /// `mergeChanges(fromContextDidSave:)` does with each one's `contextDidSave`: objects
    /// they updated are read again (keeping unsaved changes on top), objects they deleted
    /// leave the context, and loaded to-manys are read again for their inserts.
    public func mergeChanges(fromHistory transactions: [PersistentHistoryTransaction]) {
        for transaction in transactions { mergeChanges(fromContextDidSave: transaction.contextDidSave) }
    }
}

extension PersistentHistoryTransaction {
    /// The transaction as a save's announcement, by object ID, for
    /// `mergeChanges(fromContextDidSave:)`: Core Data's `objectIDNotification()`.
    public var contextDidSave: ContextDidSave {
        var save = ContextDidSave(contextName: contextName)
        for change in changes {
            switch change.changeType {
            case .insert: save.insertedObjectIDs.insert(change.changedObjectID)
            case .update: save.updatedObjectIDs.insert(change.changedObjectID)
            case .delete: save.deletedObjectIDs.insert(change.changedObjectID)
            }
        }
        return save
    }
}
