import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A finished child process: its exit status, wall time and peak resident memory.
struct ChildResult {
    var status: Int32
    var seconds: Double
    /// Peak resident set size in megabytes (`ru_maxrss` from `wait4`, which is the
    /// child's `VmHWM` from `/proc/<pid>/status` at exit).
    var peakMegabytes: Double
}

/// Errors starting or running a child process.
struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
}

/// Runs `executable` with `arguments` through the `peak-rss` helper (beside this
/// executable), its stdout to `output` and stderr to `/dev/null`, and waits for it.
///
/// - Throws: `ChildProcessError` if it cannot start or exits with a non-zero status.
func runChild(_ executable: String, _ arguments: [String], output: String = "/dev/null") throws -> ChildResult {
    let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("peak-rss").path
    let report = NSTemporaryDirectory() + "books-bench-peak-\(getpid()).txt"
    defer { try? FileManager.default.removeItem(atPath: report) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, report, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([helper, output, executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["LANG"] = "en_US.UTF-8"
    environment["TZ"] = "UTC"
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, helper, &actions, nil, argv, envp)
    guard spawned == 0 else {
        throw ChildProcessError(description: "Could not start \(helper): \(String(cString: strerror(spawned))).")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    guard exitStatus == 0 else {
        throw ChildProcessError(
            description: "\(executable) \(arguments.joined(separator: " ")) exited with status \(exitStatus).")
    }
    let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ")
    guard fields.count == 2, let kilobytes = Double(fields[0]),
        let seconds = Double(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw ChildProcessError(description: "peak-rss wrote no measurement for \(executable).") }
    return ChildResult(status: exitStatus, seconds: seconds, peakMegabytes: kilobytes / 1024)
}
