/// What a history fetch answers with: Core Data's `NSPersistentHistoryResultType`.
public enum PersistentHistoryResultType: Sendable, Equatable {
    /// Each transaction with every change it made.
    case transactionsAndChanges
    /// Each transaction's number, time, author and context name, its `changes` empty: how
    /// a caller finds its way in a long history without reading every change in it.
    case transactionsOnly
}
