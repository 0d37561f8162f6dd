import CommandLineSupport

/// `persistence-tool completions bash|zsh|fish`: the shell completion script, generated from
/// the tool's command specs as `books` generates its own.
struct CompletionsCommand: PersistenceToolCommand {
    /// The shell to write the script for.
    let shell: CompletionScript.Shell

    /// `<shell>`: bash, zsh or fish.
    static let shellArgument = Argument<String>(
        "shell", choices: CompletionScript.Shell.allCases.map(\.rawValue), help: "The shell: bash, zsh or fish.")

    static let spec = PersistenceTool.spec(
        name: "completions",
        abstract: "Print a shell completion script.",
        discussion: """
            The script completes commands, options and their values. Load it in bash with
            'source <(persistence-tool completions bash)'.
            """,
        arguments: [shellArgument])

    static let examples: [CommandExample] = [
        CommandExample(
            "persistence-tool completions zsh > _persistence-tool",
            "Write the zsh completions, for a directory of $fpath."),
    ]

    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) {
        shell = parsed[Self.shellArgument].flatMap(CompletionScript.Shell.init(rawValue:)) ?? .bash
    }

    func run(in output: inout ToolOutput) throws(ToolError) -> ExitCode {
        output.print(CompletionScript(root: PersistenceTool.root).script(for: shell))
        return .success
    }
}
