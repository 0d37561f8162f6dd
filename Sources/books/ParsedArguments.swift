import Foundation

/// What ``CommandLineParser`` read from the command line, before it is turned into a typed
/// ``ParsedCommand``.
enum ParseOutcome: Equatable, Sendable {
    /// Run the command at `commandPath` with the given values.
    case run(ParsedArguments)
    /// Print the help of the command at this path (`[]` is the root), then exit 0.
    case help(commandPath: [String])
    /// Print the version, then exit 0.
    case version
}

/// The values given to one command, keyed by argument key or option name, already checked
/// and converted according to their ``ValueKind``.
struct ParsedArguments: Equatable, Sendable {
    /// The subcommand names below the root, such as `["list"]`.
    var commandPath: [String]
    /// The values, keyed by ``ArgumentSpec/key`` or ``OptionSpec/name``.
    var values: [String: ParsedValue]

    /// Creates a set of parsed values.
    init(commandPath: [String], values: [String: ParsedValue] = [:]) {
        self.commandPath = commandPath
        self.values = values
    }

    /// The text given for `key`, or `nil` when it was not given.
    func string(_ key: String) -> String? {
        switch values[key] {
        case .string(let text)?: text
        case .strings(let words)?: words.joined(separator: " ")
        default: nil
        }
    }

    /// The words given to a repeating argument, or `[]` when none were.
    func strings(_ key: String) -> [String] {
        switch values[key] {
        case .strings(let words)?: words
        case .string(let text)?: [text]
        default: []
        }
    }

    /// The number given for `key`, or `nil` when it was not given.
    func integer(_ key: String) -> Int? {
        if case .integer(let number)? = values[key] { return number }
        return nil
    }

    /// The UUID given for `key`, or `nil` when it was not given.
    func uuid(_ key: String) -> UUID? {
        if case .uuid(let id)? = values[key] { return id }
        return nil
    }

    /// Whether the flag `key` was given.
    func flag(_ key: String) -> Bool {
        values[key] == .flag
    }
}

/// One parsed value.
enum ParsedValue: Equatable, Sendable {
    /// Text, normalised by the value's validator if it has one.
    case string(String)
    /// Every word given to a repeating positional argument, in order.
    case strings([String])
    /// A whole number that passed its range check.
    case integer(Int)
    /// A UUID.
    case uuid(UUID)
    /// A flag that was present.
    case flag
}
