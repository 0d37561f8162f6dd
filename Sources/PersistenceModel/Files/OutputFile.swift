import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a command writes — an export, generated code, a model — written whole or not at
/// all, and never over something it must not replace. Every file the tools write goes
/// through it (`books export -o`, `persistence-tool store export --output`, generated
/// sources), and so does the library's `StoreArchive.exportJSON(from:to:)`.
///
/// **What it refuses**, before a byte is written (``OutputFileRefusal``, one line):
/// - the stores it is told to protect (the one the command has open), their `-wal`, `-shm`
///   and `-journal`, whatever path names them: a hard or symbolic link is the same file by
///   device and inode;
/// - any existing SQLite database (its first 16 bytes), such as another catalogue;
/// - a directory, a device (`/dev/null`), a FIFO or a socket: renaming over one would
///   replace a system file with a regular one;
/// - an existing file this process may not write (for root, one with no write permission
///   bit: root ignores permissions, a read-only file is still somebody's decision).
///
/// **How it writes.** The text goes to an unnamed file (`O_TMPFILE`) in the target's folder,
/// given the target's mode and owner (or refused when the owner cannot be kept); ``commit()``
/// syncs it, links it under a hidden name and renames that over the target, then syncs the
/// folder. A process killed by any signal, SIGKILL included, before the commit leaves
/// nothing behind: the kernel frees an unnamed file with its last descriptor. A symbolic
/// link as the target is written through (the link stays, its target is replaced).
///
/// Where the file system has no `O_TMPFILE`, the text goes to a hidden
/// `.<name>.partial-<random>` held under `flock`, and every writer of that target first
/// removes such partials whose lock it can take: debris of a killed run is gone by the next
/// run at the latest.
///
/// Not `Sendable`: it owns a file descriptor; use it from one thread.
package final class OutputFile {
    /// The path as the user gave it, for messages.
    package let path: String
    /// The file that is replaced: `path` with a final symbolic link followed.
    private let target: String
    private let folder: String
    private var descriptor: Int32
    /// The hidden name of the fallback's named partial file, nil for an unnamed one.
    private var partial: String?
    private var finished = false

    /// Checks `path` and opens the file that will replace it.
    ///
    /// - Parameter protecting: store files this command has open (their side files are
    ///   protected too).
    /// - Throws: ``OutputFileRefusal`` naming the file and why.
    package init(path: String, protecting stores: [String] = []) throws(OutputFileRefusal) {
        self.path = path
        let refuse = { (reason: String) in OutputFileRefusal(path: path, reason: reason) }
        guard !path.isEmpty else { throw refuse("the path is empty") }
        if path.hasSuffix("/") { throw refuse("it names a directory") }
        var target = path
        var info = stat()
        var exists = false
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                guard let resolved = realpath(path, nil) else { throw refuse("it is a symbolic link to nothing") }
                target = String(cString: resolved)
                free(resolved)
                guard stat(target, &info) == 0 else { throw refuse(Self.describe(errno)) }
            }
            exists = true
        } else if errno != ENOENT {
            throw refuse(Self.describe(errno))
        }
        self.target = target
        folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        // By name too: a side file that does not exist now (no `-wal` while the store is
        // closed) is still the store's, and so is anything in its folder of external data.
        for store in stores where Self.isNamedLike(target, aFileOf: store) {
            throw refuse("it is the open store \(store) or one of its files")
        }
        var mode = mode_t(0o666) & ~Self.umaskValue()
        var owner: (uid_t, gid_t)?
        if exists {
            try Self.check(existing: target, info: info, protecting: stores, refuse: refuse)
            mode = info.st_mode & 0o7777
            owner = (info.st_uid, info.st_gid)
        }
        Self.sweepPartials(of: target)
        descriptor = open(folder, Self.unnamedFile | O_WRONLY | O_CLOEXEC, mode)
        if descriptor < 0 {
            // No unnamed files here: a named partial, held under flock while it is written.
            let name = "\(folder)/.\(URL(fileURLWithPath: target).lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
            descriptor = open(name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, mode)
            guard descriptor >= 0 else { throw refuse(Self.describe(errno)) }
            partial = name
        }
        // Held under flock from the start, so that another writer's sweep of partials never
        // takes this one for a killed run's (the lock follows the file to its hidden name).
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        // The new file gets the old one's owner, then its mode (open applied the umask;
        // chown would clear a set-user-ID bit given first).
        if let (uid, gid) = owner, uid != geteuid() || gid != getegid(), fchown(descriptor, uid, gid) != 0 {
            let reason = "its owner (user \(uid), group \(gid)) could not be kept: \(Self.describe(errno))"
            discard()
            throw refuse(reason)
        }
        _ = fchmod(descriptor, mode)
    }

    deinit { discard() }

    /// Appends `text`.
    ///
    /// - Throws: ``OutputFileRefusal`` when the write fails (a full disk).
    package func write(_ text: String) throws(OutputFileRefusal) {
        var text = text
        let failure: Int32? = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var done = 0
            while done < bytes.count {
                let count = systemWrite(descriptor, base + done, bytes.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += count
            }
            return nil
        }
        if let failure { throw OutputFileRefusal(path: path, reason: Self.describe(failure)) }
    }

    /// Syncs the new file and puts it in the target's place, then syncs the folder.
    ///
    /// - Throws: ``OutputFileRefusal``; the target is then as it was.
    package func commit() throws(OutputFileRefusal) {
        let fail = { (code: Int32) in OutputFileRefusal(path: self.path, reason: Self.describe(code)) }
        guard fsync(descriptor) == 0 else { throw fail(errno) }
        let name = partial ?? "\(folder)/.\(URL(fileURLWithPath: target).lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
        if partial == nil {
            // Named only now, for the instant before the rename.
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 else {
                throw fail(errno)
            }
            partial = name
        }
        guard rename(name, target) == 0 else { throw fail(errno) }
        partial = nil
        close(descriptor)
        descriptor = -1
        finished = true
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// Drops what was written, leaving the target as it was; does nothing the second time.
    package func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !finished, let partial { unlink(partial) }
        partial = nil
        finished = true
    }

    /// A file with no name in the temporary folder, open for reading and writing: scratch
    /// space that no signal can leave behind (`O_TMPFILE`; elsewhere a file unlinked as soon
    /// as it is made).
    ///
    /// - Throws: ``OutputFileRefusal`` when no such file can be made.
    package static func scratch() throws(OutputFileRefusal) -> FileHandle {
        let folder = FileManager.default.temporaryDirectory.path
        var descriptor = open(folder, unnamedFile | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            var template = Array("\(folder)/.scratch-XXXXXX".utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            guard descriptor >= 0 else { throw OutputFileRefusal(path: folder, reason: describe(errno)) }
            template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    // MARK: - Internals

    /// Refuses an existing target that must not be replaced.
    private static func check(
        existing target: String, info: stat, protecting stores: [String], refuse: (String) -> OutputFileRefusal
    ) throws(OutputFileRefusal) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("it is a directory")
        case S_IFCHR, S_IFBLK: throw refuse("it is a device")
        case S_IFIFO: throw refuse("it is a FIFO")
        case S_IFSOCK: throw refuse("it is a socket")
        default: throw refuse("it is not a regular file")
        }
        for store in stores where isSameFile(target, asStoreOrItsFiles: store) {
            throw refuse("it is the open store \(store) or one of its files")
        }
        if Self.isSQLiteDatabase(target) {
            throw refuse("it is an SQLite database, which an export never replaces")
        }
        let writable = geteuid() == 0 ? info.st_mode & 0o222 != 0 : access(target, W_OK) == 0
        if !writable { throw refuse("it is read-only") }
    }

    /// Whether `path` names `store` or one of its side files (`-wal`, `-shm`, `-journal`),
    /// by device and inode: through any hard or symbolic link.
    package static func isSameFile(_ path: String, asStoreOrItsFiles store: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return [store, store + "-wal", store + "-shm", store + "-journal"].contains { file in
            var other = stat()
            return stat(file, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino
        }
    }

    /// Whether `path` names `store`, one of its side files or a file in its support folder
    /// (`.<name>_SUPPORT`, where external data lives), folders' links resolved.
    static func isNamedLike(_ path: String, aFileOf store: String) -> Bool {
        func canonicalFolder(_ path: String) -> String? {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard let resolved = realpath(folder, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let storeFolder = canonicalFolder(store), let folder = canonicalFolder(path) else { return false }
        let storeName = URL(fileURLWithPath: store).lastPathComponent
        let name = URL(fileURLWithPath: path).lastPathComponent
        if folder == storeFolder, ["", "-wal", "-shm", "-journal"].contains(where: { storeName + $0 == name }) { return true }
        let support = storeFolder + "/." + storeName + "_SUPPORT"
        return folder == support || folder.hasPrefix(support + "/")
    }

    /// Whether the file begins with SQLite's header string.
    static func isSQLiteDatabase(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &header, 16)
        return count == 16 && header == Array("SQLite format 3\0".utf8)
    }

    /// Removes partial files of `target` left by killed runs: those whose `flock` can be
    /// taken (a running writer holds its own).
    private static func sweepPartials(of target: String) {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).partial-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = "\(folder)/\(name)"
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                unlink(path)
            }
            close(descriptor)
        }
    }

    /// `O_TMPFILE`, which Swift does not import (a macro of two flags): Linux's
    /// `__O_TMPFILE | O_DIRECTORY`, the same on every architecture Swift runs on but
    /// Alpha, SPARC and PA-RISC. An older kernel, or a file system without it, fails the
    /// open, and the named fallback is used.
    private static let unnamedFile: Int32 = 0o20_000_000 | O_DIRECTORY

    private static func umaskValue() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A file a command was asked to write and did not: what it is and why, one line.
package struct OutputFileRefusal: Error, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    package var path: String
    /// Why, as a clause: `it is the open store /home/me/books.sqlite`.
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `Cannot write out.json: it is a FIFO; nothing was written.`
    package var description: String {
        "Cannot write \(QuotedText.forMessage(path)): \(QuotedText.forMessage(reason)); nothing was written."
    }
}

/// `write(2)`, named apart from ``OutputFile/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
