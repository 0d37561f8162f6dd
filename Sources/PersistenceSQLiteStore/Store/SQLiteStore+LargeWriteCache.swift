import Foundation
import PersistenceSQLite

/// The page cache setting a large save replaced, for `SQLiteStore.restorePageCache(_:)`.
package struct SavedPageCache: Sendable {
    /// The `cache_size` value to put back; nil when the cache was left alone.
    let cacheSize: Int64?
}

extension SQLiteStore {
    /// How many rows a save writes before it runs with a larger page cache.
    package static let largeWriteRowThreshold = 10_000
    /// The page cache a large save runs with, in KiB (SQLite's negative `cache_size`).
    ///
    /// 16 MiB holds the index pages a 100,000-book load keeps returning to: a C program doing
    /// `books seed`'s work spends the same CPU time with 16 MiB as with 64 MiB, and 45 MB
    /// less memory at its peak (Benchmarks/RESULTS.md, issue #47).
    package static let largeWriteCacheKiB: Int64 = 16_384

    /// Raises the page cache to `largeWriteCacheKiB` for a save writing at least
    /// `largeWriteRowThreshold` rows, when it is smaller; pass the result to
    /// `restorePageCache(_:)` once the save is over.
    ///
    /// Why: with SQLite's default 2 MB cache, a large insert fills the cache with dirty
    /// index pages (the UNIQUE, title and search indexes), spills them to the WAL and reads
    /// them back as later rows land on the same pages, in preads and WAL frame lookups that
    /// a large enough cache avoids. What is written, and when it
    /// is committed, does not change; memory grows by at most the cache while the save runs
    /// and is given back when the setting is restored.
    ///
    /// - Throws: `SQLiteError` when the setting cannot be read or changed.
    package func raisePageCache(forRows rows: Int) throws -> SavedPageCache {
        guard rows >= Self.largeWriteRowThreshold,
            case .integer(let current)? = try database.query("PRAGMA cache_size").first?.first
        else { return SavedPageCache(cacheSize: nil) }
        let currentKiB: Int64
        if current < 0 {
            currentKiB = -current
        } else {
            guard case .integer(let pageSize)? = try database.query("PRAGMA page_size").first?.first else {
                return SavedPageCache(cacheSize: nil)
            }
            currentKiB = current * pageSize / 1024
        }
        guard currentKiB < Self.largeWriteCacheKiB else { return SavedPageCache(cacheSize: nil) }
        try database.execute("PRAGMA cache_size = -\(Self.largeWriteCacheKiB)")
        return SavedPageCache(cacheSize: current)
    }

    /// Puts back the page cache setting `raisePageCache(forRows:)` replaced, if any. A
    /// failure is ignored: the setting only affects speed, and the save's outcome stands.
    package func restorePageCache(_ saved: SavedPageCache) {
        guard let size = saved.cacheSize else { return }
        try? database.execute("PRAGMA cache_size = \(size)")
    }
}

extension SQLiteStore {
    /// How many WAL pages may accumulate during a bulk load before SQLite copies them back
    /// into the store (SQLite's default is 1,000).
    package static let bulkLoadCheckpointPages: Int64 = 10_000

    /// Runs `body`, a load of about `rows` rows in several saves, with the large-write page
    /// cache (`raisePageCache(forRows:)`) held across all of them and fewer automatic
    /// checkpoints, then puts both settings back.
    ///
    /// Each save of such a load may be a batch below the large-save threshold, so the cache
    /// is raised once for the whole load: with SQLite's default 2 MB cache, each batch of a
    /// large load would read back index pages an earlier batch had just written, and the WAL
    /// would be copied into the store every 4 MB. What is written, and when it is committed,
    /// does not change.
    ///
    /// - Throws: `SQLiteError` when a setting cannot be read or changed; whatever `body`
    ///   throws.
    package func withBulkLoad<T>(rowCount: Int, _ body: () throws -> T) throws -> T {
        let cache = try raisePageCache(forRows: rowCount)
        defer { restorePageCache(cache) }
        let checkpoint = try database.query("PRAGMA wal_autocheckpoint").first?.first
        try database.execute("PRAGMA wal_autocheckpoint = \(Self.bulkLoadCheckpointPages)")
        defer {
            if case .integer(let pages)? = checkpoint {
                try? database.execute("PRAGMA wal_autocheckpoint = \(pages)")
            }
        }
        return try body()
    }
}
