import Foundation
import PersistenceModel

extension StoreArchive {
    /// Writes every object the context can fetch as archive JSON to a file: the text
    /// `exportJSON(from:)` returns, followed by a newline when `finalNewline` is set.
    ///
    /// The text is written as objects are read, a page at a time, so memory stays flat
    /// however large the store (a context with unsaved changes first maps every object's
    /// place, see `StoreArchiveWriter`). It goes to a temporary file beside `url` that is
    /// renamed over `url` only when the export is complete: on any error `url` is left as
    /// it was (absent, or the previous file) and the temporary file is removed.
    ///
    /// - Throws: `StoreArchiveError` naming the file when it cannot be written or renamed;
    ///   the store's `PersistentStoreFailure` when it cannot be read;
    ///   `ValueTransformerError` when a transformable value cannot be encoded.
    public static func exportJSON(from context: ManagedObjectContext, to url: URL, finalNewline: Bool = false) throws {
        let path = url.path
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
        var output = try ArchiveFileOutput(path: temporary, reportedPath: path)
        do {
            try StoreArchiveWriter(context: context).write { try output.write($0) }
            if finalNewline { try output.write("\n") }
            try output.finish()
            guard rename(temporary, path) == 0 else {
                throw output.failure("renamed into place", errno: errno)
            }
        } catch {
            output.abandon()
            throw error
        }
    }
}

/// A file written through a buffer, for `StoreArchive.exportJSON(from:to:)`: whole chunks
/// of about 64 KB go to the file, so that neither a page's text nor a write per piece adds
/// up.
struct ArchiveFileOutput {
    private let handle: UnsafeMutablePointer<FILE>
    private let path: String
    private let reportedPath: String
    private var buffer: [UInt8] = []
    private var isClosed = false
    private static let chunkSize = 1 << 16

    /// Creates (or truncates) the file at `path`; errors name `reportedPath`, the file the
    /// user asked for.
    ///
    /// - Throws: `StoreArchiveError` when the file cannot be created.
    init(path: String, reportedPath: String) throws {
        self.path = path
        self.reportedPath = reportedPath
        guard let handle = fopen(path, "wb") else {
            throw StoreArchiveError(
                location: reportedPath,
                reason: "the export could not be written: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        buffer.reserveCapacity(Self.chunkSize * 2)
    }

    /// Appends text, writing the buffer out when it holds a chunk.
    mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunkSize { try drain() }
    }

    /// Writes what is buffered, makes the file durable and closes it.
    mutating func finish() throws {
        try drain()
        isClosed = true
        let flushed = fflush(handle) == 0 && fsync(fileno(handle)) == 0
        let code = errno
        let closed = fclose(handle) == 0
        guard flushed, closed else { throw failure("written", errno: code) }
    }

    /// Closes (if open) and removes the file after a failure.
    mutating func abandon() {
        if !isClosed {
            isClosed = true
            fclose(handle)
        }
        unlink(path)
    }

    /// An error naming the file the user asked for: "the export could not be `action`:
    /// <the system's reason>".
    func failure(_ action: String, errno code: Int32) -> StoreArchiveError {
        StoreArchiveError(
            location: reportedPath,
            reason: "the export could not be \(action): \(String(cString: strerror(code)))")
    }

    private mutating func drain() throws {
        guard !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        guard written == buffer.count else { throw failure("written", errno: errno) }
        buffer.removeAll(keepingCapacity: true)
    }
}
