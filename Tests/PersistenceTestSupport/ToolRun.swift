import Foundation
import ProcessTestSupport

/// One run of the built `persistence-tool`, with what it printed and its exit status.
package struct ToolRun: CustomStringConvertible {
    package let status: Int32
    package let stdout: String
    package let stderr: String

    package var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    package var description: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }

    /// Runs the tool with `arguments`, `input` on standard input, and a fixed, plain
    /// environment.
    package init(_ arguments: [String], input: Data? = nil) throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.environment = [
            "LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "PATH": "/usr/bin:/bin",
        ]
        let run = try ChildProcess.run(process, input: input)
        status = run.status
        stdout = run.stdoutText
        stderr = run.stderrText
    }

    /// The built `persistence-tool`.
    package static func executable() throws -> URL {
        try BuiltProduct.executable(named: "persistence-tool")
    }
}
