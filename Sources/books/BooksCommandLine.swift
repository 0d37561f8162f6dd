import BookCatalog
import CommandLineSupport
import Foundation

/// The command line of `books`: the command specs, and the entry point that turns the
/// process arguments into a ``ParsedCommand``.
///
/// In `main.swift`:
///
/// ```swift
/// let environment = ProcessInfo.processInfo.environment
/// let command: ParsedCommand
/// do {
///     command = try BooksCommandLine.parse(Array(CommandLine.arguments.dropFirst()),
///                                          environment: environment)
/// } catch {
///     FileHandle.standardError.write(Data(error.description.utf8))
///     exit(error.exitCode.rawValue)
/// }
/// switch command.action {
/// case .help(let text): print(text, terminator: "")
/// case .version: print(BooksCommandLine.version)
/// …
/// }
/// ```
enum BooksCommandLine {
    /// The version printed by `books --version`.
    static let version = "0.1.0"

    /// The whole command tree.
    static let root = CommandSpec(
        name: "books",
        abstract: "A command-line book catalogue.",
        discussion: """
            The catalogue is one SQLite file, created and seeded with the bundled books on \
            first use. Month names, dates and prices follow LC_ALL, LC_TIME, LC_MONETARY and \
            LANG; the order of titles, authors and series LC_ALL, LC_COLLATE and LANG; times \
            follow TZ.
            """,
        options: [store, Flag("version", help: "Show the version.")],
        subcommands: [
            SeedCommand.spec, ListCommand.spec, SearchCommand.spec, AddCommand.spec,
            ShowCommand.spec, EditCommand.spec, DeleteCommand.spec, ImportCommand.spec, ExportCommand.spec,
            StatsCommand.spec, HistoryCommand.spec, UndoCommand.spec, RedoCommand.spec, CheckCommand.spec, CompletionsCommand.spec, ManCommand.spec,
        ]
    ).addingExamples(BooksExamples.byCommand)

    /// `--store <path>`, accepted before and after every subcommand.
    static let store = Option<String>(
        "store", valueName: "path", help: StorePath.helpText, isGlobal: true, isPath: true,
        validate: ValueFormats.storePath)

    /// Parses the process arguments.
    ///
    /// - Parameters:
    ///   - arguments: the arguments without the program name
    ///     (`Array(CommandLine.arguments.dropFirst())`).
    ///   - environment: the process environment, for the store's location. For `help` and
    ///     `version` the store URL is resolved from the environment alone, and is not used.
    /// - Throws: ``UsageError`` when the command line is malformed; print its
    ///   `description` to standard error and exit with its `exitCode` (64).
    static func parse(
        _ arguments: [String], environment: [String: String]
    ) throws(UsageError) -> ParsedCommand {
        let outcome = try CommandLineParser(root: root).parse(arguments)
        guard case .run(let parsed) = outcome else {
            let storeURL = StorePath.resolve(option: nil, environment: environment)
            if case .help(let path) = outcome {
                return ParsedCommand(
                    action: .help(helpText(forCommandPath: path)), storeURL: storeURL)
            }
            return ParsedCommand(action: .version, storeURL: storeURL)
        }
        let storeURL = StorePath.resolve(option: parsed[store], environment: environment)
        if parsed.commandPath.first == SeedCommand.spec.name, parsed[SeedCommand.remove] {
            let loading: [any OptionDeclaration] = [SeedCommand.file, SeedCommand.count, SeedCommand.batchSize]
            let given = loading.filter { parsed.contains($0) }.map(\.spec.displayName)
            if !given.isEmpty {
                throw CommandLineParser(root: root).error(.excludes(SeedCommand.remove.spec.displayName, given), path: ["seed"])
            }
        }
        return ParsedCommand(action: action(for: parsed), storeURL: storeURL)
    }

    /// The help text for the command at `path` (`[]` for the root), ending with a newline.
    static func helpText(forCommandPath path: [String]) -> String {
        HelpFormatter(root: root).help(forCommandPath: path)
    }

    // MARK: - Typed actions

    /// Turns parsed values into an action. Each value is read through the key that declared
    /// it; the fallbacks cannot be reached: the parser has enforced every required value and
    /// kind.
    private static func action(for parsed: ParsedArguments) -> ParsedCommand.Action {
        switch parsed.commandPath.first {
        case SeedCommand.spec.name:
            return .seed(
                SeedOptions(
                    file: parsed[SeedCommand.file],
                    syntheticCount: parsed[SeedCommand.count] ?? 0,
                    batchSize: parsed[SeedCommand.batchSize] ?? Catalog.defaultSeedBatchSize,
                    removesSampleBooks: parsed[SeedCommand.remove]))
        case ListCommand.spec.name:
            return .list(
                ListOptions(
                    byMonth: parsed[ListCommand.byMonth], predicate: parsed[ListCommand.predicate],
                    limit: parsed[ListCommand.limit].flatMap { $0 == 0 ? nil : $0 }, json: parsed[ListCommand.json],
                    formatName: parsed[ListCommand.format].flatMap(ListFormat.init(rawValue:)),
                    fields: parsed[ListCommand.fields].flatMap { try? BookField.parseList($0).get() },
                    order: ListingOrder(
                        key: parsed[ListCommand.sort].flatMap(ListingOrder.Key.init(rawValue:)) ?? .date,
                        reversed: parsed[ListCommand.reverse]),
                    since: parsed[ListCommand.since], until: parsed[ListCommand.until]))
        case SearchCommand.spec.name:
            return .search(
                SearchOptions(
                    text: (parsed[SearchCommand.text] ?? []).joined(separator: " "),
                    limit: parsed[SearchCommand.limit].map { $0 == 0 ? nil : $0 }
                        ?? SearchOptions.defaultLimit,
                    json: parsed[SearchCommand.json], predicate: parsed[ListCommand.predicate],
                    order: parsed[ListCommand.sort].flatMap(ListingOrder.Key.init(rawValue:)).map {
                        ListingOrder(key: $0, reversed: parsed[ListCommand.reverse])
                    },
                    formatName: parsed[ListCommand.format].flatMap(ListFormat.init(rawValue:)),
                    fields: parsed[ListCommand.fields].flatMap { try? BookField.parseList($0).get() }))
        case AddCommand.spec.name:
            return .add(
                bookFields(parsed, title: parsed[AddCommand.title] ?? "", authors: parsed[AddCommand.author] ?? []),
                allowDuplicate: parsed[AddCommand.allowDuplicate])
        case ShowCommand.spec.name:
            return parsed[ShowCommand.id].flatMap(BookIDPrefix.init).map { .show($0) }
                ?? .help(helpText(forCommandPath: [ShowCommand.spec.name]))
        case EditCommand.spec.name:
            let edit = bookFields(parsed, title: parsed[EditCommand.title], authors: parsed[EditCommand.author] ?? [])
            return parsed[EditCommand.id].flatMap(BookIDPrefix.init).map { .edit($0, edit) }
                ?? .help(helpText(forCommandPath: [EditCommand.spec.name]))
        case DeleteCommand.spec.name:
            return .delete(
                DeleteOptions(
                    ids: (parsed[DeleteCommand.ids] ?? []).compactMap(BookIDPrefix.init),
                    predicate: parsed[DeleteCommand.predicate], assumeYes: parsed[DeleteCommand.yes]))
        case ImportCommand.spec.name:
            return parsed[ImportCommand.file].map {
                .import(
                    ImportOptions(
                        file: $0, skipInvalid: parsed[ImportCommand.skipInvalid],
                        preferFile: parsed[ImportCommand.preferFile], dryRun: parsed[ImportCommand.dryRun]))
            }
                ?? .help(helpText(forCommandPath: [ImportCommand.spec.name]))
        case ExportCommand.spec.name:
            let output = parsed[ExportCommand.output]
            let format = parsed[ExportCommand.format].flatMap(ExportFormat.init(rawValue:))
                ?? (output?.lowercased().hasSuffix(".csv") == true ? .csv : .json)
            return .export(ExportOptions(format: format, output: output))
        case CheckCommand.spec.name:
            return .check
        case StatsCommand.spec.name:
            return .stats(
                StatsOptions(
                    top: parsed[StatsCommand.top] ?? Catalog.defaultStatsTopCount, ascii: parsed[StatsCommand.ascii],
                    json: parsed[StatsCommand.json]))
        case HistoryCommand.spec.name:
            return .history(limit: parsed[HistoryCommand.limit] ?? HistoryCommand.defaultLimit)
        case UndoCommand.spec.name:
            return .undo
        case RedoCommand.spec.name:
            return .redo
        case CompletionsCommand.spec.name:
            let shell = parsed[CompletionsCommand.shell].flatMap(CompletionScript.Shell.init(rawValue:)) ?? .bash
            return .help(CompletionScript(root: root).script(for: shell))
        case ManCommand.spec.name:
            return .help(ManPage(root: root, version: version, extraSections: ManCommand.extraSections).roff)
        default:
            return .help(helpText(forCommandPath: []))
        }
    }

    /// The fields `books add` and `books edit` share, as typed.
    private static func bookFields(_ parsed: ParsedArguments, title: String?, authors: [String]) -> BookEdit {
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
