import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A built tool kept running between a test's steps: each `send(_:)` writes one command
/// line to its standard input and reads one answer line from its standard output. Standard
/// error is drained all along on a thread of its own (a child that fills an unread pipe
/// blocks), and told in the error when the child stops answering.
///
/// Not Sendable: drive one from one test.
public final class InteractiveProcess {
    /// The running process.
    public let process: Process
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let errorText = LockedData()
    /// Output read past the last answer line.
    private var pending = Data()
    /// How long an answer may take before the child is taken for stuck.
    private let timeoutMilliseconds: Int32

    /// Starts `executable` with `arguments`.
    ///
    /// - Throws: what `Process.run()` throws when the executable cannot be started.
    public init(_ executable: URL, arguments: [String] = [], timeout seconds: Int32 = 20) throws {
        timeoutMilliseconds = seconds * 1000
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let handle = errors.fileHandleForReading
        let errorText = self.errorText
        Thread.detachNewThread {
            while case let chunk = handle.availableData, !chunk.isEmpty { errorText.append(chunk) }
        }
    }

    /// Ends the child if a test left it running: it is killed (a child that stopped
    /// answering may not read the end of its input, and SIGTERM may be blocked in it).
    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Writes `command` as one line and returns the child's answer line (without its
    /// newline).
    ///
    /// - Throws: ``Failure`` when the child exits or does not answer in time, with what it
    ///   wrote to standard error.
    @discardableResult
    public func send(_ command: String) throws -> String {
        // Writing to a child that is gone would raise SIGPIPE.
        guard process.isRunning else { throw failure("exited before \(command) was sent") }
        do {
            try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
        } catch {
            throw failure("could not be sent \(command): \(error)")
        }
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                return String(decoding: line, as: UTF8.self)
            }
            var poller = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeoutMilliseconds) > 0 else { throw failure("did not answer \(command) in time") }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw failure("exited before answering \(command)") }
            pending.append(chunk)
        }
    }

    /// Closes the child's standard input and waits for it to exit.
    ///
    /// - Returns: its exit status.
    @discardableResult
    public func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A child that stopped answering, with what it wrote to standard error.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var reason: String
        /// The child's standard error so far.
        public var stderr: String

        public var description: String { "The child process \(reason); stderr: \(stderr)" }
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: reason, stderr: String(decoding: errorText.data, as: UTF8.self))
    }

    /// Standard error as read so far, written by the draining thread and read by the test's.
    /// Unchecked: every access holds the lock.
    private final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()

        var data: Data { lock.withLock { bytes } }

        func append(_ chunk: Data) { lock.withLock { bytes.append(chunk) } }
    }
}
