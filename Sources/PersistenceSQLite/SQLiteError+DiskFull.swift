import CSQLite

extension SQLiteError {
    /// The file system had no room for a write (`SQLITE_FULL`): the statement's transaction
    /// was rolled back, and what earlier transactions committed is kept.
    public var isDiskFull: Bool { code == SQLITE_FULL }
}
