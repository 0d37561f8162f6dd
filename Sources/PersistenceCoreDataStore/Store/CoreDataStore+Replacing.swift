import Foundation
import PersistenceSQLite
import PersistenceSQLiteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Putting a migrated copy of a store in Core Data's layout in the store's place.
extension CoreDataStore {
    /// Replaces the tables of the Core Data store at `url` with those of the store `build`
    /// makes, in one transaction of the store's own file that holds its write lock from
    /// before `build` runs until the commit: no other connection writes meanwhile, readers
    /// see the store before or after, never between, and a failure (or a kill) leaves it as
    /// it was. The store keeps its UUID (`Z_METADATA.Z_UUID`, Core Data's `NSStoreUUID`).
    ///
    /// Before anything changes, a consistent copy of the store as it was (write-ahead log
    /// included) is put at `backup` (`VACUUM INTO`, named only once complete).
    ///
    /// - Parameter build: makes the replacement and returns its file, or nil when, with the
    ///   lock held, there is nothing to replace (another process migrated the store first).
    /// - Returns: whether the store was replaced.
    /// - Throws: what `build` throws; `SQLiteError` when the store cannot be written.
    @discardableResult
    package static func replaceContents(of url: URL, backup: URL, build: () throws -> URL?) throws -> Bool {
        let path = url.path
        let database = try Database(path: path, mode: .mustExist, busyTimeout: 10)
        defer { try? database.close() }
        try database.execute("BEGIN IMMEDIATE")
        let partial = backup.path + ".partial-\(UUID().uuidString)"
        defer { unlink(partial) }
        var attached = false
        do {
            let reader = try Database(path: path, mode: .readOnly, busyTimeout: 10)
            do { try reader.execute("VACUUM INTO ?", [.text(partial)]) } catch {
                try? reader.close()
                throw error
            }
            try reader.close()
            guard let replacement = try build() else {
                try database.execute("ROLLBACK")
                return false
            }
            let identity = try database.query("SELECT Z_UUID FROM main.Z_METADATA ORDER BY Z_VERSION LIMIT 1")
                .first?.first?.stringValue
            try database.execute("ATTACH DATABASE ? AS replacement", [.text(replacement.path)])
            attached = true
            // Dropping a table drops its indexes and triggers.
            for row in try database.query(
                "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            {
                guard let name = row.first?.stringValue else { continue }
                try database.execute("DROP TABLE main.\(sqlIdentifier(name))")
            }
            // Tables first, filled before their indexes and triggers are made.
            let objects = try database.query(
                "SELECT type, name, sql FROM replacement.sqlite_master WHERE sql IS NOT NULL "
                    + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type <> 'table', rowid")
            for object in objects {
                guard let type = object[0].stringValue, let name = object[1].stringValue, let sql = object[2].stringValue
                else { continue }
                try database.execute(sql)
                if type == "table" {
                    try database.execute(
                        "INSERT INTO main.\(sqlIdentifier(name)) SELECT * FROM replacement.\(sqlIdentifier(name))")
                }
            }
            if let identity {
                try database.execute("UPDATE main.Z_METADATA SET Z_UUID = ?", [.text(identity)])
            }
            guard rename(partial, backup.path) == 0 else {
                throw CoreDataStoreError(path: path, "the copy \(backup.path) could not be written (\(String(cString: strerror(errno))))")
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            if attached { try? database.execute("DETACH DATABASE replacement") }
            throw error
        }
        try? database.execute("DETACH DATABASE replacement")
        return true
    }
}
