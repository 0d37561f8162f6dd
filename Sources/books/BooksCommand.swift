import CommandLineSupport

/// A command of `books`: a ``CLICommand`` that runs against the catalogue with a
/// ``CommandRunner``, and says what the catalogue's history needs to know of it.
///
/// Each command is one type in `Commands/`, holding its spec, examples, the reading of its
/// parsed values and its run; ``BooksCommands/all`` lists them, and the root spec (so the
/// help, the manual page and the completion scripts), the dispatch and the history all come
/// from that list. The defaults fit a command that only reads: it uses the store and changes
/// nothing.
protocol BooksCommand: CLICommand where Context == CommandRunner {
    /// Whether the command uses the catalogue at all: false for those that only print text
    /// generated from the specs (`completions`, `man`), which then run whatever the store's
    /// location, as help does.
    static var usesStore: Bool { get }

    /// Whether this run changes the catalogue, so that its store records the change in its
    /// persistent history and its saves share one name (so that `undo` reverses them
    /// together). A listing that creates and seeds a new catalogue records that seed itself
    /// (``CommandRunner/openSeededCatalog()``).
    var changesCatalogue: Bool { get }

    /// The command's name as the history records it (`edit` for `books edit`), nil for
    /// commands that change nothing.
    var historyName: String? { get }
}

extension BooksCommand {
    static var usesStore: Bool { true }

    var changesCatalogue: Bool { false }

    /// The command's own name for a command that changes the catalogue, else nil.
    var historyName: String? { changesCatalogue ? Self.name : nil }
}
