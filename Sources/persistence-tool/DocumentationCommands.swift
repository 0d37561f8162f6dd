import CommandLineSupport
import Persistence

/// `persistence-tool completions bash|zsh|fish` and `persistence-tool man`: the shell
/// completion scripts and the manual page, generated from the tool's command specs as
/// `books` generates its own.
enum DocumentationCommands {
    /// The shell to write the script for.
    static let shell = Argument<String>(
        "shell", choices: CompletionScript.Shell.allCases.map(\.rawValue), help: "The shell: bash, zsh or fish.")

    static let completions: ToolCommand = ToolCommand(
        name: "completions",
        abstract: "Print a shell completion script.",
        discussion: """
            The script completes commands, options and their values. Load it in bash with
            'source <(persistence-tool completions bash)'.
            """,
        arguments: [shell],
        action: { arguments, output throws(ToolError) in
            let shell = arguments[DocumentationCommands.shell].flatMap(CompletionScript.Shell.init(rawValue:)) ?? .bash
            output.print(CompletionScript(root: PersistenceTool.root.spec).script(for: shell))
            return .success
        })

    static let man: ToolCommand = ToolCommand(
        name: "man",
        abstract: "Print the manual page (roff).",
        discussion: "View it with 'persistence-tool man | man -l -'.",
        action: { _, output throws(ToolError) in
            let page = ManPage(root: PersistenceTool.root.spec, version: PersistenceVersion.string, extraSections: exitStatus)
            output.print(page.roff)
            return .success
        })

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
}
