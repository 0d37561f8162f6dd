import CommandLineSupport

// The commands of `books` that print its own documentation, generated from the command
// specs: shell completion scripts and the manual page.

/// `books completions bash|zsh|fish`.
enum CompletionsCommand {
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
}

/// `books man`.
enum ManCommand {
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the manual page (roff).",
        discussion: "View it with 'books man | man -l -', or install it as books.1 in a man directory.")

    /// The sections of the page that are not about one command.
    static let extraSections: [(title: String, text: String)] = [
        (
            "Environment",
            """
            BOOKS_STORE: the store file when --store is not given; else XDG_DATA_HOME/books/Books.sqlite, \
            else ~/.local/share/books/Books.sqlite.

            LC_ALL, LC_TIME, LC_MONETARY, LANG: month names, dates and prices; LC_ALL, LC_COLLATE, \
            LANG: the order of titles, authors and series (the language's alphabet, leading \
            articles skipped; the C locale sorts by the folded text's bytes); TZ: times. \
            NO_COLOR: no colors even on a terminal.
            """
        ),
        (
            "Exit status",
            """
            0 success; 1 a runtime error; 64 a usage error (an unknown option, a malformed \
            --where predicate or search); 65 bad data (a malformed value, seed file or \
            store); 66 a missing input; 128 + N a seed stopped by signal N.
            """
        ),
    ]
}
