import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books import <file>`.
struct ImportCommand: BooksCommand, Equatable {
    /// The file, and how to import it.
    var options: ImportOptions

    /// A dry run writes nothing: it does not begin the history either.
    var changesCatalogue: Bool { !options.dryRun }

    /// `import`, a dry run's too.
    var historyName: String? { ImportCommand.name }

    /// The file to read, or `-` for standard input.
    static let file = Argument<String>(
        "file", help: "A JSON or CSV file of books, or a Goodreads, calibre or LibraryThing export (- for standard input).",
        isPath: true, validate: ValueFormats.storePath)
    /// `--skip-invalid`: import the valid books of a file with invalid ones.
    static let skipInvalid = Flag(
        "skip-invalid", help: "Import the valid books of a file with invalid ones, and name each one skipped.")
    /// `--prefer-file`: in a conflict, take the file's value.
    static let preferFile = Flag(
        "prefer-file",
        help: "Where you and the file both changed a field since the last import of its source, take the file's value.")
    /// `--dry-run`: say what would change, write nothing.
    static let dryRun = Flag(
        "dry-run", help: "Show what the import would add, update and find in conflict, and write nothing.")

    static let spec = CommandSpec(
        name: "import",
        abstract: "Add or update books from a JSON or CSV file, or a Goodreads, calibre or LibraryThing export.",
        discussion: """
            Reads what books export writes: a JSON array of objects, or CSV whose header row \
            names the fields (uuid, title, authors, publishDate, datePrecision, price, color, \
            isbn, language, dateAdded, rating, status, tags, notes, series, seriesNumber, \
            publisher, pages, format, dateRead, readCount, review; title and authors are \
            required, and an earlier release's author column is read as authors). The CSV \
            that Goodreads exports is recognised by its header: its shelves become the \
            status and tags, My Rating the rating (0 is unrated), the publication year the \
            date (blank: unknown), the series at the end of a title the series. calibre's \
            exports (calibredb list --for-machine --fields all, and calibredb catalog's CSV) \
            and LibraryThing's (tab-delimited or CSV) are recognised by their shape too, and \
            keep each book's UUID (calibre's uuid, a hash of LibraryThing's Book Id). A book the \
            catalogue already has (the same UUID, else the same ISBN) is updated in the \
            fields the file gives, not added again. The whole file is checked first and \
            saved at once: a blank optional field is never an error, and a book with a bad \
            value refuses the file, naming every such book (one a line), unless \
            --skip-invalid imports the others.

            Importing a newer export of the same source (Goodreads, calibre, LibraryThing, \
            or books' own export) keeps what you changed in books since: the catalogue keeps \
            the values each import gave, so a field the file did not change keeps yours, a \
            field the file changed and you did not takes the file's, and a field both \
            changed keeps yours and is named (one line a book and field), or takes the \
            file's with --prefer-file. Tags merge: a book gains the file's new tags and \
            never loses one. A book no import of the source gave values to yet (a first \
            import, or one by a release before this kept them) takes the file's, as \
            before. --dry-run shows what would be added, updated and kept, and writes \
            nothing.
            """,
        arguments: [file],
        options: [skipInvalid, preferFile, dryRun])

    static let examples: [CommandExample] = [
        CommandExample("books import goodreads_library_export.csv", "Bring in a Goodreads export: shelves become status and tags."),
        CommandExample("cat books.json | books import -", "Add or update the books of a JSON file read from standard input."),
        CommandExample(
            "books import --dry-run goodreads_library_export.csv",
            "What a newer export would change (your edits since the last one are kept), writing nothing."),
    ]
}

extension ImportCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        guard let file = parsed[ImportCommand.file] else {
            // The parser refuses the command line without it; this is only a safeguard.
            throw parser.error(.missingArgument(ImportCommand.file.spec.synopsis), path: [ImportCommand.name])
        }
        self.init(
            options: ImportOptions(
                file: file, skipInvalid: parsed[ImportCommand.skipInvalid],
                preferFile: parsed[ImportCommand.preferFile], dryRun: parsed[ImportCommand.dryRun]))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        if options.dryRun {
            try runner.importBooks(options, intoNewCatalogue: false)
        } else {
            let runner = runner
            try runner.beginningTheReadersCatalogue { isNew in try runner.importBooks(options, intoNewCatalogue: isNew) }
        }
        return .success
    }
}

/// The options of `books import`.
struct ImportOptions: Equatable, Sendable {
    /// The file, or `-` for standard input.
    var file: String
    /// `--skip-invalid`: import the valid books of a file with invalid ones.
    var skipInvalid = false
    /// `--prefer-file`: where the reader and the file both changed a field since the last
    /// import of the file's source, take the file's value.
    var preferFile = false
    /// `--dry-run`: say what the import would do, and write nothing.
    var dryRun = false
}

extension CommandRunner {
    /// `books import FILE|-`: the file is read and checked whole before the catalogue is
    /// opened (a bad one changes nothing; as the first command it leaves the reader's empty
    /// catalogue, see `beginningTheReadersCatalogue`), then saved in one save. A field both
    /// the reader and the file changed since the last import of its source is named, a line
    /// a book and field.
    ///
    /// `--dry-run` opens the catalogue only to read it (a missing one is not created: the
    /// import is worked out against an empty catalogue in memory, as it would begin one),
    /// and lists each book the import would add or update.
    fileprivate func importBooks(_ options: ImportOptions, intoNewCatalogue isNew: Bool) throws {
        let path = options.file
        let name = path == "-" ? "standard input" : path
        let data: Data
        do {
            data = path == "-" ? try InputFile.readStandardInput() : try InputFile.read(path)
        } catch {
            switch error.kind {
            case .tooLarge, .malformed:
                throw CommandFailure(message: "Cannot import \(name): \(error.reason); nothing was imported.", code: .dataError)
            default:
                throw CommandFailure(message: "Cannot import \(name): \(error.reason); nothing was imported.", code: .noInput)
            }
        }
        if path != "-", let store = protectedStores.first, OutputFile.isSameFile(path, asStoreOrItsFiles: store) {
            throw CommandFailure(
                message: "Cannot import \(QuotedText.forMessage(path)): it is the catalogue \(QuotedText.forMessage(store)) itself; "
                    + "nothing was imported.", code: .dataError)
        }
        let file = try ImportFile(data: data, name: name, skippingInvalid: options.skipInvalid)
        let dryRun = options.dryRun
        let catalog = dryRun && !storeExists ? try Catalog(storeURL: nil) : try openCatalog()
        if isNew && !dryRun { try catalog.declineSampleBooks() }
        let result = try catalog.importBooks(file, preferringFile: options.preferFile, dryRun: dryRun)
        let ids = try catalog.shortIDs()
        let total = file.entries.count
        var report = "\(dryRun ? "Would import" : "Imported") \(CountText.books(total)) (\(file.format.rawValue)): "
            + "\(result.added) added, \(result.updated) updated, \(result.unchanged) unchanged"
        if options.skipInvalid { report += ", \(file.invalid.count) skipped" }
        let conflicts = result.conflicts.count
        if conflicts > 0 {
            let verb = options.preferFile ? (dryRun ? "would take" : "took") + " the file's"
                : (dryRun ? "would keep" : "kept") + " yours (--prefer-file takes the file's)"
            report += "; \(conflicts) \(conflicts == 1 ? "conflict" : "conflicts") \(verb)"
        }
        report += dryRun ? ". Nothing was written (--dry-run)." : "."
        for row in file.invalid { report += "\nSkipped \(row.description)" }
        if dryRun {
            for change in result.changes {
                let book = "\(ids.shortID(of: change.uuid))  \(QuotedText.forDisplay(change.title))"
                report += change.isNew
                    ? "\nWould add     \(book)"
                    : "\nWould update  \(book): " + change.fields.map(\.rawValue).joined(separator: ", ")
            }
        }
        for conflict in result.conflicts {
            report += "\n" + Self.conflictLine(conflict, shortID: ids.shortID(of: conflict.uuid), dryRun: dryRun)
        }
        try afterChange(dryRun ? "nothing was written" : "the import was saved") { try output.write(report + "\n") }
    }

    /// `Conflict: A9EF420F "Solaris", rating: kept yours (4); the file changed it from 3 to 5.`
    fileprivate static func conflictLine(_ conflict: ImportConflict, shortID: String, dryRun: Bool) -> String {
        // In double quotes, escaped when it holds controls (as undo's messages name a book).
        let shown = QuotedText.forDisplay(conflict.title)
        let title = shown.hasPrefix("\"") && shown != conflict.title ? shown : "\"\(conflict.title)\""
        let book = "\(shortID) \(title)"
        let head = "Conflict: \(book), \(conflict.field.rawValue): "
        let field = conflict.field
        let yours = shownValue(conflict.catalogue, field), theirs = shownValue(conflict.file, field)
        let last = shownValue(conflict.lastImported, field)
        if conflict.tookFile {
            return head + "\(dryRun ? "would take" : "took") the file's (\(theirs)); "
                + "yours was \(yours), the last import gave \(last)."
        }
        return head + "\(dryRun ? "would keep" : "kept") yours (\(yours)); the file changed it from \(last) to \(theirs)."
    }

    /// A field's value in a conflict's line: `none` when empty, authors (one a line) joined
    /// by `, `, cut to 60 characters, then with control characters escaped (a note's line
    /// break reads `\n`, in quotes), so that an escape is never cut in two.
    fileprivate static func shownValue(_ text: String, _ field: BookCatalog.BookField) -> String {
        guard !text.isEmpty else { return "none" }
        let oneLine = field == .authors ? text.replacingOccurrences(of: "\n", with: ", ") : text
        return QuotedText.forDisplay(oneLine.count > 60 ? String(oneLine.prefix(59)) + "…" : oneLine)
    }
}
