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
        case .seed(let count):
            let catalog = try openCatalog()
            let seeded = try catalog.seed(try Catalog.bundledSeedBooks())
            if count > 0 { try seedSynthetic(count, into: catalog) }
            print("Seeded \(seeded + count) books; the catalogue has \(try catalog.bookCount()).")
        case .list(let options):
            let catalog = try openSeededCatalog()
            let predicate = try options.predicate.map { try FetchPredicate($0) }
            try printer().list(catalog, predicate: predicate, options: options)
        case .search(let options):
            let catalog = try openSeededCatalog()
            let results = try catalog.search(options.text, limit: options.limit)
            try printer().search(results, query: options.text, json: options.json, catalog: catalog)
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
        try catalog.seedIfEmpty()
        return catalog
    }

    private func seedSynthetic(_ count: Int, into catalog: Catalog) throws {
        let bar = ProgressBar(total: count, label: "Seeding")
        try catalog.seedSynthetic(count: count) { done in bar.update(done: done) }
        bar.finish()
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
