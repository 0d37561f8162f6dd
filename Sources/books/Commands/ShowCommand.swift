import BookCatalog
import CommandLineSupport
import Foundation

/// `books show <id>`.
struct ShowCommand: BooksCommand, Equatable {
    /// The book, as typed.
    var id: BookIDPrefix

    static let id = Argument<String>("id", help: BookIDHelp.text, validate: ValueFormats.bookID)

    static let spec = CommandSpec(name: "show", abstract: "Show one book.", arguments: [id])

    static let examples: [CommandExample] = [
        CommandExample("books show A9EF420F", "One book, by the ID a listing shows (or any unique prefix)."),
    ]
}

extension ShowCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        // The parser has checked the ID's form; a value it lets through is always a prefix.
        guard let id = parsed[ShowCommand.id].flatMap(BookIDPrefix.init) else {
            throw parser.error(.missingArgument(ShowCommand.id.spec.synopsis), path: [ShowCommand.name])
        }
        self.init(id: id)
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        // A missing store has no such book, and is not created to say so.
        let printer = runner.printer()
        let catalog = try runner.openExistingCatalog(lookingFor: id)
        try printer.show(try catalog.book(withID: id), catalog: catalog)
        return .success
    }
}
