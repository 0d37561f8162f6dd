import Foundation
import Persistence

extension Catalog {
    /// How many WAL pages may accumulate before SQLite copies them back into the store
    /// during a bulk load (its default is 1,000).
    static let bulkLoadCheckpointPages = 10_000

    /// Runs `body`, a load of `rows` books in several saves, with the store's large-write
    /// page cache (`SQLiteStore.raisePageCache(forRows:)`) held across all of them and
    /// fewer automatic checkpoints, then puts both settings back.
    ///
    /// Each save of a seed is a batch below the store's own large-save threshold, so the
    /// cache is raised here, once for the whole load: with SQLite's default 2 MB cache,
    /// each batch of a 100,000-book seed read back index pages an earlier batch had just
    /// written (213k reads against the raw C seeder's 119k), and the WAL was copied into
    /// the store every 4 MB. What is written, and when it is committed, does not change.
    func withBulkLoadSettings<T>(rows: Int, _ body: () throws -> T) throws -> T {
        let store = context.store
        let cache = try store.raisePageCache(forRows: rows)
        defer { store.restorePageCache(cache) }
        let database = store.database
        let checkpoint = try database.query("PRAGMA wal_autocheckpoint").first?.first
        try database.execute("PRAGMA wal_autocheckpoint = \(Self.bulkLoadCheckpointPages)")
        defer {
            if case .integer(let pages)? = checkpoint { try? database.execute("PRAGMA wal_autocheckpoint = \(pages)") }
        }
        return try body()
    }
}
