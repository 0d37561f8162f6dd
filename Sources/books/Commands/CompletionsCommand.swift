import CommandLineSupport

/// `books completions bash|zsh|fish`.
struct CompletionsCommand: BooksCommand, Equatable {
    /// The shell to write the script for.
    var shell: CompletionScript.Shell

    /// The script is made from the specs: it runs whatever the store's location.
    static var usesStore: Bool { false }

    /// The shell to write the script for.
    static let shell = Argument<String>(
        "shell", choices: CompletionScript.Shell.allCases.map(\.rawValue),
        help: "The shell: bash, zsh or fish.")

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script.",
        discussion: """
            The script completes commands, options and their values (such as the shell \
            names here). Load it in bash with 'source <(books completions bash)'; for zsh \
            write it to a directory of $fpath as _books; for fish write it to \
            ~/.config/fish/completions/books.fish.
            """,
        arguments: [shell])

    static let examples: [CommandExample] = [
        CommandExample(
            "books completions bash > ~/.local/share/bash-completion/completions/books",
            "Install bash completions (bash-completion loads them on first use)."),
        CommandExample("books completions fish > ~/.config/fish/completions/books.fish", "Install fish completions."),
    ]
}

extension CompletionsCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(shell: parsed[CompletionsCommand.shell].flatMap(CompletionScript.Shell.init(rawValue:)) ?? .bash)
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.output.write(CompletionScript(root: BooksCommandLine.root).script(for: shell))
        return .success
    }
}
