import Foundation

/// What a finished child process printed, and how it ended.
public struct ChildProcessOutput: Sendable {
    /// The exit status (or, for a process ended by a signal, what `Process` reports).
    public var status: Int32
    /// Standard output, raw.
    public var stdout: Data
    /// Standard error, raw.
    public var stderr: Data

    /// Standard output as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// The one way the test targets run a built tool: every CLI test goes through it, so that no
/// copy can read one pipe to its end before the other (a child that fills the unread pipe
/// blocks, and the test with it).
public enum ChildProcess {
    /// Starts `process` with its standard output and error on pipes, writes `input` to its
    /// standard input when given (otherwise standard input is whatever the caller set),
    /// reads both pipes at once, each on its own thread, and waits for the process to end.
    ///
    /// - Throws: what `Process.run()` throws when the executable cannot be started.
    public static func run(_ process: Process, input: Data? = nil) throws -> ChildProcessOutput {
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        if input != nil { process.standardInput = stdin }
        try process.run()
        let group = DispatchGroup()
        let errors = DataBox()
        group.enter()
        DispatchQueue.global().async {
            errors.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let input {
            group.enter()
            DispatchQueue.global().async {
                // A child that exits without reading makes the write fail: that is its
                // business, and its output still says what happened.
                try? stdin.fileHandleForWriting.write(contentsOf: input)
                try? stdin.fileHandleForWriting.close()
                group.leave()
            }
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ChildProcessOutput(status: process.terminationStatus, stdout: output, stderr: errors.data)
    }

    /// Runs `script` with `/bin/sh -c`, `arguments` as its `"$@"`, exactly `environment`
    /// (nothing inherited) and standard input closed, as ``run(_:input:)`` runs a process.
    ///
    /// For what `Process` cannot set up itself: standard output on `/dev/full`, an argument
    /// made of bytes that are not UTF-8 (`printf` makes them), a signal disposition
    /// inherited from the shell.
    ///
    /// - Throws: what `Process.run()` throws when `/bin/sh` cannot be started.
    public static func runScript(
        _ script: String, arguments: [String] = [], environment: [String: String]
    ) throws -> ChildProcessOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh"] + arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        return try run(process)
    }

    /// Data handed from a reading thread to the waiting one. Unchecked: each box is written
    /// by one thread before it leaves the dispatch group and read only after the group is
    /// waited for, so the two accesses never overlap.
    private final class DataBox: @unchecked Sendable { var data = Data() }
}
