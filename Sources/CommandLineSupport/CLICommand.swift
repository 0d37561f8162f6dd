import Foundation

// MARK: - Command

/// One command of a tool, declared in one type: what it accepts and documents (its spec and
/// examples), how its parsed arguments become the values it runs with, and the running.
///
/// A tool lists its command types once, in a registry (`static let all: [any BooksCommand.Type]`),
/// and derives everything else from that list: the root ``CommandSpec`` the parser reads
/// and the help, manual page and completion scripts render, and the dispatch from a parsed
/// command path to the type that runs it. So a new command is one new file (a type
/// conforming to this protocol) and one line in the registry: no parallel switch over the
/// commands to keep in step, and nothing a command declares can be missing from its help,
/// its manual page or its completions.
///
/// Each tool says what a command runs with (``Context``: the store and output of `books`, the
/// collected output of `persistence-tool`), and may refine the protocol with what only it
/// needs (`BooksCommand` says whether a command changes the catalogue, for its history). A
/// command's `run` may throw its tool's error type only (`throws(ToolError)`); the tool maps
/// what it throws to a message and an exit code in one place.
package protocol CLICommand: Sendable {
    /// What the tool gives every command to run with, such as where output goes.
    associatedtype Context

    /// The command's name, abstract, discussion, arguments and options (its examples are
    /// ``examples``, added by ``documentedSpec``).
    static var spec: CommandSpec { get }

    /// Command lines that show what the command is for, each with what it does: shown by
    /// `help <command>` and in the manual page, and checked by tests to parse.
    static var examples: [CommandExample] { get }

    /// Reads the values the parser checked into the command to run.
    ///
    /// - Parameters:
    ///   - parsed: the values given on the command line, read through the typed keys the
    ///     spec declares.
    ///   - parser: the tool's parser, to word a usage error of a rule between options as the
    ///     parser's own errors are (``CommandLineParser/error(_:path:help:)``).
    /// - Throws: ``UsageError`` for a combination of values the spec alone cannot refuse.
    init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError)

    /// Runs the command.
    ///
    /// - Returns: the exit code of a command that finished (one that reports a finding, such
    ///   as a model that does not validate, may return other than ``ExitCode/success``).
    /// - Throws: when the command cannot do what was asked: an error the tool turns into
    ///   one line on standard error and an exit code.
    func run(in context: inout Context) throws -> ExitCode
}

extension CLICommand {
    /// The name typed on the command line.
    package static var name: String { spec.name }

    /// ``spec`` with ``examples``: what the parser, the help, the manual page and the
    /// completion scripts read.
    package static var documentedSpec: CommandSpec {
        var spec = spec
        spec.examples = examples
        return spec
    }
}
