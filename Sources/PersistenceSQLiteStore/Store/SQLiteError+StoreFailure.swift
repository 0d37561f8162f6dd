import PersistenceSQLite
import PersistenceStore

extension SQLiteError: PersistentStoreFailure {
    /// The SQLite result code's kind of failure.
    public var failureKind: PersistentStoreFailureKind {
        if isReadOnly { return .readOnly }
        if isNotADatabase { return .notAStore }
        if isCorrupt { return .damaged }
        if isDiskFull { return .diskFull }
        if isBusy { return .busy }
        return .other
    }
}
