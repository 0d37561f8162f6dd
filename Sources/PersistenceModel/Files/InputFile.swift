import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an input file (a model, an archive to import) or standard input whole, with every
/// failure an error and a bound on the size.
///
/// `Data(contentsOf:)` blocks forever on a FIFO nobody writes to, and
/// `FileHandle.readDataToEndOfFile()` traps when standard input is a directory or closed
/// and reads `/dev/zero` until memory runs out. Here a directory, a missing or unreadable
/// file and a closed standard input are `InputFileError`s; a pipe is read up to
/// `maximumSize` bytes and refused beyond it.
package enum InputFile {
    /// The largest input read: 1 GiB. Inputs are parsed whole in memory, so a larger one
    /// (or an endless one such as `/dev/zero`) is refused rather than read until memory
    /// runs out.
    package static let maximumSize = 1 << 30

    /// The bytes of the file at `path`.
    ///
    /// A regular file is read whole; a pipe or character device (`<(command)`, a FIFO) is
    /// read until its end, up to `limit` bytes. A FIFO that no process has open for writing
    /// reads as empty rather than waiting for a writer. With `regularFileOnly` (for model
    /// files, which are never streams), anything but a regular file is refused.
    ///
    /// - Throws: `InputFileError`.
    ///
    /// - Parameter looksRight: called with the first bytes read; returns why they cannot
    ///   begin a valid input (so that `/dev/zero` given for a JSON file is refused at once,
    ///   not after `limit` bytes), or nil.
    package static func read(
        _ path: String, limit: Int = maximumSize, regularFileOnly: Bool = false,
        looksRight: ((Data) -> String?)? = nil
    ) throws(InputFileError) -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw InputFileError(.missing, path: path, reason: systemReason(errno))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw InputFileError(.isADirectory, path: path, reason: "it is a directory")
        case S_IFIFO where !regularFileOnly, S_IFCHR where !regularFileOnly: break
        default:
            throw InputFileError(.notARegularFile, path: path, reason: "it is not a regular file")
        }
        // O_NONBLOCK: opening a FIFO without a writer must not wait for one.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw InputFileError(.unreadable, path: path, reason: systemReason(errno))
        }
        defer { close(descriptor) }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return try read(descriptor: descriptor, name: path, limit: limit, looksRight: looksRight)
    }

    /// The bytes of standard input, up to `limit`.
    ///
    /// - Throws: `InputFileError`: `.isADirectory` when standard input is a directory,
    ///   `.unreadable` when it is closed or fails, `.tooLarge` beyond `limit`.
    package static func readStandardInput(
        limit: Int = maximumSize, looksRight: ((Data) -> String?)? = nil
    ) throws(InputFileError) -> Data {
        try read(descriptor: STDIN_FILENO, name: "standard input", limit: limit, looksRight: looksRight)
    }

    /// Reads `descriptor` to its end, refusing more than `limit` bytes (see
    /// `read(_:limit:regularFileOnly:looksRight:)`).
    package static func read(
        descriptor: Int32, name: String, limit: Int, looksRight: ((Data) -> String?)? = nil
    ) throws(InputFileError) -> Data {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            throw InputFileError(
                .unreadable, path: name, reason: code == EBADF ? "it is closed" : systemReason(code))
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw InputFileError(.isADirectory, path: name, reason: "it is a directory")
        }
        var data = Data()
        let chunkSize = 1 << 16
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                if code == EISDIR {
                    throw InputFileError(.isADirectory, path: name, reason: "it is a directory")
                }
                if code == EBADF {
                    throw InputFileError(.unreadable, path: name, reason: "it is closed")
                }
                throw InputFileError(.unreadable, path: name, reason: systemReason(code))
            }
            if count == 0 { return data }
            if data.count + count > limit {
                throw InputFileError(
                    .tooLarge, path: name,
                    reason: "it holds more than \(limit) bytes, the most that is read")
            }
            let isFirst = data.isEmpty
            data.append(contentsOf: chunk[0..<count])
            if isFirst, let looksRight, let problem = looksRight(data) {
                throw InputFileError(.malformed, path: name, reason: problem)
            }
        }
    }

    private static func systemReason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// An input that cannot be read: what is wrong, the file (or "standard input") and why.
package struct InputFileError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the input.
    package enum Kind: Sendable {
        /// Nothing is at the path.
        case missing
        /// The path names a directory.
        case isADirectory
        /// The path names a FIFO, device or socket where only a file will do.
        case notARegularFile
        /// It cannot be opened or read (permissions, a closed descriptor, an I/O error).
        case unreadable
        /// It holds more than the bound (`InputFile.maximumSize`), or never ends.
        case tooLarge
        /// Its first bytes cannot begin the expected format.
        case malformed
    }

    /// What is wrong.
    package let kind: Kind
    /// The file, or "standard input".
    package let path: String
    /// The reason, as a phrase.
    package let reason: String

    /// An error of `kind` for `path`.
    package init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// "<path> can't be read: <reason>".
    package var description: String { "\(path) can't be read: \(reason)" }
}

/// `read(2)`, named apart from `InputFile.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
