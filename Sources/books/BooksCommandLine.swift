import BookCatalog
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
            LANG; times follow TZ.
            """,
        options: [
            .value(
                "store", valueName: "path", kind: .validated(ValueFormats.storePath),
                help: StorePath.helpText, isGlobal: true),
            .flag("version", help: "Show the version."),
        ],
        subcommands: [seed, list, search, add, show, delete, check])

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
        let storeURL = StorePath.resolve(option: parsed.string("store"), environment: environment)
        return ParsedCommand(action: action(for: parsed), storeURL: storeURL)
    }

    /// The help text for the command at `path` (`[]` for the root), ending with a newline.
    static func helpText(forCommandPath path: [String]) -> String {
        HelpFormatter(root: root).help(forCommandPath: path)
    }

    // MARK: - Subcommands

    private static let limit = OptionSpec.value(
        "limit", valueName: "n", kind: .integer(1...Int.max), help: "Print at most N books.")
    private static let json = OptionSpec.flag(
        "json", help: "Print JSON (an array of objects) instead of text.")

    private static let seed = CommandSpec(
        name: "seed",
        abstract: "Load the seed books (and optionally N synthetic ones).",
        discussion: """
            The seed books are real books with accented titles; --file loads another file \
            in the same format (a JSON array of objects with uuid, title, author, \
            publishDate, price and color). Synthetic books are for trying out large \
            catalogues: book number i is always the same book, so seeding --count N again \
            updates the same N books and the count does not grow. The file is checked \
            whole before anything is written. Books are saved in batches (a large batch \
            commits early, about once a second, so other writers wait their turn); a seed \
            stopped by SIGINT, SIGTERM or SIGHUP, or by a full disk, keeps what it \
            committed and says how much. Seeding is idempotent: books are matched by UUID \
            and updated, never duplicated.
            """,
        options: [
            .value(
                "file", valueName: "path", kind: .validated(ValueFormats.storePath),
                help: "Load the books of this JSON file (- for standard input) instead of the bundled ones."),
            .value(
                "count", valueName: "n", kind: .integer(0...10_000_000),
                help: "Also add N synthetic books (0 to 10000000)."),
            .value(
                "batch-size", valueName: "n", kind: .integer(1...1_000_000),
                help: "Save every N books (default \(Catalog.defaultSeedBatchSize))."),
        ])

    private static let list = CommandSpec(
        name: "list",
        abstract: "List the books in the catalogue.",
        options: [
            .flag("by-month", help: "Group the books under month headings."),
            .value(
                "where", valueName: "predicate", kind: .validated(ValueFormats.nonBlank),
                help: "Only books matching PREDICATE, such as \"price < 15\"."),
            limit, json,
        ])

    private static let search = CommandSpec(
        name: "search",
        abstract: "Find books by words of their title or author.",
        discussion: """
            Every word must occur in the title or the author's name, in any order; case and \
            accents are ignored, so "marquez cien" finds "Cien años de soledad".
            """,
        arguments: [
            ArgumentSpec(
                "text", help: "The words to look for.",
                kind: .validated(ValueFormats.nonBlank), isRepeating: true)
        ],
        options: [
            .value(
                "limit", valueName: "n", kind: .integer(0...Int.max),
                help: "Print the best N books (default \(SearchOptions.defaultLimit)); 0 prints every match."),
            json,
        ])

    private static let add = CommandSpec(
        name: "add",
        abstract: "Add a book.",
        discussion: """
            The price is a plain number with '.' as decimal separator whatever the locale \
            (12.99); it is kept exactly. Quote the color: '#' starts a comment in the shell.
            """,
        options: [
            .value(
                "title", valueName: "title", kind: .string,
                help: "The title, 1 to 500 characters.", isRequired: true),
            .value(
                "author", valueName: "author", kind: .string,
                help: "The author's name.", isRequired: true),
            .value(
                "date", valueName: "yyyy-mm-dd", kind: .string,
                help: "The publication date.", isRequired: true),
            .value(
                "price", valueName: "price", kind: .string,
                help: "The price, such as 12.99.", isRequired: true),
            .value(
                "color", valueName: "#rrggbb", kind: .string,
                help: "The cover color, such as '#1E90FF'."),
        ])

    private static let show = CommandSpec(
        name: "show",
        abstract: "Show one book.",
        arguments: [ArgumentSpec("uuid", help: "The book's identifier.", kind: .uuid)])

    private static let delete = CommandSpec(
        name: "delete",
        abstract: "Delete one book.",
        arguments: [ArgumentSpec("uuid", help: "The book's identifier.", kind: .uuid)])

    private static let check = CommandSpec(
        name: "check",
        abstract: "Check the catalogue file for damage.",
        discussion: """
            Runs SQLite's integrity check and checks the catalogue against its model: the \
            search index, key counters, links between books and authors, and files beside the \
            store. Prints one line per problem, or that the catalogue is healthy; exits 0 when \
            it is, 1 when it is damaged. Reads only; never creates the catalogue.
            """)

    // MARK: - Typed actions

    /// Turns parsed values into an action. Values are read with fallbacks that cannot be
    /// reached: the parser has enforced every required value and kind.
    private static func action(for parsed: ParsedArguments) -> ParsedCommand.Action {
        switch parsed.commandPath.first {
        case "seed":
            return .seed(
                SeedOptions(
                    file: parsed.string("file"), syntheticCount: parsed.integer("count") ?? 0,
                    batchSize: parsed.integer("batch-size") ?? Catalog.defaultSeedBatchSize))
        case "list":
            return .list(
                ListOptions(
                    byMonth: parsed.flag("by-month"), predicate: parsed.string("where"),
                    limit: parsed.integer("limit"), json: parsed.flag("json")))
        case "search":
            return .search(
                SearchOptions(
                    text: parsed.strings("text").joined(separator: " "),
                    limit: parsed.integer("limit").map { $0 == 0 ? nil : $0 } ?? SearchOptions.defaultLimit,
                    json: parsed.flag("json")))
        case "add":
            return .add(
                NewBookOptions(
                    title: parsed.string("title") ?? "", author: parsed.string("author") ?? "",
                    dateText: parsed.string("date") ?? "", priceText: parsed.string("price") ?? "",
                    colorText: parsed.string("color")))
        case "show":
            return parsed.uuid("uuid").map { .show($0) }
                ?? .help(helpText(forCommandPath: ["show"]))
        case "delete":
            return parsed.uuid("uuid").map { .delete($0) }
                ?? .help(helpText(forCommandPath: ["delete"]))
        case "check":
            return .check
        default:
            return .help(helpText(forCommandPath: []))
        }
    }
}
