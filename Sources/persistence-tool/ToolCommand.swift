import CommandLineSupport
import Foundation
import Persistence

/// A command of `persistence-tool`: a group of subcommands, or a leaf that runs.
///
/// Commands are plain values so that new groups (the store commands) are added by listing
/// them in `PersistenceTool.root`. Their arguments and options are the shared framework's
/// typed keys (`Option<String>`, `Flag`, `Argument<String>`), read back by the action as
/// `arguments[StoreCommands.model]`; exit codes and "Did you mean" suggestions are the
/// framework's too. The walk through nested groups, the help layout and the wording of
/// usage errors (`Error: missing option --model <path>`) stay this tool's own, as its
/// scripts and tests know them.
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

    /// Runs the command with `arguments`; `path` is the command's full name
    /// (`["persistence-tool", "model"]`).
    func run(_ arguments: [String], path: [String], output: inout ToolOutput) -> ExitCode {
        do {
            return try dispatch(arguments, path: path, output: &output)
        } catch {
            // An error is one line: a usage error points to the command's help (which shows
            // the usage) instead of printing the usage after it.
            // A message is one line: a line break or control character in what it quotes is
            // escaped. Only `model validate`'s list of problems is a line per problem.
            var message =
                error.isListOfProblems
                ? error.message
                : QuotedText.forMessage(error.message)
            if error.code == .usage, let commandPath = error.commandPath {
                let helpCommand = ([commandPath[0], "help"] + commandPath.dropFirst()).joined(
                    separator: " ")
                let end = message.hasSuffix(".") || message.hasSuffix("?") ? "" : "."
                message += "\(end) See '\(helpCommand)'."
            }
            output.error(message)
            return error.code
        }
    }

    /// Runs the command, marking a usage error with the command it concerns.
    private func dispatch(
        _ arguments: [String], path: [String], output: inout ToolOutput
    ) throws(ToolError) -> ExitCode {
        do {
            return try route(arguments, path: path, output: &output)
        } catch {
            var marked = error
            if marked.code == .usage && marked.commandPath == nil {
                marked.commandPath = path
                marked.usage = usage(path)
            }
            throw marked
        }
    }

    private func route(
        _ arguments: [String], path: [String], output: inout ToolOutput
    ) throws(ToolError) -> ExitCode {
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }),
            !arguments.prefix(while: { $0 != "--help" && $0 != "-h" }).contains(where: {
                sub(named: $0) != nil
            })
        {
            output.print(help(path))
            return .success
        }
        if let action {
            let parsed = try ToolArgumentReader(command: self).read(arguments)
            return try action(parsed, &output)
        }
        guard let first = arguments.first else {
            output.print(help(path))
            return .success
        }
        if first == "help" {
            var command = self
            var helpPath = path
            for name in arguments.dropFirst() {
                guard let next = command.sub(named: name) else {
                    let names = command.subcommands.map(\.name)
                    throw .usage(
                        "unknown command '\(QuotedText.excerpt(name))'"
                            + Self.suggestion(for: name, among: names))
                }
                command = next
                helpPath.append(name)
            }
            output.print(command.help(helpPath))
            return .success
        }
        if first == "--version" && path.count == 1 {
            output.print(PersistenceTool.version)
            return .success
        }
        guard let next = sub(named: first) else {
            let kind = first.hasPrefix("-") ? "option" : "subcommand"
            let candidates =
                first.hasPrefix("-")
                ? (path.count == 1 ? ["--help", "--version"] : ["--help"])
                : subcommands.map(\.name)
            throw .usage(
                "unknown \(kind) '\(QuotedText.excerpt(first))'"
                    + Self.suggestion(for: first, among: candidates))
        }
        return try next.dispatch(
            Array(arguments.dropFirst()), path: path + [first], output: &output)
    }

    private func sub(named name: String) -> ToolCommand? {
        subcommands.first { $0.name == name }
    }

    // MARK: - Help

    /// The one-line usage: `persistence-tool model dump <path> [--json] [--version <name>]`.
    func usage(_ path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if action == nil {
            parts.append("<subcommand>")
        } else {
            parts += arguments.map { "<\($0.spec.valueName)>" }
            parts += options.map(\.spec.synopsis)
        }
        return parts.joined(separator: " ")
    }

    /// The full help text: overview, usage, arguments, options and subcommands.
    func help(_ path: [String]) -> String {
        var text = "OVERVIEW: \(abstract)\n"
        if let discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usage(path))\n"
        func row(_ left: String, _ right: String) -> String {
            let padded =
                left.count < 24
                ? left.padding(toLength: 24, withPad: " ", startingAt: 0) : left + "  "
            return "  \(padded)\(right)\n"
        }
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments.map(\.spec) {
                text += row("<\(argument.valueName)>", argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in options.map(\.spec) { text += row(option.displayName, option.help) }
        if path.count == 1 { text += row("--version", "Show the version.") }
        text += row("-h, --help", "Show help information.")
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for command in subcommands { text += row(command.name, command.abstract) }
            let helpCommand = ([path[0], "help"] + path.dropFirst() + ["<subcommand>"])
                .joined(separator: " ")
            text += "\n  See '\(helpCommand)' for detailed help.\n"
        }
        return text
    }

    // MARK: - Suggestions

    /// ". Did you mean 'x'?" when a candidate is close to `word` (by the shared
    /// ``NameSuggestion``), else "".
    static func suggestion(for word: String, among candidates: [String]) -> String {
        NameSuggestion.closest(to: word, in: candidates).map { ". Did you mean '\($0)'?" } ?? ""
    }
}

/// Reads a leaf command's words into the shared ``ParsedArguments``, which the command's
/// action reads back through the keys it declared.
///
/// `--name value`, `--name=value` and `--` work as usual; a word starting with `-` (other
/// than `-` alone) is an option, and an option's value is the next word whatever it is.
struct ToolArgumentReader {
    /// The command whose arguments and options are read.
    var command: ToolCommand

    /// Parses `arguments` by the command's declarations.
    func read(_ arguments: [String]) throws(ToolError) -> ParsedArguments {
        let options = command.options.map(\.spec)
        var values: [String: ParsedValue] = [:]
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let option = options.first(where: { "--\($0.name)" == parts[0] }) else {
                let candidates = options + [.flag("help", help: "")]
                let value = parts.count == 2 ? parts[1] : nil
                let suggestion = NameSuggestion.closestOption(
                    to: parts[0], value: value, in: candidates)
                throw .usage(
                    "unknown option '\(QuotedText.excerpt(parts[0]))'"
                        + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""))
            }
            let value: String
            if option.isFlag {
                guard parts.count == 1 else { throw .usage("--\(option.name) takes no value") }
                values[option.name] = .flag
                continue
            } else if parts.count == 2 {
                value = parts[1]
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("--\(option.name) needs a value <\(option.valueName ?? "value")>")
            }
            if option.isRepeatable {
                var earlier: [String] = []
                if case .strings(let words)? = values[option.name] { earlier = words }
                values[option.name] = .strings(earlier + [value])
            } else {
                values[option.name] = .string(value)
            }
        }
        for option in options where option.isRequired && values[option.name] == nil {
            throw .usage("missing option \(option.displayName)")
        }
        let declared = command.arguments.map(\.spec)
        if positionals.count < declared.count {
            let missing = declared[positionals.count...].map { "<\($0.valueName)>" }
            throw .usage("missing argument \(missing.joined(separator: " "))")
        }
        if positionals.count > declared.count {
            throw .usage(
                "unexpected argument '\(QuotedText.excerpt(positionals[declared.count]))'")
        }
        for (argument, word) in zip(declared, positionals) { values[argument.key] = .string(word) }
        return ParsedArguments(commandPath: [], values: values)
    }
}

/// A command's failure: its exit code and the message for standard error.
struct ToolError: Error {
    var code: ExitCode
    var message: String
    /// For a usage error, the command it concerns and its usage line.
    var commandPath: [String]? = nil
    var usage: String? = nil
    /// Whether ``message`` is `model validate`'s list of problems, a line each.
    var isListOfProblems = false

    /// A usage error: `Error: …`, then a pointer to the command's help, on one line.
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

    /// Adds a line to standard error.
    mutating func error(_ line: String) {
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
