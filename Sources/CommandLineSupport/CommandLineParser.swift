import Foundation

/// Reads command-line words against a ``CommandSpec`` tree, the way swift-argument-parser
/// does, and returns what to do or throws a ``UsageError`` that explains the mistake.
///
/// Accepted forms:
/// - `--opt value` and `--opt=value`; a value may start with `-` only when it is a negative
///   number (`--limit -1` is then refused by the range check, not taken for an option);
/// - flags (`--json`), which refuse `=value`;
/// - `--` ends the options: every later word is positional, even `--help`;
/// - a word with a single `-` that names no option is positional in a command whose
///   repeating argument accepts such words (``ArgumentSpec/acceptsDashWords``);
/// - subcommands nested to any depth (`persistence-tool store export …`): while the command
///   read so far has subcommands, the next positional word must name one of them;
/// - global options (the root's options marked ``OptionSpec/isGlobal``, like `--store`) before
///   or after the subcommand;
/// - `-h` / `--help` anywhere before `--`: help for the subcommand named on the line (errors
///   in the rest of the line are then ignored, as in swift-argument-parser);
/// - `help [<subcommand> …]` as a built-in subcommand of the root;
/// - the root flag named `version`, before the subcommand.
///
/// A word in the subcommand's place that names no subcommand, and an unknown option, get a
/// "Did you mean" suggestion by ``NameSuggestion``: a subcommand for a subcommand, an option
/// for an option, never an option that could not take the value typed with `=` (a flag
/// for `--jsn=yes`, a number option for `--limt=ten`), and never one that would take the
/// next word as a value it was not meant to be (`--store` for `--sore title`); see
/// ``NameSuggestion/closestOption(to:written:in:)``.
package struct CommandLineParser: Sendable {
    /// The tool's root command.
    package var root: CommandSpec

    /// Creates a parser for the tool described by `root`.
    package init(root: CommandSpec) { self.root = root }

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``UsageError`` for anything the specs do not accept.
    package func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
        let optionWords = arguments.prefix { $0 != "--" }
        let wantsHelp = optionWords.contains { $0 == "-h" || $0 == "--help" }
        var state = State()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if state.optionsEnded || !Self.looksLikeOption(word) {
                try take(positional: word, into: &state)
            } else if word == "--" {
                state.optionsEnded = true
            } else if word == "-h" || word == "--help" {
                continue
            } else {
                do throws(UsageError) {
                    try take(option: word, arguments: arguments, index: &index, into: &state)
                } catch {
                    if !wantsHelp { throw error }
                }
            }
        }
        return try finish(state, wantsHelp: wantsHelp)
    }

    // MARK: - Parsing state

    /// What has been read so far.
    private struct State {
        /// The subcommands read so far, outermost first; empty at the root.
        var commands: [CommandSpec] = []
        var isHelpCommand = false
        var optionsEnded = false
        var wantsVersion = false
        var values: [String: ParsedValue] = [:]
        var positionals: [String] = []

        var path: [String] {
            isHelpCommand ? ["help"] : commands.map(\.name)
        }
    }

    private func take(positional word: String, into state: inout State) throws(UsageError) {
        let current = state.commands.last ?? root
        guard !state.isHelpCommand && !current.subcommands.isEmpty else {
            state.positionals.append(word)
            return
        }
        if word == "help" && state.commands.isEmpty {
            state.isHelpCommand = true
        } else if let command = current.subcommand(named: word) {
            state.commands.append(command)
        } else {
            throw unknownCommand(word, in: state.commands)
        }
    }

    private func take(
        option word: String, arguments: [String], index: inout Int, into state: inout State
    ) throws(UsageError) {
        let path = state.path
        let inScope = optionsInScope(for: state)
        let isLong = word.hasPrefix("--")
        let body = word.dropFirst(isLong ? 2 : 1)
        let equals = isLong ? body.firstIndex(of: "=") : nil
        let name = String(equals.map { body[..<$0] } ?? body)
        let inlineValue = equals.map { String(body[body.index(after: $0)...]) }

        let spec: OptionSpec?
        if isLong {
            spec = inScope.first { $0.name == name }
        } else {
            spec = name.count == 1 ? inScope.first { $0.shortName == name.first } : nil
        }
        guard let spec else {
            if !isLong, let command = state.commands.last, command.subcommands.isEmpty,
                command.arguments.contains(where: \.acceptsDashWords)
            {
                state.positionals.append(word)
                return
            }
            let typed = isLong ? "--\(name)" : word
            let form: NameSuggestion.WrittenForm
            if let inlineValue {
                form = .withValue(inlineValue)
            } else if index < arguments.count, arguments[index] != "--", !Self.looksLikeOption(arguments[index]) {
                form = .beforeWord(arguments[index])
            } else {
                form = .alone
            }
            throw error(
                .unknownOption(
                    typed,
                    suggestion: NameSuggestion.closestOption(to: "--\(name)", written: form, in: inScope)),
                path: path)
        }
        if spec.isFlag {
            if let inlineValue {
                throw error(.unexpectedValue(inlineValue, flag: spec.displayName), path: path)
            }
            state.values[spec.name] = .flag
            if spec.name == "version" && state.commands.isEmpty && !state.isHelpCommand {
                state.wantsVersion = true
            }
            return
        }
        let text: String
        if let inlineValue {
            text = inlineValue
        } else if index < arguments.count, spec.takesDashedValues || !Self.looksLikeOption(arguments[index]) {
            text = arguments[index]
            index += 1
        } else {
            throw error(
                .missingValue(option: spec.displayName), path: path,
                help: "\(spec.displayName)  \(spec.help)")
        }
        let value = try convert(
            text, kind: spec.kind, target: spec.displayName, help: spec.help, path: path)
        if spec.isRepeatable, case .string(let text) = value {
            var words: [String] = []
            if case .strings(let earlier)? = state.values[spec.name] { words = earlier }
            state.values[spec.name] = .strings(words + [text])
        } else {
            state.values[spec.name] = value
        }
    }

    private func finish(_ state: State, wantsHelp: Bool) throws(UsageError) -> ParseOutcome {
        if state.isHelpCommand {
            if wantsHelp { return .help(commandPath: ["help"]) }
            return try helpTarget(state.positionals)
        }
        if wantsHelp { return .help(commandPath: state.path) }
        if state.wantsVersion { return .version }
        // A group named without one of its subcommands shows its help, as the root does.
        let command = state.commands.last ?? root
        if !command.subcommands.isEmpty { return .help(commandPath: state.path) }
        var values = state.values
        var remaining = state.positionals[...]
        for argument in command.arguments {
            if argument.isRepeating {
                var words: [String] = []
                while let word = remaining.popFirst() {
                    let value = try convert(
                        word, kind: argument.kind, target: "<\(argument.valueName)>",
                        help: argument.help, path: state.path)
                    // Repeating arguments hold text (`.string` or `.validated` kinds).
                    if case .string(let checked) = value { words.append(checked) }
                }
                if !words.isEmpty { values[argument.key] = .strings(words) }
            } else if let word = remaining.popFirst() {
                values[argument.key] = try convert(
                    word, kind: argument.kind, target: "<\(argument.valueName)>",
                    help: argument.help, path: state.path)
            }
        }
        if !remaining.isEmpty {
            throw error(.unexpectedArguments(Array(remaining)), path: state.path)
        }
        for argument in command.arguments where argument.isRequired && values[argument.key] == nil {
            throw error(.missingArgument("<\(argument.valueName)>"), path: state.path)
        }
        for option in command.options where option.isRequired && values[option.name] == nil {
            throw error(.missingArgument(option.displayName), path: state.path)
        }
        return .run(ParsedArguments(commandPath: state.path, values: values))
    }

    /// The command `help <words>` asks about: each word names a subcommand of the one before
    /// (`help store export`); `help help` is the built-in command itself.
    private func helpTarget(_ words: [String]) throws(UsageError) -> ParseOutcome {
        if words.first == "help" {
            if words.count > 1 {
                throw error(.unexpectedArguments(Array(words.dropFirst())), path: ["help"])
            }
            return .help(commandPath: ["help"])
        }
        var commands: [CommandSpec] = []
        for word in words {
            let current = commands.last ?? root
            if current.subcommands.isEmpty {
                let extra = Array(words.dropFirst(commands.count))
                throw error(.unexpectedArguments(extra), path: ["help"])
            }
            guard let next = current.subcommand(named: word) else {
                throw unknownCommand(word, in: commands)
            }
            commands.append(next)
        }
        return .help(commandPath: commands.map(\.name))
    }

    // MARK: - Values

    private func convert(
        _ text: String, kind: ValueKind, target: String, help: String, path: [String]
    ) throws(UsageError) -> ParsedValue {
        func invalid(_ reason: String?) -> UsageError {
            error(
                .invalidValue(text, target: target, reason: reason), path: path,
                help: "\(target)  \(help)")
        }
        switch kind {
        case .string:
            return .string(text)
        case .integer(let range):
            guard let number = Int(text) else { throw invalid(nil) }
            if number < range.lowerBound { throw invalid("must be at least \(range.lowerBound)") }
            if number > range.upperBound { throw invalid("must be at most \(range.upperBound)") }
            return .integer(number)
        case .uuid:
            guard let id = UUID(uuidString: text) else { throw invalid(nil) }
            return .uuid(id)
        case .validated(let check):
            switch check(text) {
            case .success(let normalised): return .string(normalised)
            case .failure(let rejection): throw invalid(rejection.reason)
            }
        }
    }

    // MARK: - Errors and suggestions

    private func optionsInScope(for state: State) -> [OptionSpec] {
        if let command = state.commands.last {
            return command.options + root.options.filter(\.isGlobal) + [Self.helpOption]
        }
        if state.isHelpCommand { return root.options.filter(\.isGlobal) + [Self.helpOption] }
        return root.options + [Self.helpOption]
    }

    private static let helpOption = OptionSpec.flag(
        "help", shortName: "h", help: HelpFormatter.helpOptionText)

    /// The error for `word` in the place of a subcommand of the last of `commands` (of the
    /// root when empty), suggesting the closest of that command's subcommands.
    private func unknownCommand(_ word: String, in commands: [CommandSpec]) -> UsageError {
        let parent = commands.last ?? root
        let names = parent.subcommands.map(\.name) + (commands.isEmpty ? ["help"] : [])
        return error(
            .unknownCommand(word, suggestion: NameSuggestion.closest(to: word, in: names)),
            path: commands.map(\.name))
    }

    /// A usage error of the command at `path`, worded and pointing to help as the parser's
    /// own are: for the rules a tool checks after parsing, such as ``UsageError/Reason/exactlyOneOf(_:)``.
    package func error(
        _ reason: UsageError.Reason, path: [String], help: String? = nil
    ) -> UsageError {
        let helpCommand =
            root.subcommands.isEmpty
            ? "\(root.name) --help" : ([root.name, "help"] + path).joined(separator: " ")
        return UsageError(
            reason: reason, commandPath: path, toolName: root.name,
            usage: HelpFormatter(root: root).usage(forCommandPath: path), helpCommand: helpCommand,
            help: help)
    }

    /// Whether `word` is read as an option: it starts with `-`, is longer than `-` alone, and
    /// is not a negative number such as `-5` or `-1.5`.
    package static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return !isNegativeNumber(word)
    }

    /// Whether `word` is `-` followed by ASCII digits with at most one `.` among them.
    private static func isNegativeNumber(_ word: String) -> Bool {
        let body = word.utf8.dropFirst()
        guard let first = body.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return false }
        var dots = 0
        for byte in body {
            if byte == UInt8(ascii: ".") {
                dots += 1
            } else if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                return false
            }
        }
        return dots <= 1
    }
}
