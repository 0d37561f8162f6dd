import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books edit <id> [--title] [--author] [--date] [--price] [--color] [--isbn] [--tag]
/// [--rating] [--status] [--notes]`: the values are kept as typed, and the catalogue checks them (65).
struct EditCommand: BooksCommand, Equatable {
    /// The book, as typed.
    var id: BookIDPrefix
    /// The changes, as typed.
    var edit: BookEdit

    var changesCatalogue: Bool { true }

    static let id = Argument<String>("id", help: BookIDHelp.text, validate: ValueFormats.bookID)
    static let title = Option<String>("title", valueName: "title", help: "The new title.")
    static let author = Option<[String]>(
        repeating: "author", valueName: "author",
        help: "An author's name; repeat for each author, first author first (replaces the authors).")
    static let date = Option<String>(
        "date", valueName: "date",
        help: "The publication date: yyyy-mm-dd, or yyyy-mm or yyyy when only that is known ('' for unknown).")
    static let price = Option<String>("price", valueName: "price", help: "The price, such as 12.99 ('' for unknown).")
    static let color = Option<String>("color", valueName: "#rrggbb", help: "The cover color ('' for none).")
    static let isbn = Option<String>(
        "isbn", valueName: "isbn", help: "An ISBN-10 or ISBN-13 with a valid check digit ('' for none).")
    static let rating = Option<String>("rating", valueName: "0-5", help: "Your rating, 0 to 5 ('' for none).")
    static let status = Option<String>(
        "status", valueName: "status", help: "to-read, reading or read ('' for none).")
    static let notes = Option<String>("notes", valueName: "text", help: "Your notes ('' for none).")
    static let tag = Option<[String]>(
        repeating: "tag", valueName: "+tag|-tag", help: "Add (+name) or remove (-name) a tag; repeatable.",
        takesDashedValues: true)
    static let series = Option<String>("series", valueName: "name", help: "The series ('' for none).")
    static let seriesNumber = Option<String>(
        "series-number", valueName: "number", help: "The number in the series, such as 1 or 2.5 ('' for none).")
    static let publisher = Option<String>("publisher", valueName: "name", help: "The publisher ('' for none).")
    static let pages = Option<String>("pages", valueName: "n", help: "The number of pages ('' for none).")
    static let format = Option<String>(
        "format", valueName: "binding", help: "The binding, such as Paperback or Kindle Edition ('' for none).")
    static let dateRead = Option<String>("read", valueName: "yyyy-mm-dd", help: "The day you last read it ('' for none).")
    static let readCount = Option<String>(
        "read-count", valueName: "n", help: "How many times you have read it ('' for none).")
    static let review = Option<String>("review", valueName: "text", help: "Your review ('' for none).")

    /// The options of every field but the title and authors, which `books add` takes too.
    static let fields: [any OptionDeclaration] = [
        date, price, color, isbn, tag, rating, status, notes, series, seriesNumber, publisher, pages, format,
        dateRead, readCount, review,
    ]

    static let spec = CommandSpec(
        name: "edit",
        abstract: "Change a book's fields.",
        discussion: """
            Changes only the fields given, in one save. If another process saved the same \
            book meanwhile, nothing is saved and the command says so; run it again.
            """,
        arguments: [id],
        options: [title, author] + fields)

    static let examples: [CommandExample] = [
        CommandExample("books edit A9EF420F --rating 5 --status read", "Rate a book and mark it read."),
        CommandExample("books edit A9EF420F --date 1961 --notes ''", "A year-only date, and no notes."),
        CommandExample("books edit A9EF420F --tag +scifi --tag -unread", "Tag a book scifi and take the tag unread off."),
    ]
}

extension EditCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        // The parser has checked the ID's form; a value it lets through is always a prefix.
        guard let id = parsed[EditCommand.id].flatMap(BookIDPrefix.init) else {
            throw parser.error(.missingArgument(EditCommand.id.spec.synopsis), path: [EditCommand.name])
        }
        self.init(
            id: id,
            edit: EditCommand.bookFields(parsed, title: parsed[EditCommand.title], authors: parsed[EditCommand.author] ?? []))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.edit(id, edit)
        return .success
    }

    /// The fields `books add` and `books edit` share, as typed.
    static func bookFields(_ parsed: ParsedArguments, title: String?, authors: [String]) -> BookEdit {
        BookEdit(
            title: title, authors: authors, date: parsed[EditCommand.date], price: parsed[EditCommand.price],
            color: parsed[EditCommand.color], isbn: parsed[EditCommand.isbn], rating: parsed[EditCommand.rating],
            status: parsed[EditCommand.status], notes: parsed[EditCommand.notes], tags: parsed[EditCommand.tag] ?? [],
            series: parsed[EditCommand.series], seriesNumber: parsed[EditCommand.seriesNumber],
            publisher: parsed[EditCommand.publisher], pages: parsed[EditCommand.pages],
            format: parsed[EditCommand.format], dateRead: parsed[EditCommand.dateRead],
            readCount: parsed[EditCommand.readCount], review: parsed[EditCommand.review])
    }
}

extension CommandRunner {
    /// `books edit`: nothing given is a usage error (64); the values are checked before the
    /// store is opened, and a missing store is not created.
    fileprivate func edit(_ id: BookIDPrefix, _ edit: BookEdit) throws {
        guard !edit.isEmpty else {
            throw CommandFailure(
                message: "Nothing to change: give at least one of --title, --author, --date, --price, --color, "
                    + "--isbn, --tag, --rating, --status, --notes, --series, --series-number, --publisher, "
                    + "--pages, --format, --read, --read-count, --review. See 'books help edit'.",
                code: .usage)
        }
        let checked = try edit.checked()
        let catalog = try openExistingCatalog(lookingFor: id)
        let book = try catalog.book(withID: id)
        try catalog.edit(book, with: checked)
        try afterChange("the book \(book.uuid.uuidString) was edited") {
            try output.write("Edited \(book.uuid.uuidString).\n")
        }
    }
}
