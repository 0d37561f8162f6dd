import Foundation
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import PersistenceSQLiteFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files that hold large binary values beside a store file: Core Data's "allows
/// external storage".
///
/// **When.** A value of an attribute with `allowsExternalBinaryDataStorage` (Binary Data,
/// or Transformable, whose stored form is bytes) goes to a file when it is *larger than*
/// the threshold, `defaultThreshold` (100 KiB) unless the store's options say otherwise;
/// a value of exactly the threshold or less stays in its row. 100 KiB is where SQLite's
/// own measurements ("Internal Versus External BLOBs", sqlite.org/intern-v-extern-blob.html)
/// find reading from a separate file starts to beat reading from the database. In-memory
/// stores keep every value in its row.
///
/// **Where.** Beside the store file, in a hidden folder named after the whole file name:
/// `Books.sqlite` keeps its files in `.Books.sqlite_SUPPORT/_EXTERNAL_DATA/<UUID>`, one file
/// per value holding exactly its bytes. (Core Data drops the extension, `.Books_SUPPORT`;
/// keeping it means `Books.sqlite` and `Books.db` in one folder never share, and never
/// sweep, each other's files.) Move or copy the folder with the store file.
///
/// **The row.** The column holds the TEXT `external:<UUID>:<byte count>` in place of the
/// BLOB, so `SELECT cover FROM Book` in the `sqlite3` shell shows which file holds a value
/// and how large it is. Readers of the store (fetches, faults, export) get the bytes back:
/// the reference never leaves the store layer.
///
/// **Crash safety.** Each value is written to a new file (temporary name, rename) inside the
/// write transaction; just before the commit every new file and then the folder are
/// `fsync`ed, so a durable commit never references a file that is not. A file is never
/// overwritten. When the transaction rolls back, the files it wrote are removed; files
/// of deleted rows and replaced values are removed only after the commit, and only once no
/// reader can still see them (below). A crash between those steps leaves only unreferenced
/// files, which a later writable open sweeps (under SQLite's write lock, so no other
/// process is between writing its files and committing). So after any crash every
/// reference has its file and no file lacks a reference.
///
/// **Readers on older snapshots.** In WAL mode a reader (another process's export, a long
/// fetch) keeps reading the database as it was when its read transaction began, so it may
/// still read a row whose deletion another connection has since committed, and then needs
/// the row's file. A file that a commit stops referencing is therefore removed only when no
/// reader can still be on a snapshot from before that commit, which SQLite can tell: a
/// `PRAGMA wal_checkpoint(RESTART)` that does not wait (busy timeout 0) completes only when
/// every reader is reading from the database file, that is, from the latest commit, and
/// reports "busy" while any reader still needs older frames of the log. So after a commit
/// that replaced files, the writer tries that checkpoint: when it completes, the files go at
/// once (the usual case: nobody else is reading); when a reader holds an older snapshot,
/// they stay, unreferenced, and the sweep of a later writable open removes them, after the
/// same checkpoint completes and only if no commit slipped in between (`PRAGMA
/// data_version`), since a reader that began just before such a commit could see its files.
/// The cost is a checkpoint after a save that deleted or replaced external values, and
/// disk space for files kept until a later writer opens the store.
///
/// **Limits.** Values are read whole when their row is read (not lazily on first access, as
/// Core Data can).
///
/// Not Sendable: it belongs to one store, used by one context at a time.
package final class ExternalDataStore {
    /// Values larger than this many bytes go to files unless the store's options say
    /// otherwise: 100 KiB.
    package static let defaultThreshold = 100 * 1024

    /// A row's reference to a file: `external:<UUID>:<byte count>`.
    package struct Reference: Hashable, Sendable, CustomStringConvertible {
        /// The file's name.
        package let identifier: UUID
        /// The number of bytes the file holds.
        package let byteCount: Int

        static let prefix = "external:"

        /// A reference to a new file for a value of `byteCount` bytes.
        package init(identifier: UUID = UUID(), byteCount: Int) {
            self.identifier = identifier
            self.byteCount = byteCount
        }

        /// Parses a column's text; nil when it is not a reference.
        package init?(_ text: String) {
            guard text.hasPrefix(Self.prefix) else { return nil }
            let parts = text.dropFirst(Self.prefix.count).split(
                separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let identifier = UUID(uuidString: String(parts[0])),
                let byteCount = Int(parts[1]), byteCount >= 0
            else { return nil }
            self.init(identifier: identifier, byteCount: byteCount)
        }

        /// The file's name: the UUID in canonical uppercase form.
        package var fileName: String { identifier.uuidString }

        /// The text stored in the column.
        package var description: String { "\(Self.prefix)\(identifier.uuidString):\(byteCount)" }
    }

    /// The folder holding the files: `<store folder>/.<store file name>_SUPPORT/_EXTERNAL_DATA`.
    package let directory: String
    /// Values larger than this many bytes go to files.
    package let threshold: Int

    /// For each entity with attributes that allow external storage, their columns (indexes
    /// into the table's columns) and attributes.
    package let externalColumns: [String: [(column: Int, attribute: AttributeDescription)]]
    /// For each table with columns that hold bytes (and so may hold references), their
    /// indexes: whatever the flags say now, an older row may reference a file.
    package let byteColumns: [String: [Int]]

    /// Files written in the open write transaction: removed if it rolls back.
    private var written: [String] = []
    /// Files whose rows the open write transaction deletes or replaces: removed after commit.
    private var replaced: [String] = []
    /// Files written in the open write transaction whose bytes are not yet synced.
    private var unsynced: [String] = []
    /// Whether `transaction(_:)` is running.
    private var isInTransaction = false
    /// Whether the folder exists, so that rows may reference files: checked when the store
    /// opens and when a transaction begins. While it is false, deleting or updating a row
    /// reads no old references (a store that never had external data pays nothing).
    package private(set) var mayHoldFiles = false

    /// The external data of the store file at `storePath`, whose tables `schema` maps.
    package init(storePath: String, threshold: Int, schema: StoreSchema) {
        directory = Self.directory(forStorePath: storePath)
        self.threshold = threshold
        var externalColumns: [String: [(column: Int, attribute: AttributeDescription)]] = [:]
        for (name, mapping) in schema.entities {
            for (position, column) in mapping.columnIndex.enumerated() {
                guard let column,
                    case .attribute(let attribute) = mapping.schema.properties[position],
                    attribute.allowsExternalBinaryDataStorage, Self.holdsBytes(attribute)
                else { continue }
                externalColumns[name, default: []].append((column, attribute))
            }
        }
        var byteColumns: [String: [Int]] = [:]
        for (name, table) in schema.tables {
            let indexes = table.columns.indices.filter { index in
                if case .attribute(let attribute) = table.columns[index].kind {
                    return Self.holdsBytes(attribute)
                }
                return false
            }
            if !indexes.isEmpty { byteColumns[name] = indexes }
        }
        self.externalColumns = externalColumns
        self.byteColumns = byteColumns
        mayHoldFiles = FileManager.default.fileExists(atPath: directory)
    }

    /// Whether an attribute's stored form is bytes (Binary Data, Transformable), so that
    /// its column may hold a reference.
    package static func holdsBytes(_ attribute: AttributeDescription) -> Bool {
        attribute.type == .binaryData || attribute.type == .transformable
    }

    /// The folder that holds the external data of the store file at `storePath`.
    package static func directory(forStorePath storePath: String) -> String {
        let store = URL(fileURLWithPath: storePath)
        return store.deletingLastPathComponent()
            .appendingPathComponent(".\(store.lastPathComponent)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true).path
    }

    /// The path of the file a reference names.
    package func path(of reference: Reference) -> String { directory + "/" + reference.fileName }

    // MARK: - Writing and reading

    /// Writes `data` to a new file and returns its reference: temporary file, then rename
    /// (`prepareToCommit` makes it durable). Inside `transaction(_:)` the file is removed if
    /// the transaction rolls back; outside it, it is made durable at once.
    ///
    /// - Parameter attribute: `Entity.attribute`, for the error message.
    /// - Throws: `StoreError.externalData` when the folder or file cannot be written, or
    ///   when the support folder is a symbolic link (see `ExternalDataFiles`).
    package func write(_ data: Data, attribute: String) throws -> Reference {
        let reference = Reference(byteCount: data.count)
        let path = path(of: reference)
        let temporary = path + ".tmp"
        do { try ExternalDataFiles.refuseLinkedFolders(directory) } catch StoreError.externalData(let folder, let reason) {
            throw StoreError.externalData(
                path: path, reason: "the value of \(attribute) could not be written: \(folder) \(reason)")
        }
        do {
            try createDirectoryIfNeeded()
            mayHoldFiles = true
            try Self.writeFile(data, to: temporary)
            try Self.check(rename(temporary, path), "rename it into place")
        } catch let error as FileError {
            unlink(temporary)
            throw StoreError.externalData(
                path: path,
                reason: "the value of \(attribute) could not be written: \(error.reason)")
        }
        guard isInTransaction else {
            // Outside `transaction(_:)` nothing says when (or whether) the row commits: make
            // the file durable now and leave it to the sweep if the row never commits.
            unsynced = [path]
            try prepareToCommit()
            return reference
        }
        written.append(path)
        unsynced.append(path)
        return reference
    }

    /// The bytes of a referenced file, checked against the reference's byte count.
    ///
    /// - Parameter object: the row's object (`Book/p12`) and `attribute` its attribute, for
    ///   the error message.
    /// - Throws: `StoreError.unreadableExternalData` naming the object, attribute and file
    ///   when the file is missing, unreadable or of the wrong size.
    package func read(_ reference: Reference, object: String, attribute: String) throws -> Data {
        let path = path(of: reference)
        func failure(_ reason: String) -> StoreError {
            .unreadableExternalData(
                object: object, attribute: attribute, path: path, reason: reason)
        }
        do { try ExternalDataFiles.refuseLinkedFolders(directory) } catch {
            throw failure("its folder is a symbolic link or not a folder, which is never followed")
        }
        let data: Data
        do { data = try ExternalDataFiles.readRegularFile(path) } catch {
            throw failure(error.reason)
        }
        guard data.count == reference.byteCount else {
            throw failure(
                "the file holds \(data.count) bytes where \(reference.byteCount) were written")
        }
        return data
    }

    /// Marks a file whose row is being deleted or whose value is being replaced: it is
    /// removed once the write transaction commits, and kept if it rolls back.
    ///
    /// Outside `transaction(_:)` the file is left for the sweep at the next writable open:
    /// nothing says whether the deletion commits.
    package func removeAfterCommit(_ reference: Reference) {
        guard isInTransaction else { return }
        replaced.append(path(of: reference))
    }

    // MARK: - Transactions

    /// Runs a write transaction (`body`, which begins and commits it) and then settles the
    /// files: after a commit the replaced files are removed; after a failure the files the
    /// transaction wrote are removed. Files are never removed before the commit decides.
    ///
    /// A call inside another (which SQLite refuses: transactions do not nest) leaves the
    /// files to the outer one.
    ///
    /// - Parameter noReaderPredatesCommit: asked after a commit that replaced files: whether
    ///   no reader can still be on a snapshot from before it. When it answers false the
    ///   replaced files are left for a later sweep (see "Readers on older snapshots").
    package func transaction<T>(
        noReaderPredatesCommit: () -> Bool = { true }, _ body: () throws -> T
    ) rethrows -> T {
        guard !isInTransaction else { return try body() }
        // Another process may have created the folder since.
        if !mayHoldFiles { mayHoldFiles = FileManager.default.fileExists(atPath: directory) }
        isInTransaction = true
        defer { isInTransaction = false }
        let result: T
        do { result = try body() } catch {
            for path in written { unlink(path) }
            written.removeAll()
            replaced.removeAll()
            unsynced.removeAll()
            throw error
        }
        if !replaced.isEmpty, (try? ExternalDataFiles.refuseLinkedFolders(directory)) != nil,
            noReaderPredatesCommit()
        {
            for path in replaced { unlink(path) }
        }
        written.removeAll()
        replaced.removeAll()
        unsynced.removeAll()
        return result
    }

    /// Makes the files written in this transaction durable: `fsync` of each file, then of
    /// the folder (for their names). Call inside the transaction, just before it commits,
    /// so that a commit SQLite has made durable never references a file that is not.
    ///
    /// Syncing all files at the end rather than each as it is written lets the file system
    /// flush them together, which makes a save of many external values markedly faster.
    ///
    /// - Throws: `StoreError.externalData` when a file or the folder cannot be synced.
    package func prepareToCommit() throws {
        guard !unsynced.isEmpty else { return }
        var current = directory
        do {
            for path in unsynced {
                current = path
                try Self.sync(path, directory: false)
            }
            current = directory
            try Self.sync(directory, directory: true)
        } catch let error as FileError {
            throw StoreError.externalData(
                path: current, reason: "could not be made durable: \(error.reason)")
        }
        unsynced.removeAll()
    }

    // MARK: - Sweeping

    /// The names of the entries in the folder (files and leftover temporary files); empty
    /// when the folder does not exist.
    package func entryNames() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// Removes the entry `name` from the folder; a missing entry is not an error.
    package func removeEntry(named name: String) {
        unlink(directory + "/" + name)
    }

    // MARK: - Files

    /// A failed system call: what was being done and `strerror`'s text.
    struct FileError: Error {
        let reason: String
    }

    private func createDirectoryIfNeeded() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(reason: "could not create the folder (\(error.localizedDescription))")
        }
        // The new folders' own names must survive a crash too.
        let support = (directory as NSString).deletingLastPathComponent
        try Self.sync(support, directory: true)
        try Self.sync((support as NSString).deletingLastPathComponent, directory: true)
    }

    /// Writes `data` to a new file at `path`; `prepareToCommit` syncs it.
    private static func writeFile(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try check(descriptor, "create it")
        defer { close(descriptor) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard var next = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let count = systemWrite(descriptor, next, remaining)
                if count < 0, errno == EINTR { continue }
                if count < 0 { try check(Int32(-1), "write it") }
                next += count
                remaining -= count
            }
        }
    }

    /// `fsync`s a file or folder by path.
    private static func sync(_ path: String, directory: Bool) throws {
        let descriptor = open(
            path, directory ? O_RDONLY | O_DIRECTORY | O_CLOEXEC : O_RDONLY | O_CLOEXEC)
        try check(descriptor, directory ? "open the folder \(path)" : "open it")
        defer { close(descriptor) }
        try check(fsync(descriptor), directory ? "sync the folder \(path)" : "sync it")
    }

    private static func check(_ result: Int32, _ action: String) throws {
        guard result < 0 else { return }
        let code = errno
        throw FileError(
            reason: "could not \(action): \(String(cString: strerror(code))) (errno \(code))")
    }
}

/// `write(2)`, named apart from `ExternalDataStore.write(_:attribute:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
