import BookCatalog
import CommandLineSupport
import Foundation
import Persistence

/// `books seed [--file <path>] [--count <n>] [--batch-size <n>] [--remove]`.
struct SeedCommand: BooksCommand, Equatable {
    /// What to load, or what to take out.
    var options: SeedOptions

    var changesCatalogue: Bool { true }

    /// `--file <path>`: a seed file (or `-`) instead of the bundled books.
    static let file = Option<String>(
        "file", valueName: "path",
        help: "Load the books of this JSON file (- for standard input) instead of the bundled ones.",
        isPath: true, validate: ValueFormats.storePath)
    /// `--count <n>`: how many synthetic books to add.
    static let count = Option<Int>(
        "count", range: 0...10_000_000, help: "Also add N synthetic books (0 to 10000000).")
    /// `--batch-size <n>`: how many books each save holds.
    static let batchSize = Option<Int>(
        "batch-size", range: 1...1_000_000,
        help: "Save every N books (default \(Catalog.defaultSeedBatchSize)).")

    /// `--remove`: take the sample books out.
    static let remove = Flag(
        "remove", help: "Take the bundled sample books out instead (those you changed stay); undo brings them back.")

    static let spec = CommandSpec(
        name: "seed",
        abstract: "Load the seed books (and optionally N synthetic ones).",
        discussion: """
            The seed books are real books with accented titles; --file loads another file \
            in the same format (a JSON array of objects with uuid, title, author, \
            publishDate, price and color). Synthetic books are for trying out large \
            catalogues: book number i is always the same book, so seeding --count N again \
            adds nothing and the count does not grow. The file is checked \
            whole before anything is written. Books are saved in batches (a large batch \
            commits early, about once a second, so other writers wait their turn); a seed \
            stopped by SIGINT, SIGTERM or SIGHUP, or by a full disk, keeps what it \
            committed and says how much. Seeding is idempotent: books are matched by UUID, \
            and a book already in the catalogue is left exactly as it is (a sample book you \
            rated or tagged keeps that). The sample books are a demo: --remove takes out \
            those still as the seed left them.
            """,
        options: [file, count, batchSize, remove])

    static let examples: [CommandExample] = [
        CommandExample("books seed", "Load the bundled sample books (again: only the missing ones are added)."),
        CommandExample("books seed --remove", "Take the sample books out (those you changed stay)."),
        CommandExample("books seed --file my-books.json", "Load your own books, in the format of the sample file."),
        CommandExample("books seed --count 100000", "Add 100,000 synthetic books, to try a large catalogue."),
    ]
}

extension SeedCommand {
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
        // --remove loads nothing: an option of loading beside it is refused, not ignored.
        if parsed[SeedCommand.remove] {
            let loading: [any OptionDeclaration] = [SeedCommand.file, SeedCommand.count, SeedCommand.batchSize]
            let given = loading.filter { parsed.contains($0) }.map(\.spec.displayName)
            if !given.isEmpty {
                throw parser.error(.excludes(SeedCommand.remove.spec.displayName, given), path: [SeedCommand.name])
            }
        }
        self.init(
            options: SeedOptions(
                file: parsed[SeedCommand.file],
                syntheticCount: parsed[SeedCommand.count] ?? 0,
                batchSize: parsed[SeedCommand.batchSize] ?? Catalog.defaultSeedBatchSize,
                removesSampleBooks: parsed[SeedCommand.remove]))
    }

    func run(in runner: inout CommandRunner) throws -> ExitCode {
        try runner.seed(options)
        return .success
    }
}

/// The options of `books seed`.
struct SeedOptions: Equatable, Sendable {
    /// `--file PATH`: a seed file to load instead of the bundled one.
    var file: String?
    /// `--count N`: how many synthetic books to add (0 for none).
    var syntheticCount = 0
    /// `--batch-size N`: how many books each save holds.
    var batchSize = Catalog.defaultSeedBatchSize
    /// `--remove`: take the sample books out instead of loading books (the parser refuses
    /// it with `--file`, `--count` or `--batch-size`).
    var removesSampleBooks = false
}

extension CommandRunner {
    /// `books seed`: the file is read and checked before the store is opened, so a missing
    /// or malformed file leaves the store as it was (or not created). While it writes,
    /// SIGINT, SIGTERM and SIGHUP stop it at the next transaction boundary, with a report of
    /// what it kept and the exit status a shell expects of that signal (128 + its number).
    fileprivate func seed(_ options: SeedOptions) throws {
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
    fileprivate func removeSampleBooks(_ options: SeedOptions) throws {
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
