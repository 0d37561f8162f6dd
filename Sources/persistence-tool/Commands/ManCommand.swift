import CommandLineSupport
import Persistence

/// `persistence-tool man`: the manual page, generated from the tool's command specs as
/// `books` generates its own.
struct ManCommand: PersistenceToolCommand {
    static let spec = PersistenceTool.spec(
        name: "man",
        abstract: "Print the manual page (roff).",
        discussion: "View it with 'persistence-tool man | man -l -'.")

    static let examples: [CommandExample] = [
        CommandExample("persistence-tool man | man -l -", "Read the manual page.")
    ]

    /// The manual's EXIT STATUS section, as the README states the codes.
    static let exitStatus: [(title: String, text: String)] = [
        (
            "Exit status",
            """
            0 success; 1 a runtime error, a path that is not a regular file or a read-only store; \
            64 a usage error; 65 bad data (naming the JSON path) or a refused store; 66 a missing \
            store, model or file.
            """
        )
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {}

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        let page = ManPage(root: PersistenceTool.root, version: PersistenceVersion.string, extraSections: Self.exitStatus)
        output.print(page.roff)
        return .success
    }
}
