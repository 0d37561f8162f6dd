import Foundation

// MARK: - Command

/// A declarative description of one command of the tool: its name, its help text, the
/// positional arguments and options it accepts, and its subcommands.
///
/// The parser (``CommandLineParser``) reads arguments against a tree of specs, and the help
/// formatter (``HelpFormatter``) renders the same specs as swift-argument-parser-style help,
/// so what is accepted and what is documented cannot drift apart.
package struct CommandSpec: Sendable {
    /// The name typed on the command line (`list`), or the tool's name for the root.
    package var name: String
    /// One sentence shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    package var abstract: String
    /// Further paragraphs shown under the overview in this command's help; may be empty.
    package var discussion: String
    /// The positional arguments, in the order they are read.
    package var arguments: [ArgumentSpec]
    /// The named options and flags (the built-in `-h, --help` is not listed here).
    package var options: [OptionSpec]
    /// The subcommands; empty for a leaf command.
    package var subcommands: [CommandSpec]
    /// Command lines that show what the command is for, each with a sentence that says what
    /// it does: shown by `help`, in the manual page, and checked by tests to parse.
    package var examples: [CommandExample] = []

    /// Creates a command description from its declared arguments and options (typed keys
    /// such as ``Option``, ``Flag`` and ``Argument``, or plain specs).
    package init(
        name: String, abstract: String, discussion: String = "",
        arguments: [any ArgumentDeclaration] = [], options: [any OptionDeclaration] = [],
        subcommands: [CommandSpec] = [], examples: [CommandExample] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments.map(\.spec)
        self.options = options.map(\.spec)
        self.subcommands = subcommands
        self.examples = examples
    }

    /// Every command of the tree below this one with its path (this one first, with `[]`),
    /// parents before their subcommands: what generators walk.
    package var allCommands: [(path: [String], command: CommandSpec)] {
        var result: [(path: [String], command: CommandSpec)] = [([], self)]
        for subcommand in subcommands {
            result += subcommand.allCommands.map { ([subcommand.name] + $0.path, $0.command) }
        }
        return result
    }

    /// The direct subcommand called `name`, if any.
    package func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The commands named by `path` below this one, outermost first (`["store", "export"]`
    /// gives the `store` group, then its `export`), or `nil` when a name is not a subcommand
    /// of the command before it.
    package func commands(atPath path: [String]) -> [CommandSpec]? {
        var chain: [CommandSpec] = []
        for name in path {
            guard let next = (chain.last ?? self).subcommand(named: name) else { return nil }
            chain.append(next)
        }
        return chain
    }
}

// MARK: - Positional arguments

/// One positional argument of a command, such as `<text>` of `books search`.
package struct ArgumentSpec: ArgumentDeclaration {
    /// The key under which the parsed value is stored in ``ParsedArguments``.
    package var key: String
    /// The name shown between angle brackets in usage and help (`text` → `<text>`).
    package var valueName: String
    /// One sentence of help.
    package var help: String
    /// How the text is checked and converted.
    package var kind: ValueKind
    /// Whether the command fails with "Missing expected argument" without it.
    package var isRequired: Bool
    /// Whether it takes every remaining positional word (`<text> ...`); only the last argument
    /// may, and only with a `.string` or `.validated` kind.
    package var isRepeating: Bool
    /// What the value is, for shell completion.
    package var completion: ValueCompletion = .text
    /// Whether a word that starts with a single `-` and names no option of the command is
    /// one of this argument's words (`books search lem -solaris`) rather than an unknown
    /// option; only for a repeating argument. Words starting with `--` stay options, so that
    /// a misspelled one still gets its "Did you mean".
    package var acceptsDashWords = false

    /// Creates a positional argument description.
    package init(
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

    /// The spec itself, so a plain spec can be listed beside typed keys.
    package var spec: ArgumentSpec { self }

    /// The argument as written in usage lines: `<text>`, `<text> ...`, `[<text>]`.
    package var synopsis: String {
        var text = "<\(valueName)>"
        if isRepeating { text += " ..." }
        return isRequired ? text : "[\(text)]"
    }
}

// MARK: - Options and flags

/// One named option (`--limit <n>`) or flag (`--json`).
package struct OptionSpec: OptionDeclaration {
    /// The long name without its dashes (`by-month`); also the key of the parsed value.
    package var name: String
    /// An optional one-letter alias (`h` for `-h`).
    package var shortName: Character?
    /// The value's name for `--limit <n>`; `nil` makes this a flag that takes no value.
    package var valueName: String?
    /// How the value is checked and converted; ignored for flags.
    package var kind: ValueKind
    /// One sentence of help.
    package var help: String
    /// Whether the command fails with "Missing expected argument" without it.
    package var isRequired: Bool
    /// Whether it is accepted before and after any subcommand (like `--store`).
    package var isGlobal: Bool
    /// Whether it may be given several times (`--id A --id B`), each value kept in order;
    /// otherwise the last one given wins.
    package var isRepeatable = false
    /// What the value is, for shell completion and for judging "Did you mean" suggestions;
    /// ignored for flags.
    package var completion: ValueCompletion = .text
    /// Whether the next word is its value even when it begins with `-` (`--tag -old`), as
    /// for options whose values are signed changes.
    package var takesDashedValues = false

    /// Creates an option that takes a value.
    package static func value(
        _ name: String, shortName: Character? = nil, valueName: String, kind: ValueKind = .string, help: String,
        isRequired: Bool = false, isGlobal: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: shortName, valueName: valueName, kind: kind, help: help,
            isRequired: isRequired, isGlobal: isGlobal)
    }

    /// Creates a flag, an option that takes no value and is either present or not.
    package static func flag(_ name: String, shortName: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(
            name: name, shortName: shortName, valueName: nil, kind: .string, help: help,
            isRequired: false, isGlobal: false)
    }

    /// The spec itself, so a plain spec can be listed beside typed keys.
    package var spec: OptionSpec { self }

    /// Whether this option is a flag (takes no value).
    package var isFlag: Bool { valueName == nil }

    /// Whether the value is checked narrowly enough to refuse most words (a number, a UUID,
    /// one of a list), rather than any text or a path.
    package var takesNarrowValue: Bool {
        if case .choices = completion { return true }
        switch kind {
        case .integer, .uuid: return true
        case .string, .validated: return false
        }
    }

    /// The spelling used in messages: `--limit <n>` or `--json`.
    package var displayName: String {
        valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
    }

    /// The label in the help's `OPTIONS:` list: `-h, --help` or `--limit <n>`.
    package var helpLabel: String {
        shortName.map { "-\($0), \(displayName)" } ?? displayName
    }

    /// The option as written in usage lines: `--title <title>`, `[--limit <n>]` or
    /// `--id <id> ...`.
    package var synopsis: String {
        let text = isRepeatable ? displayName + " ..." : displayName
        return isRequired ? text : "[\(text)]"
    }
}

// MARK: - Examples

/// A command line that shows what a command is for: `books search author:lem solaris`,
/// with one sentence that says what it does.
package struct CommandExample: Sendable, Equatable {
    /// The whole command line as typed in a shell, tool name first, quoted as a shell
    /// needs it.
    package var commandLine: String
    /// What it does, one sentence.
    package var explanation: String

    /// Creates an example.
    package init(_ commandLine: String, _ explanation: String) {
        self.commandLine = commandLine
        self.explanation = explanation
    }
}

// MARK: - Values

/// What the value of an option or argument is, beyond how it is checked: for the shell
/// completion scripts, and for the "Did you mean" rule (an option that takes any text or a
/// path would take whatever word follows a misspelled option).
package enum ValueCompletion: Sendable, Equatable {
    /// Any text; the shell completes nothing.
    case text
    /// A file path; the shell completes file names.
    case file
    /// One of these words, completed by the shell and the only values accepted.
    case choices([String])
}

/// How the text of an argument or option value is checked and converted.
package enum ValueKind: Sendable {
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

extension ValueKind {
    /// Whether `text` is a value of this kind (converts and passes its checks).
    package func accepts(_ text: String) -> Bool {
        switch self {
        case .string: true
        case .integer(let range): Int(text).map(range.contains) ?? false
        case .uuid: UUID(uuidString: text) != nil
        case .validated(let check): (try? check(text).get()) != nil
        }
    }

    /// A check that accepts one of `choices` in any letter case, read back as the choice is
    /// spelled (`--sort Title` is `title`), naming them when it refuses.
    static func choices(_ choices: [String]) -> ValueKind {
        .validated { text in
            choices.first { $0.lowercased() == text.lowercased() }.map { .success($0) }
                ?? .failure(ValueRejection("must be one of " + choices.joined(separator: ", ")))
        }
    }
}

/// Why a value was refused; the text completes "The value 'x' is invalid for '--opt <v>': ".
package struct ValueRejection: Error, Sendable, Equatable {
    /// A lowercase phrase without final period, such as `must be at least 1`.
    package var reason: String

    /// Creates a rejection with the given reason.
    package init(_ reason: String) { self.reason = reason }
}
