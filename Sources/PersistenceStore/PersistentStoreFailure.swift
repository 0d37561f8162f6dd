/// An error from a store's file or database, classified in terms that hold for every store,
/// so that an app decides what to say and which exit code to use without knowing the store's
/// own error type (the SQLite store's `SQLiteError`, a server's error).
public protocol PersistentStoreFailure: Error, CustomStringConvertible {
    /// What kind of failure it is.
    var failureKind: PersistentStoreFailureKind { get }
    /// The store file the failure is about, when there is one.
    var path: String? { get }
    /// The store's own message.
    var message: String { get }
}

/// The kinds of store failure an app tells apart.
public enum PersistentStoreFailureKind: Sendable, Equatable {
    /// The store cannot be written: a read-only file, directory or medium.
    case readOnly
    /// The file is not a database of the store's kind at all; it was left untouched.
    case notAStore
    /// The store was written for another model (or another version of it) than the one
    /// it is opened with, and cannot be migrated to it; it was left untouched.
    case incompatibleModel
    /// The store's database is damaged, or a value in it cannot be read.
    case damaged
    /// The disk (or the database's size limit) is full: nothing more could be written.
    case diskFull
    /// Another connection held a lock for longer than the store waits.
    case busy
    /// The store's server could not be connected to, or dropped the connection (a restart):
    /// the operation failed as a whole, and the next one connects again. (Only a connection
    /// lost during a commit itself leaves unknown whether a save was written; the message
    /// says so.)
    case unavailable
    /// Anything else.
    case other
}
