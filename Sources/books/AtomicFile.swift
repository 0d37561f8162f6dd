import CommandLineSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written whole or not at all: the text goes to a temporary file beside it, which
/// ``commit()`` flushes to disk and renames over the file, so that a reader sees the old file
/// or the new one, never part of one, and a failed write leaves the old file as it was and
/// no temporary file behind (``discard()``, or the deinitializer).
///
/// Not `Sendable`: it owns a file descriptor; use it from one thread.
final class AtomicFile {
    /// The file's path as given.
    let path: String
    private let temporaryPath: String
    private var descriptor: Int32

    /// Creates the temporary file beside `path`.
    ///
    /// - Throws: ``CommandFailure`` (exit 1) when `path` is a directory or its directory
    ///   cannot hold a new file.
    init(path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(message: "Cannot write \(path): it is a directory; nothing was written.", code: .runtimeError)
        }
        let url = URL(fileURLWithPath: path)
        let template = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path
        var bytes = Array(template.utf8CString)
        descriptor = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw Self.failure(path, errno) }
        temporaryPath = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkstemp makes the file private (0600); the export gets what a new file gets.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
    }

    deinit { discard() }

    /// Appends `text` to the temporary file.
    ///
    /// - Throws: ``CommandFailure`` (exit 1) when the write fails (a full disk).
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let count = systemWrite(descriptor, base + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(path, errno)
                }
                done += count
            }
        }
    }

    /// Flushes the temporary file to disk and renames it over the file.
    ///
    /// - Throws: ``CommandFailure`` (exit 1); the temporary file is then still there, for
    ///   ``discard()``.
    func commit() throws {
        guard fsync(descriptor) == 0 else { throw Self.failure(path, errno) }
        guard close(descriptor) == 0 else {
            descriptor = -1
            throw Self.failure(path, errno)
        }
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else { throw Self.failure(path, errno) }
        finished = true
    }

    /// Removes the temporary file, unless committed; does nothing the second time.
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !finished {
            unlink(temporaryPath)
            finished = true
        }
    }

    /// Whether the temporary file is gone: renamed over the file, or removed.
    private var finished = false

    private static func failure(_ path: String, _ code: Int32) -> CommandFailure {
        CommandFailure(
            message: "Cannot write \(path): \(String(cString: strerror(code))); nothing was written.", code: .runtimeError)
    }
}

/// `write(2)`, named apart from ``AtomicFile/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
