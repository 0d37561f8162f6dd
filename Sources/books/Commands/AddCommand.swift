import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books add --title <title> --author <author> --date <yyyy-mm-dd> --price <price>
/// [--color <#rrggbb>]`. The values are kept as typed: the catalogue checks them, and a
/// malformed one is bad data (65), not a usage error.
struct AddCommand: BooksCommand, Equatable {
    /// The new book's fields, as typed.
    var book: BookEdit
    /// `--allow-duplicate`.
    var allowDuplicate = false

    var changesCatalogue: Bool { true }

    static let title = Option<String>(
        "title", valueName: "title", help: "The title, 1 to 500 characters.", isRequired: true)
    static let author = Option<[String]>(
        repeating: "author", valueName: "author", help: "An author's name; repeat for each author, first author first.",
        isRequired: true)

    /// `--allow-duplicate`: add a book of the same title and authors as one already there.
    static let allowDuplicate = Flag(
        "allow-duplicate", help: "Add the book even when one of the same title and authors is already there.")

    static let spec = CommandSpec(
        name: "add",
        abstract: "Add a book.",
        discussion: """
            Takes every field books edit takes; only the title and an author are required \
            (an unknown date or price is shown as —). The price is a plain number with '.' \
            as decimal separator whatever the locale (12.99); it is kept exactly. Quote the \
            color: '#' starts a comment in the shell. A book of the same title and authors as \
            one already there is refused unless --allow-duplicate. Prints the new book's \
            line: its ID, title, author, date and price.
            """,
        options: [title, author] + EditCommand.fields + [allowDuplicate])

    static let examples: [CommandExample] = [
        CommandExample(
            "books add --title Ubik --author 'Philip K. Dick' --date 1969-05-01 --price 9",
            "Add a book and print its line (ID, title, author, date, price); --color '#1E90FF' would give it a cover color (quoted: '#' starts a comment in the shell)."),
    ]
}

extension AddCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(
            book: EditCommand.bookFields(
                parsed, title: parsed[AddCommand.title] ?? "", authors: parsed[AddCommand.author] ?? []),
            allowDuplicate: parsed[AddCommand.allowDuplicate])
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.add(book, allowDuplicate: allowDuplicate)
        return .success
    }
}

extension CommandRunner {
    /// `books add`: the fields are checked before the store is opened; a first command
    /// begins the reader's own catalogue (see `beginningTheReadersCatalogue`).
    fileprivate func add(_ fields: BookEdit, allowDuplicate: Bool) throws {
        let (book, catalog) = try beginningTheReadersCatalogue { isNew throws -> (Book, Catalog) in
            let checked = try fields.checked()
            let catalog = try openCatalog()
            if isNew { try catalog.declineSampleBooks() }
            return (try catalog.add(checked, allowingDuplicate: allowDuplicate), catalog)
        }
        try afterChange("the book \(book.uuid.uuidString) was added") {
            try printer().added(book, catalog: catalog)
        }
    }
}
