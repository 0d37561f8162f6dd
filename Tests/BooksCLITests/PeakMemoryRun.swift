import Foundation

/// One run of the built `books` binary whose peak resident memory is known: its `VmHWM`
/// (the high-water mark of its resident set, which only grows) read from
/// `/proc/<pid>/status` every few milliseconds while it runs, the last reading kept.
///
/// Why not `wait4`'s `ru_maxrss`: Linux carries the high-water mark across `execve` from the
/// process that spawned it, so a child of the (large) test process would report the test
/// process's size. `VmHWM` is the exec'd program's own. Standard output and error go to
/// files, read after it ends.
struct PeakMemoryRun: CustomStringConvertible {
    /// The exit status.
    let status: Int32
    /// The largest resident set the child was seen to have, in bytes.
    let peakBytes: Int
    let stdout: String
    let stderr: String

    var description: String { "status \(status), peak \(peakBytes / 1_048_576) MB\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// Runs `books` with `arguments` and exactly `environment`, stdin closed.
    init(_ arguments: [String], environment: [String: String], in directory: URL) throws {
        let out = directory.appendingPathComponent("peak-\(UUID().uuidString).out")
        let err = directory.appendingPathComponent("peak-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let process = Process()
        process.executableURL = try BooksRun.executable()
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        let status = "/proc/\(process.processIdentifier)/status"
        var peak = 0
        while process.isRunning {
            if let kilobytes = Self.highWaterMark(status) { peak = max(peak, kilobytes * 1_024) }
            usleep(5_000)
        }
        process.waitUntilExit()
        self.status = process.terminationStatus
        peakBytes = peak
        stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
    }

    /// The `VmHWM` line of a `/proc/<pid>/status` file, in kB; nil once the process is gone.
    private static func highWaterMark(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "")
    }
}
