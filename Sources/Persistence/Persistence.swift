/// Persistence: a Core Data–style object graph and persistence library over SQLite.
public enum PersistenceVersion {
    /// The library's version.
    public static let string = "0.1.0"
}
