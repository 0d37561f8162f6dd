import Foundation

// MARK: - Declarations

/// Something a command lists among its options: a typed key (``Option``, ``Flag``) or a
/// plain ``OptionSpec``.
package protocol OptionDeclaration: Sendable {
    /// What the parser and the help renderer read.
    var spec: OptionSpec { get }
}

/// Something a command lists among its positional arguments: a typed key (``Argument``) or
/// a plain ``ArgumentSpec``.
package protocol ArgumentDeclaration: Sendable {
    /// What the parser and the help renderer read.
    var spec: ArgumentSpec { get }
}

/// A value type that a parsed option or argument can be read back as.
///
/// Only the types a ``ValueKind`` produces conform, and each typed key's initialiser pairs
/// its type with the kind that produces it (`Option<Int>` with `.integer`), so a read never
/// finds a value of another type.
package protocol ParsedValueConvertible: Sendable {
    /// The value, or `nil` when `parsed` holds another type.
    init?(parsedValue parsed: ParsedValue)
}

extension String: ParsedValueConvertible {
    /// The text; the words of a repeating argument joined by single spaces.
    package init?(parsedValue parsed: ParsedValue) {
        switch parsed {
        case .string(let text): self = text
        case .strings(let words): self = words.joined(separator: " ")
        default: return nil
        }
    }
}

extension Int: ParsedValueConvertible {
    /// The number.
    package init?(parsedValue parsed: ParsedValue) {
        guard case .integer(let number) = parsed else { return nil }
        self = number
    }
}

extension UUID: ParsedValueConvertible {
    /// The UUID.
    package init?(parsedValue parsed: ParsedValue) {
        guard case .uuid(let id) = parsed else { return nil }
        self = id
    }
}

extension Array: ParsedValueConvertible where Element == String {
    /// The words of a repeating argument, in order.
    package init?(parsedValue parsed: ParsedValue) {
        switch parsed {
        case .strings(let words): self = words
        case .string(let text): self = [text]
        default: return nil
        }
    }
}

// MARK: - Typed keys

/// An option that takes a value, declared once as a typed key and read back with it:
///
/// ```swift
/// static let batchSize = Option<Int>("batch-size", range: 1...1_000_000, help: "Save every N books.")
/// …
/// let size = parsed[SeedCommand.batchSize] ?? 20_000   // an Int?
/// ```
///
/// A misspelled key (`parsed[SeedCommand.batchSzie]`) does not compile, and the value's type
/// follows from the declaration: there is no way to read `--batch-size` as text.
package struct Option<Value: ParsedValueConvertible>: OptionDeclaration {
    /// What the parser and the help renderer read.
    package let spec: OptionSpec

    private init(spec: OptionSpec) { self.spec = spec }
}

extension Option where Value == String {
    /// An option whose value is text, checked and normalised by `validate` if given;
    /// `isPath` says the text names a file (the shell completes file names).
    package init(
        _ name: String, shortName: Character? = nil, valueName: String, help: String, isRequired: Bool = false,
        isGlobal: Bool = false, isPath: Bool = false,
        validate: (@Sendable (String) -> Result<String, ValueRejection>)? = nil
    ) {
        var spec = OptionSpec.value(
            name, shortName: shortName, valueName: valueName, kind: validate.map { .validated($0) } ?? .string,
            help: help, isRequired: isRequired, isGlobal: isGlobal)
        spec.completion = isPath ? .file : .text
        self.init(spec: spec)
    }

    /// An option whose value is one of `choices` (`--format csv|json`): anything else is
    /// refused, naming them, and the shell completes them.
    package init(
        _ name: String, shortName: Character? = nil, valueName: String, choices: [String], help: String,
        isRequired: Bool = false, isGlobal: Bool = false
    ) {
        var spec = OptionSpec.value(
            name, shortName: shortName, valueName: valueName, kind: .choices(choices), help: help,
            isRequired: isRequired, isGlobal: isGlobal)
        spec.completion = .choices(choices)
        self.init(spec: spec)
    }
}

extension Option where Value == [String] {
    /// An option that may be given several times (`--id A --id B`), read back as every
    /// value in order. With `takesDashedValues`, a value may begin with `-` (`--tag -old`).
    package init(
        repeating name: String, valueName: String, help: String, isRequired: Bool = false,
        takesDashedValues: Bool = false,
        validate: (@Sendable (String) -> Result<String, ValueRejection>)? = nil
    ) {
        var spec = OptionSpec.value(
            name, valueName: valueName, kind: validate.map { .validated($0) } ?? .string,
            help: help, isRequired: isRequired)
        spec.isRepeatable = true
        spec.takesDashedValues = takesDashedValues
        self.init(spec: spec)
    }
}

extension Option where Value == Int {
    /// An option whose value is a whole number within `range`.
    package init(
        _ name: String, valueName: String = "n", range: ClosedRange<Int>, help: String,
        isRequired: Bool = false, isGlobal: Bool = false
    ) {
        self.init(
            spec: .value(
                name, valueName: valueName, kind: .integer(range), help: help,
                isRequired: isRequired, isGlobal: isGlobal))
    }
}

extension Option where Value == UUID {
    /// An option whose value is a UUID.
    package init(
        _ name: String, valueName: String = "uuid", help: String, isRequired: Bool = false,
        isGlobal: Bool = false
    ) {
        self.init(
            spec: .value(
                name, valueName: valueName, kind: .uuid, help: help, isRequired: isRequired,
                isGlobal: isGlobal))
    }
}

/// A flag, an option that takes no value, read back as a `Bool`: `parsed[ListCommand.json]`.
package struct Flag: OptionDeclaration {
    /// What the parser and the help renderer read.
    package let spec: OptionSpec

    /// A flag called `--name` (and `-s` when `shortName` is given).
    package init(_ name: String, shortName: Character? = nil, help: String) {
        spec = .flag(name, shortName: shortName, help: help)
    }
}

/// A positional argument, declared once as a typed key and read back with it:
/// `parsed[ShowCommand.uuid]` is a `UUID?`.
package struct Argument<Value: ParsedValueConvertible>: ArgumentDeclaration {
    /// What the parser and the help renderer read.
    package let spec: ArgumentSpec

    private init(spec: ArgumentSpec) { self.spec = spec }
}

extension Argument where Value == String {
    /// A text argument, checked and normalised by `validate` if given; `isPath` says the
    /// text names a file (the shell completes file names).
    package init(
        _ key: String, valueName: String? = nil, help: String, isRequired: Bool = true,
        isPath: Bool = false,
        validate: (@Sendable (String) -> Result<String, ValueRejection>)? = nil
    ) {
        var spec = ArgumentSpec(
            key, valueName: valueName, help: help,
            kind: validate.map { .validated($0) } ?? .string, isRequired: isRequired)
        spec.completion = isPath ? .file : .text
        self.init(spec: spec)
    }

    /// An argument that is one of `choices` (`bash`, `zsh` or `fish`): anything else is
    /// refused, naming them, and the shell completes them.
    package init(
        _ key: String, valueName: String? = nil, choices: [String], help: String,
        isRequired: Bool = true
    ) {
        var spec = ArgumentSpec(
            key, valueName: valueName, help: help, kind: .choices(choices), isRequired: isRequired)
        spec.completion = .choices(choices)
        self.init(spec: spec)
    }
}

extension Argument where Value == [String] {
    /// An argument that takes every remaining positional word (`<text> ...`); it must be the
    /// command's last.
    /// `acceptsDashWords` takes a word such as `-solaris` that names no option as one of
    /// the words (see ``ArgumentSpec/acceptsDashWords``).
    package init(
        repeating key: String, valueName: String? = nil, help: String, isRequired: Bool = true,
        acceptsDashWords: Bool = false,
        validate: (@Sendable (String) -> Result<String, ValueRejection>)? = nil
    ) {
        var spec = ArgumentSpec(
            key, valueName: valueName, help: help,
            kind: validate.map { .validated($0) } ?? .string, isRequired: isRequired,
            isRepeating: true)
        spec.acceptsDashWords = acceptsDashWords
        self.init(spec: spec)
    }
}

extension Argument where Value == Int {
    /// A whole-number argument within `range`.
    package init(
        _ key: String, valueName: String? = nil, range: ClosedRange<Int>, help: String,
        isRequired: Bool = true
    ) {
        self.init(
            spec: ArgumentSpec(
                key, valueName: valueName, help: help, kind: .integer(range),
                isRequired: isRequired))
    }
}

extension Argument where Value == UUID {
    /// A UUID argument.
    package init(_ key: String, valueName: String? = nil, help: String, isRequired: Bool = true) {
        self.init(
            spec: ArgumentSpec(
                key, valueName: valueName, help: help, kind: .uuid, isRequired: isRequired))
    }
}
