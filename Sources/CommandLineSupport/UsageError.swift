import PersistenceModel

/// A command line that a tool built on ``CommandLineParser`` cannot run as typed: an unknown option or command, a missing
/// or malformed value, a missing argument or extra words.
///
/// ``description`` is the whole text for standard error, one line in the spirit of
/// swift-argument-parser's message:
///
/// ```
/// Error: Unknown option '--by-mnth'. Did you mean '--by-month'? See 'books help list'.
/// ```
///
/// The process then exits with ``ExitCode/usage`` (64, `EX_USAGE`).
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the command line.
    package enum Reason: Equatable, Sendable {
        /// An option no command in scope accepts, with the closest known spelling if one is
        /// within two edits.
        case unknownOption(String, suggestion: String?)
        /// A word in the subcommand's place that names no subcommand.
        case unknownCommand(String, suggestion: String?)
        /// An option that takes a value was last on the line or followed by another option;
        /// the payload is its display name, such as `--limit <n>`.
        case missingValue(option: String)
        /// A value that its option or argument refuses; `target` is `--limit <n>` or `<uuid>`.
        case invalidValue(String, target: String, reason: String?)
        /// A flag given a value with `=`, as in `--json=yes`.
        case unexpectedValue(String, flag: String)
        /// A required argument or option that was not given (`<text>`, `--title <title>`).
        case missingArgument(String)
        /// Words left over after every positional argument was filled.
        case unexpectedArguments([String])
        /// None, or more than one, of options of which exactly one must be given (their
        /// display names, such as `--output <dir>`); found by the tool after parsing.
        case exactlyOneOf([String])
        /// An option given with others it excludes (display names: `--remove`, then the
        /// others); found by the tool after parsing.
        case excludes(String, [String])
    }

    /// What is wrong.
    package var reason: Reason
    /// The subcommand path the error belongs to (`["list"]`; `[]` for the root); it chooses
    /// the usage line and the `books help …` hint (``helpCommand``).
    package var commandPath: [String]
    /// The tool's name, as in the usage line.
    package var toolName: String
    /// The command's usage without the `Usage: ` prefix, already wrapped to 80 columns. Not
    /// part of ``description`` (an error is one line); for callers that show more.
    package var usage: String
    /// The command that shows the help this error points to: `books help list`, or
    /// `persistence-codegen --help` for a tool without subcommands (where `help` would be
    /// read as an argument).
    package var helpCommand: String
    /// The help of the option or argument concerned (`--limit <n>  Print at most N books.`)
    /// for missing and invalid values; `nil` otherwise. Not part of ``description``.
    package var help: String?

    /// The exit status for a usage error: 64 (`EX_USAGE`).
    package var exitCode: ExitCode { .usage }

    /// The one-line message after `Error: `. Values the user typed are quoted as error
    /// messages quote input: at most about 80 characters, control characters escaped.
    package var message: String {
        func quoted(_ text: String) -> String { QuotedText.excerpt(text) }
        switch reason {
        case .unknownOption(let option, let suggestion?):
            return "Unknown option '\(quoted(option))'. Did you mean '\(suggestion)'?"
        case .unknownOption(let option, nil):
            return "Unknown option '\(quoted(option))'"
        case .unknownCommand(let command, let suggestion?):
            return "Unknown command '\(quoted(command))'. Did you mean '\(suggestion)'?"
        case .unknownCommand(let command, nil):
            return "Unknown command '\(quoted(command))'"
        case .missingValue(let option):
            return "Missing value for '\(option)'"
        case .invalidValue(let value, let target, let reason?):
            return "The value '\(quoted(value))' is invalid for '\(target)': \(reason)"
        case .invalidValue(let value, let target, nil):
            return "The value '\(quoted(value))' is invalid for '\(target)'"
        case .unexpectedValue(let value, let flag):
            return "The option '\(flag)' does not take any value, but '\(quoted(value))' was specified."
        case .missingArgument(let argument):
            return "Missing expected argument '\(argument)'"
        case .unexpectedArguments(let words) where words.count == 1:
            return "Unexpected argument '\(quoted(words[0]))'"
        case .unexpectedArguments(let words):
            let shown = QuotedText.list(words.map { "'\(quoted($0))'" })
            return "\(words.count) unexpected arguments: \(shown)"
        case .exactlyOneOf(let options):
            let names = options.map { "'\($0)'" }
            let shown = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
            return "Expected exactly one of \(shown)"
        case .excludes(let option, let others):
            let names = others.map { "'\($0)'" }
            let shown = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names.joined()
            return "'\(option)' cannot be used with \(shown)"
        }
    }

    /// The whole text for standard error: one line, ending with a newline, that points to
    /// the command's help.
    ///
    /// An error is one line (the README promises it; a script's log stays one entry per
    /// failure), so the usage is not printed: `books help <command>` shows it.
    package var description: String {
        let end = message.hasSuffix(".") || message.hasSuffix("?") ? "" : "."
        return "Error: \(message)\(end) See '\(helpCommand)'.\n"
    }
}
