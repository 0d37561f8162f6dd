import CommandLineSupport
import Foundation
import Persistence

/// Where a command writes: text for standard output and lines for standard error.
///
/// Both are collected and written at the end by ``flush()``, standard output through
/// `OutputWriter`, so that a failed write (`persistence-tool … > /dev/full`) is reported and
/// ends the process with 1 instead of passing unseen.
struct ToolOutput {
    private(set) var standardOutput = ""
    private(set) var standardError = ""

    /// Adds text to standard output, ending it with a newline if it has none.
    mutating func print(_ text: String) {
        standardOutput += text.hasSuffix("\n") ? text : text + "\n"
    }

    /// Adds a line to standard error, with any password in a store location it echoes
    /// hidden (`SecretRedaction`): standard error carries messages only, never data.
    mutating func error(_ line: String) {
        let line = SecretRedaction.redacting(line)
        standardError += line.hasSuffix("\n") ? line : line + "\n"
    }

    /// Writes what was collected to the process's streams; returns `code`, or 1 when
    /// standard output could not be written (then said on standard error).
    func flush(exitCode code: ExitCode) -> ExitCode {
        var errors = standardError
        var code = code
        do throws(OutputWriteError) {
            try OutputWriter().write(standardOutput)
        } catch {
            errors += "error: \(error)\n"
            code = .runtimeError
        }
        try? OutputWriter(fileDescriptor: STDERR_FILENO).write(errors)
        return code
    }
}
