import PersistenceRelational
import PersistenceSQLite

/// What one write transaction of a store that tracks history changed, gathered as
/// `SQLiteStoreTransaction` writes and recorded by `SQLiteStore.recordHistory` just before it
/// commits; the previous values are column values by property name, and a delete's tombstone
/// is its `_tombstone` row.
typealias HistoryRecorder = HistoryChangeRecorder<[String: SQLiteValue]>

extension Dictionary: HistoryPreviousValues where Key == String, Value == SQLiteValue {
    package func keepingFirst(over later: [String: SQLiteValue]) -> [String: SQLiteValue] {
        merging(later) { first, _ in first }
    }
}
