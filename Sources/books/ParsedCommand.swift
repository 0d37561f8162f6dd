import BookCatalog
import Foundation

/// A `books` command line, parsed and checked: what to do and which store to do it on.
///
/// Produced by ``BooksCommandLine/parse(_:environment:)``; ``CommandRunner`` runs it.
struct ParsedCommand: Sendable {
    /// What the user asked for.
    enum Action: Sendable {
        /// Run this command (one of ``BooksCommands/all``, its values read).
        case run(any BooksCommand)
        /// `books help [COMMAND]`, `--help`, `-h` or no subcommand: print this text to
        /// standard output as is (it ends with a newline) and exit 0.
        case help(String)
        /// `books --version`: print ``BooksCommandLine/version`` and exit 0.
        case version
    }

    /// What to do.
    var action: Action
    /// The store file, resolved by ``StorePath/resolve(option:environment:)``.
    var storeURL: URL

    /// The command to run, nil for help and `--version`.
    var command: (any BooksCommand)? {
        guard case .run(let command) = action else { return nil }
        return command
    }

    /// Whether the command reads or writes the store (all but help, `--version` and the
    /// commands that print text made from the specs).
    var usesStore: Bool { command.map { type(of: $0).usesStore } ?? false }

    /// Whether the command changes the catalogue (see ``BooksCommand/changesCatalogue``).
    var changesCatalogue: Bool { command?.changesCatalogue ?? false }

    /// The command's name as the history records it, nil for commands that change nothing.
    var historyName: String? { command?.historyName }
}
