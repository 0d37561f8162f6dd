/// A manual page in roff (the `man(7)` macros) generated from a tool's ``CommandSpec`` tree:
/// the same names, usage lines, help texts and examples as `help` prints, so that the page
/// cannot drift from what the tool accepts.
///
/// ```sh
/// books man > books.1 && man ./books.1
/// ```
///
/// Sections: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (the root's), COMMANDS (one subsection
/// per command at any depth, with its usage, arguments, options and examples), EXAMPLES
/// (the root's), then any sections the tool adds (such as EXIT STATUS). The page carries no
/// date, so that it is the same on every run.
package struct ManPage: Sendable {
    /// The tool's root command; its name is the page's name.
    package var root: CommandSpec
    /// The version shown in the page's footer (`books 0.1.0`).
    package var version: String
    /// Further sections after the generated ones: a title (`EXIT STATUS`) and paragraphs
    /// separated by blank lines.
    package var extraSections: [(title: String, text: String)]

    /// Creates the generator for the tool described by `root`.
    package init(root: CommandSpec, version: String, extraSections: [(title: String, text: String)] = []) {
        self.root = root
        self.version = version
        self.extraSections = extraSections
    }

    /// The page, in roff, ending with a newline.
    package var roff: String {
        let formatter = HelpFormatter(root: root, width: 1_000)
        var lines: [String] = []
        lines.append(".TH \(Self.quoted(root.name.uppercased())) 1 \"\" \(Self.quoted("\(root.name) \(version)")) \"User Commands\"")
        lines.append(".SH NAME")
        lines.append(Self.escaped(root.name) + " \\- " + Self.escaped(root.abstract))
        lines.append(".SH SYNOPSIS")
        lines.append(".nf")
        lines.append(Self.escaped(formatter.usage(forCommandPath: [])))
        lines.append(".fi")
        lines.append(".SH DESCRIPTION")
        lines += Self.paragraphs(root.discussion.isEmpty ? root.abstract : root.discussion)
        lines.append(".SH OPTIONS")
        lines += Self.argumentItems(root.arguments)
        lines += Self.optionItems(root.options + [Self.helpOption])
        if !root.subcommands.isEmpty {
            lines.append(".SH COMMANDS")
            for (path, command) in root.allCommands where !path.isEmpty {
                lines.append(".SS " + Self.escaped(([root.name] + path).joined(separator: " ")))
                lines += Self.paragraphs(command.abstract)
                if !command.discussion.isEmpty { lines += Self.paragraphs(command.discussion) }
                lines.append(".PP")
                lines.append(".nf")
                lines.append(Self.escaped("Usage: " + formatter.usage(forCommandPath: path)))
                lines.append(".fi")
                lines += Self.argumentItems(command.arguments)
                lines += Self.optionItems(command.options)
                lines += Self.examples(command.examples)
            }
            lines.append(".SS " + Self.escaped("\(root.name) help [<subcommand>]"))
            lines += Self.paragraphs(HelpFormatter.helpCommandText)
        }
        if !root.examples.isEmpty {
            lines.append(".SH EXAMPLES")
            lines += Self.examples(root.examples)
        }
        for section in extraSections {
            lines.append(".SH " + Self.escaped(section.title.uppercased()))
            lines += Self.paragraphs(section.text)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Parts

    private static let helpOption = OptionSpec.flag("help", shortName: "h", help: HelpFormatter.helpOptionText)

    /// `.TP` items for options: the label in bold (value names in italics), the help under it.
    private static func optionItems(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option -> [String] in
            var label = option.shortName.map { "\\fB\\-\(escaped(String($0)))\\fR, " } ?? ""
            label += "\\fB\\-\\-\(escaped(option.name))\\fR"
            if let valueName = option.valueName { label += " \\fI\(escaped(valueName))\\fR" }
            var help = option.help
            if case .choices(let choices) = option.completion, !help.contains(choices.joined(separator: ", ")) {
                help += " One of: " + choices.joined(separator: ", ") + "."
            }
            return [".TP", label] + lines(of: help)
        }
    }

    /// `.TP` items for positional arguments.
    private static func argumentItems(_ arguments: [ArgumentSpec]) -> [String] {
        arguments.flatMap { argument in
            [".TP", "\\fI\(escaped(argument.valueName))\\fR"] + lines(of: argument.help)
        }
    }

    /// Examples: each command line in a literal block, what it does under it.
    private static func examples(_ examples: [CommandExample]) -> [String] {
        guard !examples.isEmpty else { return [] }
        var lines = [".PP", "Examples:"]
        for example in examples {
            lines += [".PP", ".RS 4", ".nf", escaped(example.commandLine), ".fi", ".RE"]
            lines += Self.lines(of: example.explanation)
        }
        return lines
    }

    /// Paragraphs (separated by blank lines) as `.PP` blocks.
    private static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").flatMap { [".PP"] + lines(of: $0) }
    }

    /// Text as roff text lines: each source line escaped, no line empty (an empty line is a
    /// blank line in the output).
    private static func lines(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map { escaped(String($0)) }
    }

    // MARK: - Escaping

    /// `text` as roff text: backslashes and hyphens escaped, characters beyond ASCII as
    /// `\[uXXXX]` (so that no man implementation has to guess the encoding), and a line that
    /// would start with a control character (`.` or `'`) protected with `\&`.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// A macro argument in double quotes (a quote inside doubled, as groff reads it).
    private static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
