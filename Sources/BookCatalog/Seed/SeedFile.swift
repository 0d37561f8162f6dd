import Foundation
import Persistence
import SeedData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A seed file (`books seed --file PATH`, or standard input for `-`), read as a stream of
/// entries in two passes, so that memory follows one batch, not the file:
///
/// 1. ``check()`` reads every entry and checks it (fields, and UUIDs repeated anywhere in
///    the file, keeping 16 bytes and a number per entry for that), before the store is
///    opened: a bad file leaves the store as it was, as when the whole file was read first.
/// 2. ``forEachBatch(size:_:)`` reads the entries again and hands them over a batch at a
///    time, for the catalogue to save.
///
/// Reading twice costs a second parse of the file, which is cheap next to saving it, and
/// keeps the promise that a malformed entry anywhere refuses the whole file with nothing
/// written. Input that cannot be read twice (standard input, a pipe) is copied during the
/// first pass into an unnamed temporary file (`tmpfile(3)`, gone when closed or when the
/// process ends), which the second pass reads.
///
/// Not `Sendable`: it owns file descriptors; use it from one thread.
public final class SeedFile {
    /// The name in messages: the path as given, or `standard input` for `-`.
    public let name: String
    /// The path as given (`-` for standard input).
    private let path: String
    /// The number of entries, known once ``check()`` has run.
    public private(set) var entryCount: Int?

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let isRewindable: Bool
    private var spool: UnsafeMutablePointer<FILE>?
    private let bufferSize: Int

    /// The bundled `SeedData/books.json`: the sample books.
    ///
    /// - Throws: `MissingResourceError` if it was not installed with the binary;
    ///   ``MissingInputFileError`` if it cannot be opened.
    public static func bundled() throws -> SeedFile {
        try SeedFile(path: SeedData.booksURL().path, name: "SeedData/books.json")
    }

    /// Opens `path` for reading, or standard input when `path` is `-`.
    ///
    /// - Parameter bufferSize: bytes read at a time (tests use tiny ones).
    /// - Throws: ``MissingInputFileError`` (exit 66) when the file does not exist, is a
    ///   directory or cannot be read.
    public convenience init(path: String, bufferSize: Int = 64 * 1024) throws {
        try self.init(path: path, name: path, bufferSize: bufferSize)
    }

    private init(path: String, name: String, bufferSize: Int = 64 * 1024) throws {
        self.name = path == "-" ? "standard input" : name
        self.path = path
        self.bufferSize = bufferSize
        let fd: Int32
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw MissingInputFileError(path: path, reason: "it does not exist")
            }
            if isDirectory.boolValue { throw MissingInputFileError(path: path, reason: "it is a directory") }
            // Non-blocking, so that opening a FIFO with no writer cannot hang; reads are
            // made blocking again below.
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { throw Self.unreadable(path, errno) }
            ownsDescriptor = true
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        }
        descriptor = fd
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            if ownsDescriptor { close(fd) }
            throw Self.unreadable(path, code)
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            if ownsDescriptor { close(fd) }
            throw MissingInputFileError(path: path, reason: "it is a directory")
        }
        isRewindable = status.st_mode & S_IFMT == S_IFREG && lseek(fd, 0, SEEK_CUR) == 0
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        if let spool { fclose(spool) }
    }

    /// Reads and checks every entry, and counts them; nothing is kept but what finds a
    /// repeated UUID.
    ///
    /// - Returns: the number of entries.
    /// - Throws: `CatalogInputError` naming the file, the entry and the field;
    ///   ``MissingInputFileError`` when reading fails.
    @discardableResult
    public func check() throws -> Int {
        if let entryCount { return entryCount }
        if !isRewindable {
            guard let file = tmpfile() else {
                throw MissingInputFileError(
                    path: path, reason: "it cannot be copied aside for reading twice (\(String(cString: strerror(errno))))")
            }
            spool = file
        }
        let copy = spool.map { fileno($0) }
        // What is copied aside is bounded as every input of the tools is (`InputFile`): an
        // endless standard input is refused (65) rather than filling the disk.
        let copied = Counter()
        var reader = SeedEntryReader(file: name, checksDuplicates: true, bufferSize: bufferSize) { [descriptor, path, name] buffer in
            let count = try Self.readChunk(descriptor, into: buffer, path: path)
            if let copy, count > 0 {
                copied.value += count
                guard copied.value <= InputFile.maximumSize else {
                    throw CatalogInputError(
                        field: name, value: "…",
                        reason: "it is larger than \(InputFile.maximumSize >> 30) GiB, the most a seed read from a pipe may be")
                }
                try Self.writeAll(copy, UnsafeRawBufferPointer(rebasing: buffer.prefix(count)), path: path)
            }
            return count
        }
        while try reader.next() != nil {}
        entryCount = reader.count
        return reader.count
    }

    /// Reads the entries again (after ``check()``) and hands them to `body`, at most `size`
    /// at a time, in file order.
    ///
    /// - Throws: `CatalogInputError` if the file changed since it was checked and is now
    ///   malformed; ``MissingInputFileError`` when reading fails; what `body` throws.
    public func forEachBatch(size: Int, _ body: ([SeedBook]) throws -> Void) throws {
        if entryCount == nil { try check() }
        let source = spool.map { fileno($0) } ?? descriptor
        guard lseek(source, 0, SEEK_SET) == 0 else { throw Self.unreadable(path, errno) }
        var reader = SeedEntryReader(file: name, checksDuplicates: false, bufferSize: bufferSize) { [path] buffer in
            try Self.readChunk(source, into: buffer, path: path)
        }
        var batch: [SeedBook] = []
        batch.reserveCapacity(min(max(1, size), 100_000))
        while let book = try reader.next() {
            batch.append(book)
            if batch.count >= size {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    // MARK: - Reading

    private static func readChunk(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw unreadable(path, errno)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = write(fd, base + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw MissingInputFileError(
                    path: path, reason: "it cannot be copied aside for reading twice (\(String(cString: strerror(errno))))")
            }
            done += count
        }
    }

    private static func unreadable(_ path: String, _ code: Int32) -> MissingInputFileError {
        MissingInputFileError(path: path, reason: "it cannot be read (\(String(cString: strerror(code))))")
    }
}

/// A count that a reading closure adds to.
private final class Counter {
    var value = 0
}
