import Foundation
import PersistenceModel
import PersistenceSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a store's path names on disk, checked before SQLite is given it, and how to open
/// it for reading without leaving anything behind.
///
/// SQLite opens whatever path it is given: a FIFO blocks the opening process forever, and
/// a device such as `/dev/null` is "opened" with a `-journal` file created beside it in
/// `/dev`. So a store is only ever a regular file (a symbolic link to one is followed), or
/// a path that does not exist yet in an existing directory; anything else is refused, as
/// `git` refuses a repository path that is not a directory.
package enum StoreFile {
    /// Refuses a path that is neither a regular file nor a new name in an existing
    /// directory, before anything opens it.
    ///
    /// - Returns: whether the file exists.
    /// - Throws: `StoreError.isADirectory`, `.notARegularFile` or `.missingDirectory`.
    @discardableResult
    package static func check(_ path: String) throws -> Bool {
        switch FileKind.of(path) {
        case .regularFile:
            return true
        case .other("a directory"):
            throw StoreError.isADirectory(path: path)
        case .other(let what):
            throw StoreError.notARegularFile(path: path, kind: what)
        case .missing:
            let directory = directory(of: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { throw StoreError.missingDirectory(path: directory) }
            return false
        }
    }

    /// The directory holding `path`.
    package static func directory(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// Whether this process can write the store: the file (when it exists) and its
    /// directory, where SQLite keeps the `-wal` and `-shm` files. False on read-only media
    /// (`access` answers `EROFS` even to root).
    package static func isWritable(_ path: String) -> Bool {
        let fileWritable = access(path, F_OK) != 0 || access(path, W_OK) == 0
        return fileWritable && access(directory(of: path), W_OK) == 0
    }

    /// How to open an existing store to read it, leaving no file behind where that can be
    /// done safely:
    ///
    /// - a writable file in a writable directory: a read-write connection that refuses
    ///   writes (`Database.OpenMode.queryOnly`), which as the last connection to close
    ///   removes the `-wal` and `-shm` files its reading created (a read-only connection
    ///   cannot, and would leave them beside a store it only looked at);
    /// - a directory nobody can add files to and no `-wal` file: `immutable`, the only way
    ///   SQLite reads a WAL-mode file on read-only media; no other process can be writing
    ///   (a writer needs a `-wal` or `-journal` file there);
    /// - otherwise SQLite's read-only connection, which creates `-wal` and `-shm` files
    ///   if it needs them, as it must to share the file with a writer.
    package static func readingMode(for path: String) -> Database.OpenMode {
        let directoryWritable = access(directory(of: path), W_OK) == 0
        if directoryWritable && access(path, W_OK) == 0 { return .queryOnly }
        if !directoryWritable && access(path + "-wal", F_OK) != 0 { return .immutable }
        return .readOnly
    }

    /// Opens an existing store to read it (see `readingMode(for:)`).
    ///
    /// - Throws: `SQLiteError` when SQLite cannot open it or it is not a database.
    package static func openForReading(_ path: String, busyTimeout: Double) throws -> Database {
        try Database(path: path, mode: readingMode(for: path), busyTimeout: busyTimeout)
    }
}
