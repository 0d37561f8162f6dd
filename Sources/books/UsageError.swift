/// A command line that `books` cannot run as typed: an unknown option or command, a missing
/// or malformed value, a missing argument or extra words.
///
/// ``description`` is the whole text for standard error, in swift-argument-parser's shape:
///
/// ```
/// Error: Unknown option '--by-mnth'. Did you mean '--by-month'?
/// Usage: books list [--by-month] [--where <predicate>] [--limit <n>] [--json]
///                   [--store <path>]
///   See 'books help list' for more information.
/// ```
///
/// The process then exits with ``ExitCode/usage`` (64, `EX_USAGE`).
struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the command line.
    enum Reason: Equatable, Sendable {
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
    }

    /// What is wrong.
    var reason: Reason
    /// The subcommand path the error belongs to (`["list"]`; `[]` for the root); it chooses
    /// the usage line and the `books help …` hint.
    var commandPath: [String]
    /// The tool's name, as in the usage line.
    var toolName: String
    /// The command's usage without the `Usage: ` prefix, already wrapped to 80 columns.
    var usage: String
    /// The help of the option or argument concerned (`--limit <n>  Print at most N books.`),
    /// shown after `Help:` for missing and invalid values; `nil` otherwise.
    var help: String?

    /// The exit status for a usage error: 64 (`EX_USAGE`).
    var exitCode: ExitCode { .usage }

    /// The one-line message after `Error: `.
    var message: String {
        switch reason {
        case .unknownOption(let option, let suggestion?):
            "Unknown option '\(option)'. Did you mean '\(suggestion)'?"
        case .unknownOption(let option, nil):
            "Unknown option '\(option)'"
        case .unknownCommand(let command, let suggestion?):
            "Unknown command '\(command)'. Did you mean '\(suggestion)'?"
        case .unknownCommand(let command, nil):
            "Unknown command '\(command)'"
        case .missingValue(let option):
            "Missing value for '\(option)'"
        case .invalidValue(let value, let target, let reason?):
            "The value '\(value)' is invalid for '\(target)': \(reason)"
        case .invalidValue(let value, let target, nil):
            "The value '\(value)' is invalid for '\(target)'"
        case .unexpectedValue(let value, let flag):
            "The option '\(flag)' does not take any value, but '\(value)' was specified."
        case .missingArgument(let argument):
            "Missing expected argument '\(argument)'"
        case .unexpectedArguments(let words) where words.count == 1:
            "Unexpected argument '\(words[0])'"
        case .unexpectedArguments(let words):
            "\(words.count) unexpected arguments: '\(words.joined(separator: "', '"))'"
        }
    }

    /// The full text for standard error, ending with a newline.
    var description: String {
        var text = "Error: \(message)\n"
        if let help {
            text += HelpFormatter.wrap("Help:  \(help)", width: 80, indent: 7) + "\n"
        }
        text += "Usage: \(usage)\n"
        let helpCommand = ([toolName, "help"] + commandPath).joined(separator: " ")
        text += "  See '\(helpCommand)' for more information.\n"
        return text
    }
}
