import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// Runs a parsed command against the catalogue and reports its outcome as an exit code.
/// Output goes to stdout; every error is one line on stderr beginning `Error: `.
///
/// A command that fails writes nothing: every argument is checked (a predicate against the
/// model, a search's words, a new book's fields) before the store is opened, so a refused
/// command neither creates nor seeds a catalogue; `show` and `delete` never create one.
struct CommandRunner {
    let command: ParsedCommand
    let environment: [String: String]
    /// Where standard output goes; every write to it is checked.
    var output = OutputWriter()

    /// Runs the command; never throws and never crashes on user input.
    func run() -> ExitCode {
        do {
            try perform()
            return .success
        } catch {
            let (message, code) = Self.describe(error)
            // An import's refused books are named one a line, each line kept to one.
            let lines = error is InvalidImportRowsError ? message.split(separator: "\n").map(String.init) : [message]
            Terminal.write("Error: " + lines.map(Self.oneLine).joined(separator: "\n") + "\n", to: STDERR_FILENO)
            return code
        }
    }

    /// The one-line message and exit code for an error.
    static func describe(_ error: Error) -> (String, ExitCode) {
        switch error {
        case let error as CatalogInputError: return (error.description, .dataError)
        case let error as InvalidImportRowsError: return (error.description, .dataError)
        case let error as DuplicateBookError: return (error.description, .dataError)
        // A prefix no book has is a book that is not there, as a whole UUID always was (1);
        // one that several books share is input that says too little (65).
        case let error as BookEditConflictError: return (error.description, .runtimeError)
        case let error as BookIDError:
            if case .noSuchBook = error { return (error.description, .runtimeError) }
            return (error.description, .dataError)
        case let error as FetchPredicateError: return (error.description, .usage)
        case let error as FetchError: return (error.description, .usage)
        case let error as ValidationError: return (error.description.replacingOccurrences(of: "\n", with: " "), .dataError)
        case let error as MissingInputFileError: return (error.description, .noInput)
        case let error as StoreError:
            return (error.description.replacingOccurrences(of: "\n", with: " "), error.isRefusedData ? .dataError : .runtimeError)
        case let error as any PersistentStoreFailure where error.failureKind == .readOnly:
            return ("The catalogue \(error.path ?? "store") is read-only: nothing was changed (\(error.message)).", .runtimeError)
        // A store the catalogue refuses is bad data (65), as in persistence-tool: the file is
        // someone else's, damaged, or another model's, and it was left as it was.
        case let error as ServerStoreURLError:
            if case .passwordInURL = error { return (error.description, .usage) }
            return (error.description, .runtimeError)
        case let error as any PersistentStoreFailure where error.failureKind == .notAStore:
            guard let path = error.path else { return ("\(error.message); it was left untouched.", .dataError) }
            return ("\(path) is not an SQLite database; it was left untouched.", .dataError)
        // A database holding another model's store: bad data (65), left as it was.
        case let error as any PersistentStoreFailure where error.failureKind == .incompatibleModel:
            return (error.message.replacingOccurrences(of: "\n", with: " "), .dataError)
        case let error as any PersistentStoreFailure where error.failureKind == .damaged:
            // A damaged page met while reading is said as a write's check says it, not as the
            // statement SQLite was running.
            if error.message.contains("the store is damaged") {
                return (String(describing: error).replacingOccurrences(of: "\n", with: " "), .dataError)
            }
            return (
                "The catalogue \(error.path ?? "store") can't be read: the store is damaged (\(error.message)); nothing was "
                    + "written ('books check' lists what is wrong)", .dataError)
        case let error as CommandFailure: return (error.message, error.code)
        case let error as OutputWriteError: return (error.description, .runtimeError)
        case let error as OutputFileRefusal: return (error.description, .runtimeError)
        default: return (String(describing: error).replacingOccurrences(of: "\n", with: " "), .runtimeError)
        }
    }

    /// `message` on one line: line breaks and other control characters escaped.
    static func oneLine(_ message: String) -> String {
        QuotedText.forMessage(message)
    }

    private func perform() throws {
        // A `postgresql://` store in a build without the PostgreSQL store: every command that
        // uses a store says so, the same way, before it looks at anything else (a store file
        // that is not there, an empty history), so that none seems to have worked.
        if command.usesStore, ServerStoreURL.isServer(command.storeURL), !ServerStoreURL.isSupported {
            throw ServerStoreURLError.unsupported
        }
        switch command.action {
        case .help(let text):
            try output.write(text)
        case .version:
            try output.write("books \(BooksCommandLine.version)\n")
        case .seed(let options):
            try seed(options)
        case .list(var options):
            options.order.collation = collation
            try list(options)
        case .search(var options):
            options.order?.collation = collation
            try search(options)
        case .add(let fields, let allowDuplicate):
            let (book, catalog) = try beginningTheReadersCatalogue { isNew throws -> (Book, Catalog) in
                let checked = try fields.checked()
                let catalog = try openCatalog()
                if isNew { try catalog.declineSampleBooks() }
                return (try catalog.add(checked, allowingDuplicate: allowDuplicate), catalog)
            }
            try afterChange("the book \(book.uuid.uuidString) was added") {
                try printer().added(book, catalog: catalog)
            }
        case .show(let id):
            let printer = printer()
            let catalog = try openExistingCatalog(lookingFor: id)
            try printer.show(try catalog.book(withID: id), catalog: catalog)
        case .edit(let id, let edit):
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
        case .delete(let options):
            try delete(options)
        case .import(let options):
            if options.dryRun {
                try importBooks(options, intoNewCatalogue: false)
            } else {
                try beginningTheReadersCatalogue { isNew in try importBooks(options, intoNewCatalogue: isNew) }
            }
        case .export(let options):
            try export(options)
        case .check:
            try check()
        case .stats(let options):
            try stats(options)
        case .history(let limit):
            try history(limit: limit)
        case .undo:
            guard storeExists else { throw CatalogUndoError.nothingToUndo }
            let undone = try reversing("Undoing") { catalog, stop, progress in
                try catalog.undo(shouldStop: stop, progress: progress)
            }
            let report = Self.report(
                "Undid", undone, verbs: [.update: "set back", .insert: "brought back", .delete: "removed"])
            try afterChange("the undo was saved") { try output.write(report + "\n") }
        case .redo:
            guard storeExists else { throw CatalogUndoError.nothingToRedo }
            let redone = try reversing("Redoing") { catalog, stop, progress in
                try catalog.redo(shouldStop: stop, progress: progress)
            }
            let report = Self.report("Redid", redone, verbs: [.update: "changed", .insert: "added", .delete: "removed"])
            try afterChange("the redo was saved") { try output.write(report + "\n") }
        }
    }

    /// `books search`: the query, formats and predicate are checked before the store is
    /// opened. Ranked lines (or their JSON) as always; with `--where`, `--sort`, `--format` or
    /// `--fields`, printed as `list` prints books.
    private func search(_ options: SearchOptions) throws {
        try argument("search") { try Catalog.checkSearchText(options.text) }
        try checkFormat(json: options.json, format: options.formatName, command: "search")
        let predicate = try wherePredicate(options.predicate)
        let printer = printer()
        let catalog = try openSeededCatalog()
        var (printed, moreMatch) = (0, false)
        if options.isPlain {
            (printed, moreMatch) = try printer.search(
                catalog, query: options.text, limit: options.limit, json: options.json)
        } else {
            printed = try printer.list(catalog, options: options.listing) { body in
                var count = 0
                let limit = options.limit.map { $0 < Int.max ? $0 + 1 : $0 }
                try catalog.forEachSearchResult(options.text, matching: predicate, order: options.order, limit: limit) {
                    book in
                    if let limit = options.limit, count == limit {
                        moreMatch = true
                        return
                    }
                    count += 1
                    try body(book)
                }
            }
        }
        if printed == 0 && options.format == .text {
            Terminal.write("No books match \"\(QuotedText.forMessage(options.text))\".\n", to: STDERR_FILENO)
        }
        if moreMatch, let limit = options.limit {
            Terminal.write(
                "More books match; these are the best \(limit). Use --limit N to see more, --limit 0 to see all.\n",
                to: STDERR_FILENO)
        }
    }

    /// `books list`: the predicate and dates are checked before the store is opened. When no
    /// book is printed, text output says so on standard error (stdout stays empty, as CSV's
    /// header and JSON's empty array are all they print), exit status 0, as `search` does.
    private func list(_ options: ListOptions) throws {
        try checkFormat(json: options.json, format: options.formatName, command: "list")
        var predicate = try wherePredicate(options.predicate)
        if let dates = try Catalog.publicationPredicate(since: options.since, until: options.until) {
            predicate = predicate.map { $0 && dates } ?? dates
        }
        let printer = printer()
        let catalog = try openSeededCatalog()
        let printed = try printer.list(catalog, predicate: predicate, options: options)
        if printed == 0 && options.format == .text {
            let filtered = options.predicate != nil || options.since != nil || options.until != nil
            Terminal.write(filtered ? "No books match.\n" : "The catalogue has no books.\n", to: STDERR_FILENO)
        }
    }

    /// Refuses `--json` beside a `--format` other than json (64).
    private func checkFormat(json: Bool, format: ListFormat?, command: String) throws {
        if json, let format, format != .json {
            throw CommandFailure(
                message: "--json and --format \(format.rawValue) ask for different formats; give one. See 'books help \(command)'.",
                code: .usage)
        }
    }

    /// The `--where` predicate, checked against the catalogue's model (64 when refused).
    private func wherePredicate(_ text: String?) throws -> FetchPredicate? {
        try text.map { text in try argument("--where predicate") { try Catalog.bookPredicate(text) } }
    }

    /// `books history`: nothing to read is not an error: a note on standard error, exit 0.
    /// Never creates the catalogue.
    private func history(limit: Int) throws {
        guard storeExists else {
            Terminal.write("No changes recorded: there is no catalogue at \(command.storeURL.path).\n", to: STDERR_FILENO)
            return
        }
        let printer = printer()
        let catalog = try openCatalog()
        let entries = try catalog.history(limit: limit)
        guard !entries.isEmpty else {
            Terminal.write("No changes recorded yet.\n", to: STDERR_FILENO)
            return
        }
        try printer.history(entries, ids: try catalog.shortIDs())
    }

    /// `books check`: one line per problem on standard output, exit 1 when there is any.
    /// Never creates the store (a missing one is an error).
    private func check() throws {
        guard !ServerStoreURL.isServer(command.storeURL) else {
            throw CommandFailure(
                message: "books check reads a catalogue file; a PostgreSQL server checks its own databases (amcheck)",
                code: .runtimeError)
        }
        // The checks (key counters, search index, history) are of the catalogue's own store.
        if CoreDataStore.isCoreDataStore(at: command.storeURL) {
            throw CommandFailure(
                message: "books check checks the catalogue's own stores; \(command.storeURL.path) is a store Core Data "
                    + "wrote (persistence-tool store export reads every object of it)",
                code: .runtimeError)
        }
        let result = try Catalog.check(storeURL: command.storeURL)
        guard !result.isHealthy else {
            try output.write("The catalogue \(command.storeURL.path) is healthy.\n")
            return
        }
        for problem in result.problems { try output.write(QuotedText.forDisplay(problem) + "\n") }
        throw CommandFailure(
            message: "The catalogue \(command.storeURL.path) is damaged: \(result.problems.count) "
                + (result.problems.count == 1 ? "problem" : "problems") + " found.",
            code: .runtimeError)
    }

    /// How listings order text: the collation of the user's `LC_ALL`, `LC_COLLATE` or `LANG`
    /// (none in the C locale, nor for a name that is not a usable locale).
    var collation: TextCollation? { UserEnvironment(environment: environment).collation }

    /// A printer for the user's locale; says once on standard error when a locale variable
    /// in effect names no usable locale, which is then the C locale's formatting.
    func printer() -> BookPrinter {
        if let (variable, value) = UserEnvironment.unusableLocaleInEffect(in: environment) {
            Terminal.write(
                "books: ignoring unusable locale \"\(QuotedText.excerpt(value))\" in \(variable); using C\n",
                to: STDERR_FILENO)
        }
        return BookPrinter(environment: environment, output: output)
    }

    /// Runs `check`, naming `what` the user typed in the message of a predicate or fetch
    /// error (`Invalid --where predicate: …`, `Invalid search: …`), exit 64.
    func argument<T>(_ what: String, _ check: () throws -> T) throws -> T {
        do { return try check() } catch let error as SearchQueryError {
            throw CommandFailure(message: "Invalid \(what): \(error.description)", code: .usage)
        } catch let error as FetchPredicateError {
            throw CommandFailure(message: "Invalid \(what): \(error.description)", code: .usage)
        } catch let error as FetchError {
            throw CommandFailure(
                message: "Invalid \(what): \(QuotedText.excerpt(error.reason, limit: 4 * QuotedText.excerptLength))",
                code: .usage)
        }
    }

    /// Runs `write` (the report of a change already saved); when the report cannot be
    /// written, the error still says what was changed.
    func afterChange(_ change: String, _ write: () throws -> Void) throws {
        do { try write() } catch let error as OutputWriteError {
            throw CommandFailure(message: "\(error.description); \(change)", code: .runtimeError)
        }
    }

    /// Opens the store, creating the default directory (but not a directory the user named).
    /// A directory made here is removed again when the store cannot be opened in it.
    func openCatalog(recordingHistory: Bool = false) throws -> Catalog {
        let url = command.storeURL
        let directory = url.deletingLastPathComponent()
        var createdDirectory = false
        if url == StorePath.defaultURL(environment: environment),
            !FileManager.default.fileExists(atPath: directory.path)
        {
            createdDirectory =
                (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil
        }
        do {
            let catalog = try Catalog(storeURL: url, tracksHistory: recordingHistory || command.action.changesCatalogue)
            catalog.context.transactionAuthor = command.action.commandName.map(Catalog.historyAuthor(command:))
            // The saves of one run share a name, so that undo reverses them together.
            if command.action.changesCatalogue { catalog.context.name = "run \(UUID().uuidString)" }
            return catalog
        } catch {
            if createdDirectory { rmdir(directory.path) }
            throw error
        }
    }

    /// "Undid books edit (#2): set back 1 book.": what an undo or redo did, its counts in the
    /// order updated, inserted, deleted.
    static func report(
        _ done: String, _ command: UndoneCommand, verbs: [PersistentHistoryChangeType: String]
    ) -> String {
        let parts = [PersistentHistoryChangeType.update, .insert, .delete].compactMap { type in
            command.counts[type].map { "\(verbs[type] ?? "") \(CountText.books($0))" }
        }
        return "\(done) \(command.command)" + (parts.isEmpty ? "." : ": " + parts.joined(separator: ", ") + ".")
    }

    /// Runs `books add` or `books import`, which begin a new catalogue with the reader's own
    /// books: such a catalogue never gets the sample books, even when the command fails on
    /// its input (exit 65 or 66), so that the listing a reader runs next does not fill the
    /// catalogue they meant for their own books. A failed first command therefore leaves the
    /// catalogue created, empty, recording that; a usage error (64) creates nothing.
    func beginningTheReadersCatalogue<T>(_ body: (_ isNew: Bool) throws -> T) throws -> T {
        let isNew = !storeExists
        do { return try body(isNew) } catch {
            let code = Self.describe(error).1
            if isNew, !storeExists, code == .dataError || code == .noInput {
                try? openCatalog().declineSampleBooks()
            }
            throw error
        }
    }

    /// Opens the store for a command that reads or changes one book: a missing store has no
    /// such book, and is not created to say so.
    func openExistingCatalog(lookingFor id: BookIDPrefix) throws -> Catalog {
        guard storeExists else { throw BookIDError.noSuchBook(id) }
        return try openCatalog()
    }

    /// Whether the store may hold a catalogue: a store on a server always may (opening it
    /// says whether it can be reached), a file when it is there. Commands that only read or
    /// undo skip a missing file rather than create one.
    var storeExists: Bool {
        ServerStoreURL.isServer(command.storeURL) || FileManager.default.fileExists(atPath: command.storeURL.path)
    }

    /// Opens the catalogue for a listing or a search, seeding a new one with the sample books
    /// and saying so on standard error: they are a demo, which `books seed --remove` takes out.
    /// A catalogue created here records its history from the start, so that the seed is its
    /// first entry ("books seed", which `books undo` takes back).
    func openSeededCatalog() throws -> Catalog {
        let isNew = !storeExists
        let catalog = try openCatalog(recordingHistory: isNew)
        if isNew {
            catalog.context.transactionAuthor = Catalog.historyAuthor(command: "seed")
            catalog.context.name = "run \(UUID().uuidString)"
        }
        let seeded = try catalog.seedSampleBooksIfNew()
        if seeded > 0 {
            Terminal.write(
                "books: a new catalogue: added the \(seeded) sample books to try it with; "
                    + "'books seed --remove' takes them out.\n", to: STDERR_FILENO)
        }
        return catalog
    }

    /// `books undo` or `books redo`, with a progress bar on a terminal (as `seed` draws it).
    /// While it works, SIGINT, SIGTERM and SIGHUP stop it at the next transaction it reads or
    /// save it makes: its one transaction of the store is rolled back, and it says so in one
    /// line, with the exit status a shell expects of that signal (128 + its number). A
    /// process killed outright leaves the catalogue as it was too (SQLite rolls the
    /// transaction back).
    private func reversing(
        _ label: String,
        _ body: (Catalog, @escaping () -> Bool, @escaping (Int, Int) -> Void) throws -> UndoneCommand
    ) throws -> UndoneCommand {
        let trap = SignalTrap()
        defer { trap.restore() }
        let catalog = try openCatalog()
        let bar = ProgressBar(total: 0, label: label)
        defer { bar.finish() }
        do {
            return try body(catalog, { trap.caughtSignal != nil }, bar.update(done:total:))
        } catch CatalogUndoError.interrupted {
            bar.finish()
            let number = trap.caughtSignal ?? SIGINT
            throw CommandFailure(
                message: "interrupted by \(SignalTrap.name(of: number)): nothing was "
                    + (label == "Undoing" ? "undone" : "redone") + "; the catalogue is as it was.",
                code: ExitCode(rawValue: 128 + number))
        }
    }

    /// `books seed`: the file is read and checked before the store is opened, so a missing
    /// or malformed file leaves the store as it was (or not created). While it writes,
    /// SIGINT, SIGTERM and SIGHUP stop it at the next transaction boundary, with a report of
    /// what it kept and the exit status a shell expects of that signal (128 + its number).
    private func seed(_ options: SeedOptions) throws {
        if options.removesSampleBooks { return try removeSampleBooks(options) }
        let file = try options.file.map { try SeedFile(path: $0) } ?? SeedFile.bundled()
        let total = try file.check() + options.syntheticCount
        let trap = SignalTrap()
        defer { trap.restore() }
        let catalog = try openCatalog()
        let bar = ProgressBar(total: total, label: "Seeding")
        defer { bar.finish() }
        let summary: SeedSummary
        do {
            summary = try catalog.seed(
                file: file, syntheticCount: options.syntheticCount, batchSize: options.batchSize,
                shouldStop: { trap.caughtSignal != nil }, progress: { bar.update(done: $0) })
        } catch let error as SeedIncompleteError {
            bar.finish()
            throw Self.failure(error, signal: trap.caughtSignal)
        }
        bar.finish()
        let report = Self.seedReport(summary, bookCount: try catalog.bookCount())
        try afterChange(report.dropLast().lowercased()) { try output.write(report + "\n") }
    }

    /// `books seed --remove`: the sample books still as the seed left them go, in one save.
    private func removeSampleBooks(_ options: SeedOptions) throws {
        let catalog = try openCatalog()
        let removal = try catalog.removeSampleBooks()
        var report = "Removed \(CountText.counted(removal.removed, "sample book"))"
        if removal.kept > 0 {
            report += " (\(CountText.counted(removal.kept, "sample book")) you changed "
                + (removal.kept == 1 ? "stays" : "stay") + ": delete by ID what you do not want)"
        }
        report += "; the catalogue has \(try catalog.bookCount())."
        try afterChange(report.dropLast().lowercased()) { try output.write(report + "\n") }
    }

    /// "Seeded 459 books; the catalogue has 459.", or, when some were there already,
    /// "Seeded 12 of 459 books (447 already in the catalogue were left as they are); …".
    static func seedReport(_ summary: SeedSummary, bookCount: Int) -> String {
        let seeded = summary.added == summary.given
            ? CountText.books(summary.given)
            : "\(summary.added) of \(CountText.books(summary.given)) (\(summary.alreadyThere) already in the catalogue "
                + (summary.alreadyThere == 1 ? "was" : "were") + " left as " + (summary.alreadyThere == 1 ? "it is)" : "they are)")
        return "Seeded \(seeded); the catalogue has \(bookCount)."
    }

    /// The one line and exit status for a seed that stopped part-way: the cause as any
    /// error of its kind is described ("the disk is full" for a full file system), then
    /// what was kept.
    static func failure(_ error: SeedIncompleteError, signal: Int32?) -> CommandFailure {
        switch error.cause {
        case .interrupted:
            let number = signal ?? SIGINT
            return CommandFailure(
                message: "interrupted by \(SignalTrap.name(of: number)): \(error.report)",
                code: ExitCode(rawValue: 128 + number))
        case .failed(let cause as any PersistentStoreFailure) where cause.failureKind == .diskFull:
            return CommandFailure(message: "the disk is full: \(error.report)", code: .runtimeError)
        case .failed(let cause):
            let (message, code) = describe(cause)
            let text = message.hasSuffix(".") ? String(message.dropLast()) : message
            return CommandFailure(message: "\(text): \(error.report)", code: code)
        }
    }
}

/// A command that cannot do what was asked, with its exit code.
struct CommandFailure: Error {
    let message: String
    let code: ExitCode
}
