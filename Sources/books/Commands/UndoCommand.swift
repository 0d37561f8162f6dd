import BookCatalog
import CommandLineSupport
import Foundation

/// `books undo`.
struct UndoCommand: BooksCommand, Equatable {
    var changesCatalogue: Bool { true }

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

    static let examples: [CommandExample] = [
        CommandExample("books undo", "Undo the last seed, add, edit, delete or import, all of it or nothing."),
    ]
}

extension UndoCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        guard runner.storeExists else { throw CatalogUndoError.nothingToUndo }
        let undone = try runner.reversing("Undoing") { catalog, stop, progress in
            try catalog.undo(shouldStop: stop, progress: progress)
        }
        let report = CommandRunner.report(
            "Undid", undone, verbs: [.update: "set back", .insert: "brought back", .delete: "removed"])
        try runner.afterChange("the undo was saved") { try runner.output.write(report + "\n") }
        return .success
    }
}
