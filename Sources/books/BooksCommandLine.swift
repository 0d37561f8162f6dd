import BookCatalog
import CommandLineSupport
import Foundation

/// The command line of `books`: the root spec, made from the commands of
/// ``BooksCommands/all``, and the entry point that turns the process arguments into a
/// ``ParsedCommand``.
///
/// In `main.swift`:
///
/// ```swift
/// let environment = ProcessInfo.processInfo.environment
/// let command: ParsedCommand
/// do {
///     command = try BooksCommandLine.parse(arguments, environment: environment)
/// } catch {
///     Terminal.write(error.description, to: STDERR_FILENO)
///     exit(error.exitCode.rawValue)
/// }
/// exit(CommandRunner(command: command, environment: environment).run().rawValue)
/// ```
enum BooksCommandLine {
    /// The version printed by `books --version`.
    static let version = "0.1.0"

    /// The whole command tree: the root, and a subcommand for each of ``BooksCommands/all``.
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
        // A closure, not the key path `\.documentedSpec`: a key path to a static property through
        // an existential metatype crashes the Swift 6.3 compiler.
        subcommands: BooksCommands.all.map { $0.documentedSpec })

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
        let parser = CommandLineParser(root: root)
        let outcome = try parser.parse(arguments)
        guard case .run(let parsed) = outcome else {
            let storeURL = StorePath.resolve(option: nil, environment: environment)
            if case .help(let path) = outcome {
                return ParsedCommand(
                    action: .help(helpText(forCommandPath: path)), storeURL: storeURL)
            }
            return ParsedCommand(action: .version, storeURL: storeURL)
        }
        let storeURL = StorePath.resolve(option: parsed[store], environment: environment)
        // The parser gives help for a line without a subcommand; this is only a safeguard.
        guard let type = BooksCommands.command(named: parsed.commandPath.first) else {
            return ParsedCommand(action: .help(helpText(forCommandPath: [])), storeURL: storeURL)
        }
        return ParsedCommand(action: .run(try type.init(parsing: parsed, with: parser)), storeURL: storeURL)
    }

    /// The help text for the command at `path` (`[]` for the root), ending with a newline.
    static func helpText(forCommandPath path: [String]) -> String {
        HelpFormatter(root: root).help(forCommandPath: path)
    }
}
