import Foundation

// MARK: - Command

/// A declarative description of one command of the tool: its name, its help text, the
/// positional arguments and options it accepts, and its subcommands.
///
/// The parser (``CommandLineParser``) reads arguments against a tree of specs, and the help
/// formatter (``HelpFormatter``) renders the same specs as swift-argument-parser-style help,
/// so what is accepted and what is documented cannot drift apart.
struct CommandSpec: Sendable {
    /// The name typed on the command line (`list`), or the tool's name for the root.
    var name: String
    /// One sentence shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    var abstract: String
    /// Further paragraphs shown under the overview in this command's help; may be empty.
    var discussion: String
    /// The positional arguments, in the order they are read.
    var arguments: [ArgumentSpec]
    /// The named options and flags (the built-in `-h, --help` is not listed here).
    var options: [OptionSpec]
    /// The subcommands; empty for a leaf command.
    var subcommands: [CommandSpec]

    /// Creates a command description.
    init(
        name: String, abstract: String, discussion: String = "",
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        subcommands: [CommandSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
    }

    /// The direct subcommand called `name`, if any.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The option whose long name is `name` (without dashes), if any.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}

// MARK: - Positional arguments

/// One positional argument of a command, such as `<text>` of `books search`.
struct ArgumentSpec: Sendable {
    /// The key under which the parsed value is stored in ``ParsedArguments``.
    var key: String
    /// The name shown between angle brackets in usage and help (`text` → `<text>`).
    var valueName: String
    /// One sentence of help.
    var help: String
    /// How the text is checked and converted.
    var kind: ValueKind
    /// Whether the command fails with "Missing expected argument" without it.
    var isRequired: Bool
    /// Whether it takes every remaining positional word (`<text> ...`); only the last argument
    /// may, and only with a `.string` or `.validated` kind.
    var isRepeating: Bool

    /// Creates a positional argument description.
    init(
        _ key: String, valueName: String? = nil, help: String, kind: ValueKind = .string,
        isRequired: Bool = true, isRepeating: Bool = false
    ) {
        self.key = key
        self.valueName = valueName ?? key
        self.help = help
        self.kind = kind
        self.isRequired = isRequired
        self.isRepeating = isRepeating
    }

    /// The argument as written in usage lines: `<text>`, `<text> ...`, `[<text>]`.
    var synopsis: String {
        var text = "<\(valueName)>"
        if isRepeating { text += " ..." }
        return isRequired ? text : "[\(text)]"
    }
}

// MARK: - Options and flags

/// One named option (`--limit <n>`) or flag (`--json`).
struct OptionSpec: Sendable {
    /// The long name without its dashes (`by-month`); also the key of the parsed value.
    var name: String
    /// An optional one-letter alias (`h` for `-h`).
    var shortName: Character?
    /// The value's name for `--limit <n>`; `nil` makes this a flag that takes no value.
    var valueName: String?
    /// How the value is checked and converted; ignored for flags.
    var kind: ValueKind
    /// One sentence of help.
    var help: String
    /// Whether the command fails with "Missing expected argument" without it.
    var isRequired: Bool
    /// Whether it is accepted before and after any subcommand (like `--store`).
    var isGlobal: Bool

    /// Creates an option that takes a value.
    static func value(
        _ name: String, valueName: String, kind: ValueKind = .string, help: String,
        isRequired: Bool = false, isGlobal: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: nil, valueName: valueName, kind: kind, help: help,
            isRequired: isRequired, isGlobal: isGlobal)
    }

    /// Creates a flag, an option that takes no value and is either present or not.
    static func flag(_ name: String, shortName: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(
            name: name, shortName: shortName, valueName: nil, kind: .string, help: help,
            isRequired: false, isGlobal: false)
    }

    /// Whether this option is a flag (takes no value).
    var isFlag: Bool { valueName == nil }

    /// The spelling used in messages: `--limit <n>` or `--json`.
    var displayName: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }

    /// The label in the help's `OPTIONS:` list: `-h, --help` or `--limit <n>`.
    var helpLabel: String {
        shortName.map { "-\($0), \(displayName)" } ?? displayName
    }

    /// The option as written in usage lines: `--title <title>` or `[--limit <n>]`.
    var synopsis: String {
        isRequired ? displayName : "[\(displayName)]"
    }
}

// MARK: - Values

/// How the text of an argument or option value is checked and converted.
enum ValueKind: Sendable {
    /// Any text, kept as written.
    case string
    /// A whole number in base 10 within the range.
    case integer(ClosedRange<Int>)
    /// A UUID such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (any letter case).
    case uuid
    /// Text checked by a function that returns the normalised text, or a reason to refuse it
    /// (the reason follows "The value 'x' is invalid for '--date <yyyy-mm-dd>': ").
    case validated(@Sendable (String) -> Result<String, ValueRejection>)
}

/// Why a value was refused; the text completes "The value 'x' is invalid for '--opt <v>': ".
struct ValueRejection: Error, Sendable, Equatable {
    /// A lowercase phrase without final period, such as `must be at least 1`.
    var reason: String

    /// Creates a rejection with the given reason.
    init(_ reason: String) { self.reason = reason }
}
