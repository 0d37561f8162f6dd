#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a command-line tool's output to a file descriptor, and says when it could not.
///
/// The executables (`books`, `persistence-tool`) send everything they print to standard
/// output through one writer, so that a failed write is never lost: `books list >
/// /dev/full` must not exit 0 as if the listing had been saved. A write that fails throws
/// ``OutputWriteError``, which the tool reports as `Error: could not write output: No space
/// left on device` before exiting 1.
///
/// A reader that went away (`books list | head -1`) is not an error: as `git` does, the
/// process then ends quietly by `SIGPIPE`, as it would have by default had it not been
/// ignored, so a pipeline's `head` never makes the tool complain.
package struct OutputWriter: Sendable {
    /// The descriptor written to.
    package let fileDescriptor: Int32

    /// A writer to `fileDescriptor` (standard output unless told otherwise).
    package init(fileDescriptor: Int32 = STDOUT_FILENO) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes every byte of `text`, retrying after short writes and `EINTR`.
    ///
    /// - Throws: ``OutputWriteError`` with the `errno` of the write that failed. A closed
    ///   pipe (`EPIPE`) does not return: the process ends by `SIGPIPE`.
    package func write(_ text: String) throws(OutputWriteError) {
        let bytes = Array(text.utf8)
        let failure: OutputWriteError? = bytes.withUnsafeBytes { buffer in
            do throws(OutputWriteError) {
                try write(bytes: buffer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes every byte of `bytes`, as ``write(_:)``.
    package func write(bytes: UnsafeRawBufferPointer) throws(OutputWriteError) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            if code == EINTR { continue }
            if code == EPIPE { Self.endByBrokenPipe() }
            throw OutputWriteError(code: code)
        }
    }

    /// Ends the process as an unhandled `SIGPIPE` would: quietly, with the status a shell
    /// shows as 141. (`git`'s `check_pipe` does the same when `SIGPIPE` was ignored.)
    package static func endByBrokenPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }

    private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, buffer, count)
        #else
            Darwin.write(descriptor, buffer, count)
        #endif
    }
}

/// Output that could not be written: the disk is full, the device refuses, ….
package struct OutputWriteError: Error, Sendable, CustomStringConvertible {
    /// The `errno` of the failed write.
    package var code: Int32

    /// Creates an error for `errno` `code`.
    package init(code: Int32) { self.code = code }

    /// "could not write output: No space left on device".
    package var description: String {
        "could not write output: \(String(cString: strerror(code)))"
    }
}
