import CommandLineSupport
import Foundation
import Persistence

/// A command of `persistence-tool`: a group of subcommands, or a leaf that runs.
///
/// Commands are plain values so that new groups (the store commands) are added by listing
/// them in `PersistenceTool.root`. Help, `help <command>`, usage errors with near-miss
/// suggestions and exit codes are handled here, in the style of swift-argument-parser.
struct ToolCommand: Sendable {
    /// A positional argument, for help and arity checks.
    struct Argument: Sendable {
        var name: String
        var help: String
    }

    /// An option: a flag (`--json`) or an option taking a value (`--version <name>`).
    struct Option: Sendable {
        var name: String
        var valueName: String?
        var help: String
        /// Whether the command refuses to run without it (shown without brackets in usage).
        var isRequired = false
        /// Whether it may be given several times (`--id A --id B`); see `allValues`.
        var isRepeatable = false
    }

    /// What a leaf command does with its parsed arguments; returns the exit code.
    typealias Action = @Sendable (ParsedArguments, inout ToolOutput) throws(ToolError) -> ExitCode

    var name: String
    var abstract: String
    var discussion: String?
    var arguments: [Argument] = []
    var options: [Option] = []
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
            let parsed = try ParsedArguments(arguments, for: self)
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
            parts += arguments.map { "<\($0.name)>" }
            parts += options.map { option in
                let text = option.name + (option.valueName.map { " <\($0)>" } ?? "")
                    + (option.isRepeatable ? " ..." : "")
                return option.isRequired ? text : "[\(text)]"
            }
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
            for argument in arguments { text += row("<\(argument.name)>", argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            text += row(option.name + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
        }
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

    /// " Did you mean 'x'?" when one candidate is close to `word`, else "".
    static func suggestion(for word: String, among candidates: [String]) -> String {
        // No name is longer than a few dozen characters: a long word is near none of them,
        // and comparing it would cost its length times theirs.
        guard word.count <= 64 else { return "" }
        let scored = candidates.map { ($0, distance(word, $0)) }.filter {
            $0.1 <= max(2, word.count / 3)
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        return ". Did you mean '\(best.0)'?"
    }

    /// The Levenshtein distance between two strings.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(
                    min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// The arguments of a leaf command: its positionals, flags and option values.
struct ParsedArguments {
    /// Positional arguments, in order.
    var positionals: [String] = []
    /// Flags given (`--json`).
    var flags: Set<String> = []
    /// Option values given (`--version` → `"SampleModel2"`); the last one for a repeated option.
    var values: [String: String] = [:]
    /// Every value of each option, in order (`--id A --id B` → `["A", "B"]`).
    var allValues: [String: [String]] = [:]

    /// Parses `arguments` by `command`'s options; `--name=value` and `--` work as usual.
    init(_ arguments: [String], for command: ToolCommand) throws(ToolError) {
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
            guard let option = command.options.first(where: { $0.name == parts[0] }) else {
                let names = command.options.map(\.name) + ["--help"]
                throw .usage(
                    "unknown option '\(QuotedText.excerpt(parts[0]))'"
                        + ToolCommand.suggestion(for: parts[0], among: names))
            }
            if option.valueName == nil {
                guard parts.count == 1 else { throw .usage("\(option.name) takes no value") }
                flags.insert(option.name)
            } else if parts.count == 2 {
                values[option.name] = parts[1]
                allValues[option.name, default: []].append(parts[1])
            } else if index < arguments.count {
                values[option.name] = arguments[index]
                allValues[option.name, default: []].append(arguments[index])
                index += 1
            } else {
                throw .usage("\(option.name) needs a value <\(option.valueName ?? "value")>")
            }
        }
        for option in command.options where option.isRequired && values[option.name] == nil {
            throw .usage("missing option \(option.name)" + (option.valueName.map { " <\($0)>" } ?? ""))
        }
        if positionals.count < command.arguments.count {
            let missing = command.arguments[positionals.count...].map { "<\($0.name)>" }
            throw .usage("missing argument \(missing.joined(separator: " "))")
        }
        if positionals.count > command.arguments.count {
            throw .usage(
                "unexpected argument '\(QuotedText.excerpt(positionals[command.arguments.count]))'")
        }
    }
}

/// The tool's exit codes, from BSD's sysexits.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    /// The command line is wrong (EX_USAGE).
    case usage = 64
    /// The input is invalid (EX_DATAERR).
    case dataError = 65
    /// The input file does not exist (EX_NOINPUT).
    case noInput = 66
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
            code = .failure
        }
        try? OutputWriter(fileDescriptor: STDERR_FILENO).write(errors)
        return code
    }
}
