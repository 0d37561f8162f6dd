import CommandLineSupport

/// `books man`.
struct ManCommand: BooksCommand, Equatable {
    /// The page is made from the specs: it runs whatever the store's location.
    static var usesStore: Bool { false }

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

    static let examples: [CommandExample] = [
        CommandExample("books man | man -l -", "Read the manual page."),
    ]
}

extension ManCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        let page = ManPage(root: BooksCommandLine.root, version: BooksCommandLine.version, extraSections: ManCommand.extraSections)
        try runner.output.write(page.roff)
        return .success
    }
}
