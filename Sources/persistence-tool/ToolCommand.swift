import CommandLineSupport
import Foundation
import Persistence

/// A command of `persistence-tool`: a group of subcommands, or a leaf that runs.
///
/// Commands are plain values so that new groups (the store commands) are added by listing
/// them in `PersistenceTool.root`. Their arguments and options are the shared framework's
/// typed keys (`Option<String>`, `Flag`, `Argument<String>`), read back by the action as
/// `arguments[StoreCommands.model]`. Reading the command line, the help and the usage errors
/// are the shared framework's (``CommandLineParser`` and ``HelpFormatter`` over ``spec``),
/// so both executables accept, document and refuse arguments the same way.
struct ToolCommand: Sendable {
    /// What a leaf command does with its parsed arguments; returns the exit code.
    typealias Action = @Sendable (ParsedArguments, inout ToolOutput) throws(ToolError) -> ExitCode

    var name: String
    var abstract: String
    var discussion: String?
    /// The positional arguments, declared as typed keys (`Argument<String>`) that the action
    /// reads back: `arguments[ModelCommands.path]`.
    var arguments: [any ArgumentDeclaration] = []
    /// The options, declared as typed keys (`Option<String>`, `Flag`, `Option<[String]>` for
    /// a repeatable one) that the action reads back: `arguments[StoreCommands.model]`.
    var options: [any OptionDeclaration] = []
    var subcommands: [ToolCommand] = []
    var action: Action?

    /// The command and its subcommands as the shared framework's description, which the
    /// parser reads arguments against and the help formatter renders.
    var spec: CommandSpec {
        CommandSpec(
            name: name, abstract: abstract, discussion: discussion.map(Self.paragraphs) ?? "",
            arguments: arguments, options: options, subcommands: subcommands.map(\.spec))
    }

    /// `text` with each paragraph on one line, so that the help formatter wraps it to its
    /// width: the discussions are written as source lines, which are not the help's lines.
    private static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").joined(separator: " ") }
            .joined(separator: "\n\n")
    }

    /// The action of the leaf command at `path` below this one (`["store", "export"]`).
    func action(atPath path: [String]) -> Action? {
        var command = self
        for name in path {
            guard let next = command.subcommands.first(where: { $0.name == name }) else {
                return nil
            }
            command = next
        }
        return command.action
    }

    /// Runs the command line `arguments` (without the program name) against this root
    /// command: parses them with the shared ``CommandLineParser``, prints help or the
    /// version, or runs the leaf command's action.
    func run(_ arguments: [String], output: inout ToolOutput) -> ExitCode {
        let spec = self.spec
        let outcome: ParseOutcome
        do throws(UsageError) {
            outcome = try CommandLineParser(root: spec).parse(arguments)
        } catch {
            output.error(error.description)
            return error.exitCode
        }
        switch outcome {
        case .help(let path):
            output.print(HelpFormatter(root: spec).help(forCommandPath: path))
            return .success
        case .version:
            output.print(PersistenceTool.version)
            return .success
        case .run(let parsed):
            guard let action = action(atPath: parsed.commandPath) else {
                output.print(HelpFormatter(root: spec).help(forCommandPath: parsed.commandPath))
                return .success
            }
            do throws(ToolError) {
                try StoreCommands.requireServerSupport(parsed)
                return try action(parsed, &output)
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
    private func message(for error: ToolError, commandPath: [String]) -> String {
        var message =
            error.isListOfProblems ? error.message : QuotedText.forMessage(error.message)
        if error.code == .usage {
            let helpCommand = ([name, "help"] + commandPath).joined(separator: " ")
            let end = message.hasSuffix(".") || message.hasSuffix("?") ? "" : "."
            message += "\(end) See '\(helpCommand)'."
        }
        return message
    }
}

/// A command's failure: its exit code and the message for standard error.
struct ToolError: Error {
    var code: ExitCode
    var message: String
    /// Whether ``message`` is a list of problems, a line each, every line already escaped
    /// (`model validate`'s; several objects that fail validation or conflict on a save).
    var isListOfProblems = false

    /// A usage error found by a command's action (the parser finds the others): `Error: …`,
    /// then a pointer to the command's help, on one line.
    static func usage(_ message: String) -> ToolError {
        ToolError(code: .usage, message: "Error: \(message)")
    }
}

/// Where a command writes: text for standard output and lines for standard error.
///
/// Both are collected and written at the end by ``flush()``, standard output through
/// `OutputWriter`, so that a failed write (`persistence-tool … > /dev/full`) is reported and
/// ends the process with 1 instead of passing unseen.
struct ToolOutput {
    private(set) var standardOutput = ""
    private(set) var standardError = ""

    /// Adds text to standard output, ending it with a newline if it has none.
    mutating func print(_ text: String) {
        standardOutput += text.hasSuffix("\n") ? text : text + "\n"
    }

    /// Adds a line to standard error, with any password in a store location it echoes
    /// hidden (`SecretRedaction`): standard error carries messages only, never data.
    mutating func error(_ line: String) {
        let line = SecretRedaction.redacting(line)
        standardError += line.hasSuffix("\n") ? line : line + "\n"
    }

    /// Writes what was collected to the process's streams; returns `code`, or 1 when
    /// standard output could not be written (then said on standard error).
    func flush(exitCode code: ExitCode) -> ExitCode {
        var errors = standardError
        var code = code
        do throws(OutputWriteError) {
            try OutputWriter().write(standardOutput)
        } catch {
            errors += "error: \(error)\n"
            code = .runtimeError
        }
        try? OutputWriter(fileDescriptor: STDERR_FILENO).write(errors)
        return code
    }
}
