import CommandLineSupport

/// A command's failure: its exit code and the message for standard error.
struct ToolError: Error {
    var code: ExitCode
    var message: String
    /// Whether ``message`` is a list of problems, a line each, every line already escaped
    /// (`model validate`'s; several objects that fail validation or conflict on a save).
    var isListOfProblems = false

    /// A usage error found by a command's action (the parser finds the others): `Error: …`,
    /// then a pointer to the command's help, on one line.
    static func usage(_ message: String) -> ToolError {
        ToolError(code: .usage, message: "Error: \(message)")
    }
}
