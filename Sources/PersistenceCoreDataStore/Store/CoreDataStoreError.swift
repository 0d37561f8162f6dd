import PersistenceStore
import PersistenceSQLiteFiles

/// A Core Data store whose rows or bookkeeping tables cannot be read as Core Data writes
/// them (a row whose `Z_ENT` names no entity, a `Z_PRIMARYKEY` row that is not a number, a
/// missing `Z_METADATA` row), or that this store must not write. The file is left as it was.
///
/// A mismatch between the store and the model it is opened with is a `StoreError`
/// `.incompatibleModel` instead (as for the SQLite store), naming the first difference.
public struct CoreDataStoreError: Error, Sendable, CustomStringConvertible {
    /// The store file.
    public let path: String?
    /// What is wrong, in one sentence without a final period.
    public let reason: String
    /// Whether the file is an SQLite database without Core Data's bookkeeping tables at all,
    /// rather than a Core Data store that cannot be read.
    public let isNotACoreDataStore: Bool
    /// Whether the store can be read but not written here: a save whose persistent history
    /// cannot be recorded as Core Data records it (see `CoreDataHistoryRecorder`).
    public let refusesWrites: Bool

    package init(path: String?, _ reason: String, isNotACoreDataStore: Bool = false, refusesWrites: Bool = false) {
        self.path = path
        self.reason = reason
        self.isNotACoreDataStore = isNotACoreDataStore
        self.refusesWrites = refusesWrites
    }

    /// One line naming the file and what is wrong.
    public var description: String {
        if isNotACoreDataStore { return "\(path ?? "The store") is not a store Core Data wrote: \(reason); it was left untouched" }
        if refusesWrites { return "The Core Data store \(path ?? "in memory") can't be written here: \(reason); it was left untouched" }
        return "The Core Data store \(path ?? "in memory") can't be read: \(reason); it was left untouched"
    }
}

extension CoreDataStoreError: PersistentStoreFailure {
    /// A Core Data store that cannot be read is damaged; a database without its tables is
    /// not a store of this kind; one that must not be written is read-only.
    public var failureKind: PersistentStoreFailureKind {
        if isNotACoreDataStore { return .notAStore }
        return refusesWrites ? .readOnly : .damaged
    }
    /// The sentence that describes the error.
    public var message: String { reason }
}
