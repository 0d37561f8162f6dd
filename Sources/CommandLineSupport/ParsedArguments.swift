import Foundation

/// What ``CommandLineParser`` read from the command line.
package enum ParseOutcome: Equatable, Sendable {
    /// Run the command at `commandPath` with the given values.
    case run(ParsedArguments)
    /// Print the help of the command at this path (`[]` is the root), then exit 0.
    case help(commandPath: [String])
    /// Print the version, then exit 0.
    case version
}

/// The values given to one command, already checked and converted according to their
/// ``ValueKind``, read back only through the keys that declared them:
///
/// ```swift
/// let limit: Int? = parsed[ListCommand.limit]
/// let json: Bool = parsed[ListCommand.json]
/// ```
///
/// There is no lookup by name: a misspelled option name is a compile error, not a value
/// that is silently never found.
package struct ParsedArguments: Equatable, Sendable {
    /// The subcommand names below the root, such as `["list"]`.
    package var commandPath: [String]
    /// The values, keyed by ``ArgumentSpec/key`` or ``OptionSpec/name``; read through the
    /// typed subscripts.
    var values: [String: ParsedValue]

    /// Creates a set of parsed values.
    package init(commandPath: [String], values: [String: ParsedValue] = [:]) {
        self.commandPath = commandPath
        self.values = values
    }

    /// The value given to `option`, or `nil` when it was not given.
    package subscript<Value>(_ option: Option<Value>) -> Value? {
        values[option.spec.name].flatMap(Value.init(parsedValue:))
    }

    /// Whether `option` (an option or a flag) was given, whatever its value.
    package func contains(_ option: some OptionDeclaration) -> Bool {
        values[option.spec.name] != nil
    }

    /// Whether `flag` was given.
    package subscript(_ flag: Flag) -> Bool {
        values[flag.spec.name] == .flag
    }

    /// The value given to `argument`, or `nil` when it was not given (an optional argument,
    /// or a repeating one given no words).
    package subscript<Value>(_ argument: Argument<Value>) -> Value? {
        values[argument.spec.key].flatMap(Value.init(parsedValue:))
    }
}

/// One parsed value.
package enum ParsedValue: Equatable, Sendable {
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
