import BookCatalog
import CommandLineSupport
import Foundation

/// `books history [--limit <n>]`.
struct HistoryCommand: BooksCommand, Equatable {
    /// How many changes to show.
    var limit: Int

    /// How many changes `history` shows without `--limit`.
    static let defaultLimit = 10
    /// `--limit <n>`: how many changes to show.
    static let limit = Option<Int>(
        "limit", range: 1...10_000, help: "Show the last N changes (default \(defaultLimit)).")

    static let spec = CommandSpec(
        name: "history",
        abstract: "Show the last changes to the catalogue.",
        discussion: """
            Newest first: when (UTC), which command, and what it did to which books, from \
            the catalogue's persistent history. The catalogue records its history from the \
            first command that changes it (seed, add, edit, delete, import, undo); a book deleted \
            since is shown without its title. Reads only.
            """,
        options: [limit])

    static let examples: [CommandExample] = [
        CommandExample("books history --limit 3", "The last three commands that changed the catalogue, and what they changed."),
    ]
}

extension HistoryCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(limit: parsed[HistoryCommand.limit] ?? HistoryCommand.defaultLimit)
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.history(limit: limit)
        return .success
    }
}

extension CommandRunner {
    /// `books history`: nothing to read is not an error: a note on standard error, exit 0.
    /// Never creates the catalogue.
    fileprivate func history(limit: Int) throws {
        guard storeExists else {
            Terminal.write("No changes recorded: there is no catalogue at \(command.storeURL.path).\n", to: STDERR_FILENO)
            return
        }
        let printer = printer()
        let catalog = try openCatalog()
        let entries = try catalog.history(limit: limit)
        guard !entries.isEmpty else {
            Terminal.write("No changes recorded yet.\n", to: STDERR_FILENO)
            return
        }
        try printer.history(entries, ids: try catalog.shortIDs())
    }
}
