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
            return try perform()
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

    /// Runs the parsed command: help and the version are printed, a command runs in this
    /// runner (its store, environment and output).
    private func perform() throws -> ExitCode {
        // A `postgresql://` store in a build without the PostgreSQL store: every command that
        // uses a store says so, the same way, before it looks at anything else (a store file
        // that is not there, an empty history), so that none seems to have worked.
        if command.usesStore, ServerStoreURL.isServer(command.storeURL), !ServerStoreURL.isSupported {
            throw ServerStoreURLError.unsupported
        }
        switch command.action {
        case .help(let text):
            try output.write(text)
            return .success
        case .version:
            try output.write("books \(BooksCommandLine.version)\n")
            return .success
        case .run(let command):
            var runner = self
            return try command.run(in: &runner)
        }
    }

    /// Refuses `--json` beside a `--format` other than json (64).
    func checkFormat(json: Bool, format: ListFormat?, command: String) throws {
        if json, let format, format != .json {
            throw CommandFailure(
                message: "--json and --format \(format.rawValue) ask for different formats; give one. See 'books help \(command)'.",
                code: .usage)
        }
    }

    /// The `--where` predicate, checked against the catalogue's model (64 when refused).
    func wherePredicate(_ text: String?) throws -> FetchPredicate? {
        try text.map { text in try argument("--where predicate") { try Catalog.bookPredicate(text) } }
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
            let catalog = try Catalog(storeURL: url, tracksHistory: recordingHistory || command.changesCatalogue)
            catalog.context.transactionAuthor = command.historyName.map(Catalog.historyAuthor(command:))
            // The saves of one run share a name, so that undo reverses them together.
            if command.changesCatalogue { catalog.context.name = "run \(UUID().uuidString)" }
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
    ///
    /// A database on a server is always there, so whether it is new shows only once it is
    /// open: a new one is then opened again, recording history, so that its seed is the
    /// first entry of its history too.
    func openSeededCatalog() throws -> Catalog {
        let fileIsNew = !storeExists
        var catalog = try openCatalog(recordingHistory: fileIsNew)
        let isNew = try fileIsNew || catalog.awaitsSampleBooks
        // An existing catalogue is asked once: every listing passes here.
        guard isNew else { return catalog }
        if !fileIsNew { catalog = try openCatalog(recordingHistory: true) }
        catalog.context.transactionAuthor = Catalog.historyAuthor(command: SeedCommand.name)
        catalog.context.name = "run \(UUID().uuidString)"
        let seeded = try catalog.seedSampleBooksIfNew()
        if seeded > 0 {
            Terminal.write(
                "books: a new catalogue: added the \(seeded) sample books to try it with; "
                    + "'books seed --remove' takes them out.\n", to: STDERR_FILENO)
        }
        return catalog
    }

    /// The store files a file this command writes must never be: the catalogue's, when it
    /// is a file.
    var protectedStores: [String] {
        ServerStoreURL.isServer(command.storeURL) ? [] : [command.storeURL.path]
    }

    /// `books undo` or `books redo`, with a progress bar on a terminal (as `seed` draws it).
    /// While it works, SIGINT, SIGTERM and SIGHUP stop it at the next transaction it reads or
    /// save it makes: its one transaction of the store is rolled back, and it says so in one
    /// line, with the exit status a shell expects of that signal (128 + its number). A
    /// process killed outright leaves the catalogue as it was too (SQLite rolls the
    /// transaction back).
    func reversing(
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
}

/// A command that cannot do what was asked, with its exit code.
struct CommandFailure: Error {
    let message: String
    let code: ExitCode
}
