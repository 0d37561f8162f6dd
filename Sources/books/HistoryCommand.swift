import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books history [--limit <n>]`.
enum HistoryCommand {
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
}

/// `books undo`.
enum UndoCommand {
    static let spec = CommandSpec(
        name: "undo",
        abstract: "Undo the last command that changed the catalogue.",
        discussion: """
            Reverses every change of the last seed, add, edit or delete (or import), all of \
            it or nothing, from the catalogue's history: added books are removed, edited ones get \
            their old values and tags back, deleted ones come back with their tags. An undo \
            is not undone by the next one: undo twice undoes the last two commands. If \
            a book the command changed was changed since by another command, \
            or the history lacks a value to put back, nothing is changed and undo says which \
            book (exit 1); so it does when there is nothing to undo. A large command is \
            reversed a thousand books at a time in one transaction of the store, with \
            progress on a terminal; SIGINT, SIGTERM or SIGHUP stop it with nothing \
            changed. books redo takes the last undo back.
            """)
}

/// `books redo`.
enum RedoCommand {
    static let spec = CommandSpec(
        name: "redo",
        abstract: "Redo what the last undo took back.",
        discussion: """
            Reverses the last undo, all of it or nothing, as long as no other command changed the \
            catalogue after it; redo again for the undo before it. A redo is a command like \
            the others: undo takes it back. If a book it would change was changed since, \
            nothing is changed and redo says which (exit 1); so it does when there is \
            nothing to redo.
            """)
}

extension ParsedCommand.Action {
    /// Whether the command changes the catalogue, so that its store records the change in its
    /// persistent history.
    var changesCatalogue: Bool {
        switch self {
        case .seed, .add, .edit, .delete, .undo, .redo: true
        // A dry run writes nothing: it does not begin the history either.
        case .import(let options): !options.dryRun
        default: false
        }
    }

    /// The command's name as the history records it (`edit` for `books edit`); nil for
    /// commands that change nothing.
    var commandName: String? {
        switch self {
        case .seed: "seed"
        case .add: "add"
        case .edit: "edit"
        case .delete: "delete"
        case .import: "import"
        case .undo: "undo"
        case .redo: "redo"
        default: nil
        }
    }
}

extension BookPrinter {
    /// `books history`: a line per transaction, then a line for each of its first books.
    ///
    /// ```
    /// #3  2026-11-26T10:41:08Z  books edit: updated 1 book
    ///       updated  A9EF420F  Solaris: price, title
    /// ```
    func history(_ entries: [CatalogHistoryEntry], ids: ShortIDs) throws {
        var text = ""
        for entry in entries {
            let whole = Date(timeIntervalSince1970: entry.timestamp.timeIntervalSince1970.rounded(.down))
            var summary: [String] = []
            for (type, verb) in [(PersistentHistoryChangeType.insert, "added"), (.update, "updated"), (.delete, "deleted")] {
                if let count = entry.counts[type] { summary.append("\(verb) \(CountText.books(count))") }
            }
            var command = entry.command.map(QuotedText.forDisplay) ?? "another program"
            if !entry.undid.isEmpty { command += " of " + Catalog.transactionList(entry.undid) }
            let numbers = entry.firstNumber == entry.number ? "#\(entry.number)" : "#\(entry.firstNumber)–\(entry.number)"
            if summary.isEmpty { summary = ["changed no book"] }
            text += "\(numbers)  \(DateText.formatISO8601(whole))  \(command): \(summary.joined(separator: ", "))\n"
            for change in entry.books {
                let verb = change.type == .insert ? "added  " : change.type == .update ? "updated" : "deleted"
                guard let uuid = change.uuid else {
                    text += "    \(verb)  a book no longer in the catalogue\n"
                    continue
                }
                var line = "    \(verb)  \(ids.shortID(of: uuid))  \(QuotedText.forDisplay(change.title ?? ""))"
                let fields = change.properties.filter { !Self.derivedProperties.contains($0) }
                if change.type == .update && !fields.isEmpty { line += ": " + fields.joined(separator: ", ") }
                text += line + "\n"
            }
            let total = entry.counts.values.reduce(0, +)
            if total > entry.books.count { text += "    … and \(CountText.books(total - entry.books.count)) more\n" }
        }
        try output.write(text)
    }

    /// Properties a save writes because others changed: not what the user changed.
    private static let derivedProperties: Set<String> = ["canonicalTitle"]
}
