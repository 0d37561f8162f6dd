import BookCatalog
import CommandLineSupport
import Foundation

/// `books redo`.
struct RedoCommand: BooksCommand, Equatable {
    var changesCatalogue: Bool { true }

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

    static let examples: [CommandExample] = [
        CommandExample("books redo", "Take back the last undo."),
    ]
}

extension RedoCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        guard runner.storeExists else { throw CatalogUndoError.nothingToRedo }
        let redone = try runner.reversing("Redoing") { catalog, stop, progress in
            try catalog.redo(shouldStop: stop, progress: progress)
        }
        let report = CommandRunner.report(
            "Redid", redone, verbs: [.update: "changed", .insert: "added", .delete: "removed"])
        try runner.afterChange("the redo was saved") { try runner.output.write(report + "\n") }
        return .success
    }
}
