import CommandLineSupport
import Foundation
import Persistence

/// The tool's command tree. Add a command group to `root.subcommands`.
enum PersistenceTool {
    /// The tool's version, the library's.
    static let version = "persistence-tool \(PersistenceVersion.string)"

    /// The top-level command.
    static let root = ToolCommand(
        name: "persistence-tool",
        abstract: "Inspect Persistence model files and fill, read and edit their stores.",
        options: [Flag("version", help: "Show the version.")],
        subcommands: [
            ModelCommands.group, StoreCommands.group, DocumentationCommands.completions, DocumentationCommands.man,
        ])
}

// The arguments are read as bytes: one that is not UTF-8 is refused (65) rather than
// silently read with U+FFFD in place of its bytes.
let arguments: [String]
switch ProcessArguments.decoded() {
case .success(let decoded): arguments = decoded
case .failure(let error):
    try? OutputWriter(fileDescriptor: STDERR_FILENO).write("error: The \(error); nothing was done.\n")
    exit(ExitCode.dataError.rawValue)
}
var output = ToolOutput()
let code = PersistenceTool.root.run(arguments, output: &output)
exit(output.flush(exitCode: code).rawValue)
