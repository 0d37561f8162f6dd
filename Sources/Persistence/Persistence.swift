// Persistence: a Core Data–style object graph and persistence library. An app imports this
// module alone; it re-exports the layers an app's code names (values, models, fetch
// requests, object IDs, store errors and options).
@_exported import PersistenceModel
@_exported import PersistenceStore
@_exported import PersistenceContext
@_exported import PersistenceSQLiteStore
@_exported import PersistenceSQLiteFiles
@_exported import PersistenceCoreDataStore

/// Persistence: a Core Data–style object graph and persistence library over SQLite.
public enum PersistenceVersion {
    /// The library's version.
    public static let string = "0.1.0"
}
