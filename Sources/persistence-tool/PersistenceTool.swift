import CommandLineSupport
import Foundation
import Persistence

/// `persistence-tool`'s command line: the root spec, made from ``PersistenceToolCommands/all``,
/// and the run of a command line against it.
///
/// Reading the command line, the help and the usage errors are the shared framework's
/// (``CommandLineParser`` and ``HelpFormatter`` over ``root``), so both executables accept,
/// document and refuse arguments the same way.
enum PersistenceTool {
    /// The tool's version, the library's.
    static let version = "persistence-tool \(PersistenceVersion.string)"

    /// The whole command tree: the groups and commands of ``PersistenceToolCommands/all``.
    static let root = CommandSpec(
        name: "persistence-tool",
        abstract: "Inspect Persistence model files and fill, read and edit their stores.",
        options: [Flag("version", help: "Show the version.")],
        subcommands: PersistenceToolCommands.all.map(\.spec))

    /// A command's spec, with each paragraph of `discussion` on one line, so that the help
    /// formatter wraps it to its width: the discussions are written as source lines, which
    /// are not the help's lines.
    static func spec(
        name: String, abstract: String, discussion: String = "",
        arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = []
    ) -> CommandSpec {
        let paragraphs = discussion.components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").joined(separator: " ") }
            .joined(separator: "\n\n")
        return CommandSpec(
            name: name, abstract: abstract, discussion: paragraphs, arguments: arguments, options: options)
    }

    /// Runs the command line `arguments` (without the program name): parses them with the
    /// shared ``CommandLineParser``, prints help or the version, or runs the command at the
    /// parsed path.
    static func run(_ arguments: [String], output: inout ToolOutput) -> ExitCode {
        let parser = CommandLineParser(root: root)
        let outcome: ParseOutcome
        do throws(UsageError) {
            outcome = try parser.parse(arguments)
        } catch {
            output.error(error.description)
            return error.exitCode
        }
        switch outcome {
        case .help(let path):
            output.print(HelpFormatter(root: root).help(forCommandPath: path))
            return .success
        case .version:
            output.print(version)
            return .success
        case .run(let parsed):
            // The parser gives help for a group named alone; this is only a safeguard.
            guard let type = PersistenceToolCommands.command(atPath: parsed.commandPath) else {
                output.print(HelpFormatter(root: root).help(forCommandPath: parsed.commandPath))
                return .success
            }
            let command: any PersistenceToolCommand
            do throws(UsageError) {
                command = try type.init(parsing: parsed, with: parser)
            } catch {
                output.error(error.description)
                return error.exitCode
            }
            do throws(ToolError) {
                try StoreCommands.requireServerSupport(parsed)
                // A command throws only ToolError; `failure` passes it through as it is.
                do { return try command.run(in: &output) } catch { throw StoreCommands.failure(error, file: nil) }
            } catch {
                output.error(message(for: error, commandPath: parsed.commandPath))
                return error.code
            }
        }
    }

    /// The text for standard error of a command's failure.
    ///
    /// A message is one line: a line break or control character in what it quotes is
    /// escaped. A list of problems (see ``ToolError/isListOfProblems``) is a line per problem. A usage
    /// error found by the action points to the command's help, as the parser's errors do.
    private static func message(for error: ToolError, commandPath: [String]) -> String {
        var message =
            error.isListOfProblems ? error.message : QuotedText.forMessage(error.message)
        if error.code == .usage {
            let helpCommand = ([root.name, "help"] + commandPath).joined(separator: " ")
            let end = message.hasSuffix(".") || message.hasSuffix("?") ? "" : "."
            message += "\(end) See '\(helpCommand)'."
        }
        return message
    }
}
