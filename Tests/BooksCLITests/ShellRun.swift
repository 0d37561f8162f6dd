import Foundation
import ProcessTestSupport

/// One run of a `/bin/sh` script that starts `books`, for what `Process` cannot set up
/// itself: standard output on `/dev/full` or into a pipe its reader closes, an argument
/// made of bytes that are not UTF-8 (`printf` makes them; `Process` only passes `String`s),
/// a signal disposition inherited from the shell.
///
/// The script sees the binary's path as `$BOOKS` and `arguments` as `"$@"`.
struct ShellRun: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard error split into non-empty lines.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var description: String { "status \(status)\nstdout: \(stdout.prefix(2_000))\nstderr: \(stderr)" }

    /// Runs `script` with `arguments` as its positional parameters and exactly
    /// `environment` plus `BOOKS`.
    init(_ script: String, arguments: [String] = [], environment: [String: String]) throws {
        let run = try ChildProcess.runScript(
            script, arguments: arguments,
            environment: environment.merging(["BOOKS": try BooksRun.executable().path]) { $1 })
        status = run.status
        stdout = run.stdoutText
        stderr = run.stderrText
    }
}

extension BooksSandbox {
    /// The files in the sandbox's directory, recursively, as paths relative to it.
    func files() throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    /// Runs `script` (see ``ShellRun``) with the sandbox's environment; `$STORE` is the store.
    func shell(_ script: String, arguments: [String] = [], extra: [String: String] = [:]) throws -> ShellRun {
        try ShellRun(script, arguments: arguments, environment: environment(extra: ["STORE": store.path].merging(extra) { $1 }))
    }
}
