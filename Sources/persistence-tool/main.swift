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
        subcommands: [ModelCommands.group, StoreCommands.group])
}

var output = ToolOutput()
let code = PersistenceTool.root.run(
    Array(CommandLine.arguments.dropFirst()), path: ["persistence-tool"], output: &output)
output.flush()
exit(code.rawValue)
