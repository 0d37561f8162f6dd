import Foundation

/// Where a history request starts or ends, as a store receives it: Core Data's
/// `NSPersistentHistoryChangeRequest` is made with a token or a date.
package enum PersistentHistoryBound: Sendable {
    /// A place in the history; nil is before the first transaction.
    case token(PersistentHistoryToken?)
    /// A moment: transactions committed after it (for a fetch) or before it (for a delete).
    case date(Date)
}
