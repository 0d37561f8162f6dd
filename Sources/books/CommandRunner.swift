import BookCatalog
import Foundation
import Persistence

/// Runs a parsed command against the catalogue and reports its outcome as an exit code.
/// Output goes to stdout; every error is one line on stderr beginning `Error: `.
struct CommandRunner {
    let command: ParsedCommand
    let environment: [String: String]

    /// Runs the command; never throws and never crashes on user input.
    func run() -> ExitCode {
        do {
            try perform()
            return .success
        } catch {
            let (message, code) = Self.describe(error)
            Terminal.write("Error: \(message)\n", to: STDERR_FILENO)
            return code
        }
    }

    /// The one-line message and exit code for an error.
    static func describe(_ error: Error) -> (String, ExitCode) {
        switch error {
        case let error as CatalogInputError: return (error.description, .dataError)
        case let error as FetchPredicateError: return ("Invalid --where predicate: \(error.description)", .usage)
        case let error as FetchError: return ("Invalid --where predicate: \(error.description)", .usage)
        case let error as ValidationError: return (error.description.replacingOccurrences(of: "\n", with: " "), .dataError)
        case let error as MissingInputFileError: return (error.description, .noInput)
        case let error as SQLiteError where error.isReadOnly:
            return ("The catalogue \(error.path ?? "store") is read-only: nothing was changed (\(error.message)).", .runtimeError)
        case let error as CommandFailure: return (error.message, error.code)
        default: return (String(describing: error).replacingOccurrences(of: "\n", with: " "), .runtimeError)
        }
    }

    private func perform() throws {
        switch command.action {
        case .help(let text):
            print(text, terminator: "")
        case .version:
            print("books \(BooksCommandLine.version)")
        case .seed(let options):
            try seed(options)
        case .list(let options):
            let catalog = try openSeededCatalog()
            let predicate = try options.predicate.map { try FetchPredicate($0) }
            try printer().list(catalog, predicate: predicate, options: options)
        case .search(let options):
            let catalog = try openSeededCatalog()
            // One book past the limit tells whether more match, without counting them all.
            var results = try catalog.search(options.text, limit: options.limit.map { $0 < Int.max ? $0 + 1 : $0 })
            let limited = options.limit.flatMap { results.count > $0 ? $0 : nil }
            if let limit = limited { results.removeLast(results.count - limit) }
            try printer().search(results, query: options.text, json: options.json, catalog: catalog)
            if let limit = limited {
                Terminal.write(
                    "More books match; these are the best \(limit). Use --limit N to see more, --limit 0 to see all.\n",
                    to: STDERR_FILENO)
            }
        case .add(let options):
            let catalog = try openCatalog()
            let book = try catalog.add(
                title: options.title, author: options.author, date: options.dateText,
                price: options.priceText, color: options.colorText)
            print(book.uuid.uuidString)
        case .show(let uuid):
            let catalog = try openCatalog()
            guard let book = try catalog.existingBook(uuid: uuid) else { throw CommandFailure.noSuchBook(uuid) }
            try printer().show(book, catalog: catalog)
        case .delete(let uuid):
            let catalog = try openCatalog()
            guard try catalog.delete(uuid: uuid) else { throw CommandFailure.noSuchBook(uuid) }
            print("Deleted \(uuid.uuidString).")
        }
    }

    private func printer() -> BookPrinter {
        BookPrinter(environment: environment)
    }

    /// Opens the store, creating the default directory (but not a directory the user named).
    private func openCatalog() throws -> Catalog {
        let url = command.storeURL
        if url == StorePath.defaultURL(environment: environment) {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        return try Catalog(storeURL: url)
    }

    private func openSeededCatalog() throws -> Catalog {
        let catalog = try openCatalog()
        try catalog.seedSampleBooksIfNew()
        return catalog
    }

    /// `books seed`: the file is read and checked before the store is opened, so a missing
    /// or malformed file leaves the store as it was (or not created). While it writes,
    /// SIGINT, SIGTERM and SIGHUP stop it at the next transaction boundary, with a report of
    /// what it kept and the exit status a shell expects of that signal (128 + its number).
    private func seed(_ options: SeedOptions) throws {
        let file = try options.file.map { try SeedFile(path: $0) } ?? SeedFile.bundled()
        let total = try file.check() + options.syntheticCount
        let trap = SignalTrap()
        defer { trap.restore() }
        let catalog = try openCatalog()
        let bar = ProgressBar(total: total, label: "Seeding")
        defer { bar.finish() }
        do {
            try catalog.seed(
                file: file, syntheticCount: options.syntheticCount, batchSize: options.batchSize,
                shouldStop: { trap.caughtSignal != nil }, progress: { bar.update(done: $0) })
        } catch let error as SeedIncompleteError {
            bar.finish()
            throw Self.failure(error, signal: trap.caughtSignal)
        }
        bar.finish()
        print("Seeded \(total) books; the catalogue has \(try catalog.bookCount()).")
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
        case .failed(let cause as SQLiteError) where cause.isDiskFull:
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

    static func noSuchBook(_ uuid: UUID) -> CommandFailure {
        CommandFailure(message: "The catalogue has no book with UUID \(uuid.uuidString).", code: .runtimeError)
    }
}
