import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books delete [<id> ...] [--where <predicate>] [--yes]`.
struct DeleteCommand: BooksCommand, Equatable {
    /// The books to delete.
    var options: DeleteOptions

    var changesCatalogue: Bool { true }

    static let ids = Argument<[String]>(
        repeating: "id", help: BookIDHelp.text, isRequired: false, validate: ValueFormats.bookID)
    /// `--where <predicate>`: every book the predicate matches.
    static let predicate = Option<String>(
        "where", valueName: "predicate", help: "Delete every book matching PREDICATE, such as \"price < 15\".",
        validate: ValueFormats.nonBlank)
    /// `-y, --yes`: no confirmation.
    static let yes = Flag("yes", shortName: "y", help: "Delete without asking.")

    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete books.",
        discussion: """
            Deletes the books named by their IDs, and those --where matches, in one save. On \
            a terminal it lists them and asks first; elsewhere (a script, a pipe) it needs \
            --yes, and without it deletes nothing.
            """,
        arguments: [ids],
        options: [predicate, yes])

    static let examples: [CommandExample] = [
        CommandExample("books delete A9EF420F", "Delete one book (on a terminal, after asking)."),
        CommandExample("books delete --where 'status == \"to-read\"' --yes", "Delete every book a predicate matches, without asking."),
    ]
}

extension DeleteCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        self.init(
            options: DeleteOptions(
                ids: (parsed[DeleteCommand.ids] ?? []).compactMap(BookIDPrefix.init),
                predicate: parsed[DeleteCommand.predicate], assumeYes: parsed[DeleteCommand.yes]))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.delete(options)
        return .success
    }
}

/// The options of `books delete`.
struct DeleteOptions: Equatable, Sendable {
    /// The IDs given, as typed.
    var ids: [BookIDPrefix] = []
    /// `--where PREDICATE`: the predicate text, not yet parsed.
    var predicate: String?
    /// `--yes`: delete without asking.
    var assumeYes = false
}

extension CommandRunner {
    /// The most books a confirmation lists one by one; more are counted.
    static let confirmationListLimit = 20

    /// `books delete ID… [--where P] [--yes]`: the books named and matched, in one save.
    ///
    /// Asks first when standard input is a terminal (`--yes` skips it); elsewhere it needs
    /// `--yes`, and refuses (64) without it once the books are found (so that an ID that
    /// names no book, or several, is reported as such first). Nothing is deleted unless all
    /// is well.
    fileprivate func delete(_ options: DeleteOptions) throws {
        guard !options.ids.isEmpty || options.predicate != nil else {
            throw CommandFailure(
                message: "Nothing to delete: give book IDs or --where PREDICATE. See 'books help delete'.", code: .usage)
        }
        let predicate = try options.predicate.map { text in
            try argument("--where predicate") { try Catalog.bookPredicate(text) }
        }
        guard storeExists else {
            if let id = options.ids.first { throw BookIDError.noSuchBook(id) }
            Terminal.write("No books match; nothing was deleted.\n", to: STDERR_FILENO)
            return
        }
        let catalog = try openCatalog()
        var books: [Book] = []
        var seen: Set<UUID> = []
        for id in options.ids {
            let book = try catalog.book(withID: id)
            if seen.insert(book.uuid).inserted { books.append(book) }
        }
        if let predicate {
            for book in try catalog.books(matching: predicate) where seen.insert(book.uuid).inserted {
                books.append(book)
            }
        }
        guard !books.isEmpty else {
            Terminal.write("No books match; nothing was deleted.\n", to: STDERR_FILENO)
            return
        }
        if !options.assumeYes {
            guard Terminal.isTerminal(STDIN_FILENO) else {
                throw CommandFailure(
                    message: "Deleting asks for confirmation, and standard input is not a terminal: "
                        + "add --yes to delete without asking. Nothing was deleted.",
                    code: .usage)
            }
        }
        if !options.assumeYes, try !confirmDeletion(of: books, in: catalog) {
            throw CommandFailure(message: "Not confirmed; nothing was deleted.", code: .runtimeError)
        }
        let uuids = books.map(\.uuid.uuidString)
        try catalog.delete(books)
        let what = uuids.count == 1 ? "the book \(uuids[0]) was deleted" : "\(uuids.count) books were deleted"
        try afterChange(what) {
            try output.write(uuids.map { "Deleted \($0).\n" }.joined())
        }
    }

    /// Lists the books on standard error and asks whether to delete them; true for an
    /// answer that begins with y (or Y). End of input is no.
    private func confirmDeletion(of books: [Book], in catalog: Catalog) throws -> Bool {
        let ids = try catalog.shortIDs()
        var text = books.count == 1 ? "This book will be deleted:\n" : "These \(books.count) books will be deleted:\n"
        for book in books.prefix(Self.confirmationListLimit) {
            let author = book.byline.map { " — " + QuotedText.forDisplay($0) } ?? ""
            text += "  \(ids.shortID(of: book.uuid))  \(QuotedText.forDisplay(book.title))\(author)\n"
        }
        if books.count > Self.confirmationListLimit {
            text += "  … and \(books.count - Self.confirmationListLimit) more\n"
        }
        text += books.count == 1 ? "Delete it? [y/N] " : "Delete them? [y/N] "
        Terminal.write(text, to: STDERR_FILENO)
        guard let answer = readLine(strippingNewline: true) else {
            Terminal.write("\n", to: STDERR_FILENO)
            return false
        }
        return answer.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y")
    }
}
