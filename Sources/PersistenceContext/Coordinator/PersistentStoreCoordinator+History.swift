import Foundation
import PersistenceStore

/// Reading and trimming the persistent history of the coordinator's store: Core Data's
/// `NSPersistentHistoryChangeRequest` (`fetchHistory(after:)`, `deleteHistory(before:)`) and
/// `currentPersistentHistoryToken(fromStores:)`.
///
/// A store records history when opened with tracking on (`PersistentContainer(…,
/// tracksPersistentHistory: true)`); asking a store that does not throws
/// `PersistentHistoryError.notTracked`.
extension PersistentStoreCoordinator {
    /// The transactions recorded after `token`, oldest first; every transaction when
    /// `token` is nil.
    ///
    /// - Throws: `PersistentHistoryError` for a store without history, a token of another
    ///   store or past the store's last transaction, or a token whose following history was
    ///   partly deleted (`.expired`); the store's failure when it cannot be read.
    public func history(after token: PersistentHistoryToken?) throws -> [PersistentHistoryTransaction] {
        try read { try $0.history(after: .token(token)) }
    }

    /// At most `fetchLimit` transactions recorded after `token` (every one when it is 0),
    /// oldest first, with or without their changes as `resultType` says.
    ///
    /// - Throws: as `history(after:)`.
    public func history(
        after token: PersistentHistoryToken?, resultType: PersistentHistoryResultType, fetchLimit: Int
    ) throws -> [PersistentHistoryTransaction] {
        try read {
            try $0.history(
                after: .token(token), limit: fetchLimit > 0 ? fetchLimit : nil,
                includesChanges: resultType == .transactionsAndChanges)
        }
    }

    /// The transactions committed after `date`, oldest first.
    ///
    /// - Throws: `PersistentHistoryError.dateInTheFuture` for a date later than now, and as
    ///   `history(after:)` for a token.
    public func history(after date: Date) throws -> [PersistentHistoryTransaction] {
        try read { try $0.history(after: .date(date)) }
    }

    /// Deletes the transactions recorded before `token` (its own transaction is kept), with
    /// the tombstones of their deletes. A later request for the history after a deleted
    /// place throws `PersistentHistoryError.expired`.
    ///
    /// - Throws: as `history(after:)`; the store's failure when it cannot be written.
    public func deleteHistory(before token: PersistentHistoryToken) throws {
        try connections.write { try $0.deleteHistory(before: .token(token)) }
    }

    /// Deletes the transactions committed before `date`, with the tombstones of their deletes.
    ///
    /// - Throws: as `history(after:)`; the store's failure when it cannot be written.
    public func deleteHistory(before date: Date) throws {
        try connections.write { try $0.deleteHistory(before: .date(date)) }
    }

    /// The place after the store's last transaction: the history after it is what is saved
    /// from now on.
    ///
    /// - Throws: `PersistentHistoryError.notTracked` for a store without history.
    public func currentPersistentHistoryToken() throws -> PersistentHistoryToken {
        try read { try $0.currentHistoryToken() }
    }
}
