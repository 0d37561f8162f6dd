import Foundation
import Persistence

extension Catalog {
    /// The page cache a bulk load runs with, in KiB (SQLite's negative `cache_size`).
    static let bulkLoadCacheKiB = 65_536
    /// How many WAL pages may accumulate before SQLite copies them back into the store
    /// during a bulk load (its default is 1,000).
    static let bulkLoadCheckpointPages = 10_000

    /// Runs `body`, a load of many books in several saves, with a larger page cache and
    /// fewer automatic checkpoints, then puts both settings back.
    ///
    /// With SQLite's default 2 MB cache, each batch of a 100,000-book seed read back index
    /// pages an earlier batch had just written (213k reads against the raw C seeder's
    /// 119k), and the WAL was copied into the store every 4 MB. Memory grows by at most the
    /// cache (64 MB) while the load runs; what is written, and when it is committed, does
    /// not change.
    func withBulkLoadSettings<T>(_ body: () throws -> T) throws -> T {
        let database = context.store.database
        let cache = try database.query("PRAGMA cache_size").first?.first
        let checkpoint = try database.query("PRAGMA wal_autocheckpoint").first?.first
        try database.execute("PRAGMA cache_size = -\(Self.bulkLoadCacheKiB)")
        try database.execute("PRAGMA wal_autocheckpoint = \(Self.bulkLoadCheckpointPages)")
        defer {
            if case .integer(let pages)? = cache { try? database.execute("PRAGMA cache_size = \(pages)") }
            if case .integer(let pages)? = checkpoint { try? database.execute("PRAGMA wal_autocheckpoint = \(pages)") }
        }
        return try body()
    }
}
