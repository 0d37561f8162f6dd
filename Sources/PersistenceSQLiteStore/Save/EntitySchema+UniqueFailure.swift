import PersistenceModel
import PersistenceSQLite

extension EntitySchema {
    /// The position in `uniquenessConstraints` of the constraint that SQLite's UNIQUE
    /// failure names ("UNIQUE constraint failed: Book.uuid"); nil when none matches.
    package func uniquenessConstraintIndex(failedIn error: SQLiteError) -> Int? {
        uniquenessConstraints.firstIndex { keys in keys.allSatisfy { error.message.contains(".\($0)") } }
    }
}
