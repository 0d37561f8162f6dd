/// Renders ``CommandSpec`` trees as swift-argument-parser-style help text and usage lines,
/// wrapped to a fixed width (80 columns by default, so output is the same in a pipe and in
/// any terminal).
///
/// ```
/// OVERVIEW: A command-line book catalogue.
///
/// USAGE: books <subcommand> [--store <path>]
///
/// OPTIONS:
///   --store <path>          The catalogue store (default: …).
///   --version               Show the version.
///   -h, --help              Show help information.
///
/// SUBCOMMANDS:
///   seed                    Load the seed books (and optionally N synthetic ones).
///
///   See 'books help <subcommand>' for detailed help.
/// ```
package struct HelpFormatter: Sendable {
    /// The root command; its name is the tool's name.
    package var root: CommandSpec
    /// The column at which text is wrapped.
    package var width: Int

    /// The column at which option and subcommand abstracts start (as in swift-argument-parser).
    package static let labelColumn = 26
    /// The indentation of labels in the `OPTIONS:`, `ARGUMENTS:` and `SUBCOMMANDS:` lists.
    package static let labelIndent = 2
    /// The help text of the built-in `-h, --help` flag.
    package static let helpOptionText = "Show help information."
    /// The abstract of the built-in `help` subcommand.
    package static let helpCommandText = "Show subcommand help information."

    /// Creates a formatter for the tool described by `root`.
    package init(root: CommandSpec, width: Int = 80) {
        self.root = root
        self.width = width
    }

    // MARK: - Help

    /// The help for the command at `path` (`[]` for the root, `["list"]` for `books list`,
    /// `["store", "export"]` for a nested one), ending with a newline. An unknown path renders
    /// the root's help. A root without subcommands (a tool that is one command, such as
    /// `persistence-codegen`) is rendered as a leaf: its arguments and options.
    package func help(forCommandPath path: [String]) -> String {
        let isHelpCommand = path == ["help"]
        let chain = isHelpCommand ? [] : root.commands(atPath: path) ?? []
        let command = chain.last
        let spec = command ?? root
        var text = ""
        var overview = isHelpCommand ? Self.helpCommandText : spec.abstract
        if !spec.discussion.isEmpty && !isHelpCommand { overview += "\n\n" + spec.discussion }
        if !overview.isEmpty {
            text += wrap("OVERVIEW: " + overview, indent: 0) + "\n\n"
        }
        text += "USAGE: " + usage(forCommandPath: isHelpCommand ? ["help"] : chain.map(\.name)) + "\n"

        var argumentRows: [(String, String)] = []
        var optionRows: [(String, String)] = []
        if isHelpCommand {
            argumentRows.append(("<subcommand>", "The subcommand to show help for."))
        } else if let command {
            argumentRows = command.arguments.map { ("<\($0.valueName)>", $0.help) }
            optionRows = command.options.map { ($0.helpLabel, $0.help) }
            optionRows += globalOptions.map { ($0.helpLabel, $0.help) }
        } else {
            // A tool that is one command (no subcommands) lists its own arguments here.
            argumentRows = root.arguments.map { ("<\($0.valueName)>", $0.help) }
            optionRows = root.options.map { ($0.helpLabel, $0.help) }
        }
        optionRows.append(("-h, --help", Self.helpOptionText))

        if !argumentRows.isEmpty { text += "\n" + section("ARGUMENTS", rows: argumentRows) }
        text += "\n" + section("OPTIONS", rows: optionRows)
        if !isHelpCommand && !spec.subcommands.isEmpty {
            var rows = spec.subcommands.map { ($0.name, $0.abstract) }
            if command == nil { rows.append(("help", Self.helpCommandText)) }
            text += "\n" + section("SUBCOMMANDS", rows: rows)
            let helpCommand = ([root.name, "help"] + chain.map(\.name) + ["<subcommand>"])
                .joined(separator: " ")
            text += "\n  See '\(helpCommand)' for detailed help.\n"
        }
        if !isHelpCommand && !spec.examples.isEmpty {
            text += "\n" + examplesSection(spec.examples)
        }
        return text
    }

    /// The `EXAMPLES:` section: each command line indented by 2, what it does under it,
    /// indented by 6.
    package func examplesSection(_ examples: [CommandExample]) -> String {
        var text = "EXAMPLES:\n"
        for (index, example) in examples.enumerated() {
            if index > 0 { text += "\n" }
            text += "  " + example.commandLine + "\n"
            text += wrap(example.explanation, indent: 6, firstLinePrefix: String(repeating: " ", count: 6)) + "\n"
        }
        return text
    }

    // MARK: - Usage

    /// The usage of the command at `path` without a `USAGE: ` prefix, wrapped so that it fits
    /// the width after a 7-column prefix, continuation lines aligned after the command name.
    package func usage(forCommandPath path: [String]) -> String {
        var head = root.name
        var components: [String] = []
        let chain = path == ["help"] ? nil : root.commands(atPath: path)
        if path == ["help"] {
            head += " help"
            components = ["[<subcommand>]"]
        } else if let chain, let command = chain.last {
            head += " " + chain.map(\.name).joined(separator: " ")
            components = command.subcommands.isEmpty ? [] : ["<subcommand>"]
            components += command.arguments.map(\.synopsis) + command.options.map(\.synopsis)
            components += globalOptions.map(\.synopsis)
        } else if root.subcommands.isEmpty {
            // A tool that is one command: its arguments and every option, as a leaf's.
            components = root.arguments.map(\.synopsis) + root.options.map(\.synopsis)
        } else {
            components = ["<subcommand>"] + globalOptions.map(\.synopsis)
        }
        return layOut(head: head, components: components, prefixWidth: 7)
    }

    /// The root options accepted by every subcommand.
    package var globalOptions: [OptionSpec] { root.options.filter(\.isGlobal) }

    // MARK: - Rows

    /// A row as swift-argument-parser prints it: the label indented by 2, the text from
    /// column 26 (or on the next line when the label is too long), wrapped with a hanging
    /// indent of 26.
    package func row(label: String, text: String) -> String {
        let indentedLabel = String(repeating: " ", count: Self.labelIndent) + label
        let pad = String(repeating: " ", count: Self.labelColumn)
        let body = wrap(text, indent: Self.labelColumn, firstLinePrefix: pad)
        if text.isEmpty { return indentedLabel + "\n" }
        if indentedLabel.count < Self.labelColumn {
            return indentedLabel + body.dropFirst(indentedLabel.count) + "\n"
        }
        return indentedLabel + "\n" + body + "\n"
    }

    // MARK: - Internals

    private func section(_ title: String, rows: [(String, String)]) -> String {
        "\(title):\n" + rows.map { row(label: $0.0, text: $0.1) }.joined()
    }

    /// Lays `head` and the components out on lines no wider than `width`, never breaking
    /// inside a component.
    private func layOut(head: String, components: [String], prefixWidth: Int) -> String {
        let indent = String(repeating: " ", count: prefixWidth + head.count + 1)
        var lines: [String] = []
        var line = head
        var column = prefixWidth + head.count
        for component in components {
            if column + 1 + component.count > width && line != head {
                lines.append(line)
                line = indent + component
                column = indent.count + component.count
                continue
            }
            line += " " + component
            column += 1 + component.count
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Word-wraps `text` to ``width``: paragraphs (separated by blank lines) and hard line
    /// breaks are kept, continuation lines start with `indent` spaces, and the first line
    /// starts with `firstLinePrefix`. A word longer than a line stays whole on its own line.
    package func wrap(_ text: String, indent: Int, firstLinePrefix: String = "") -> String {
        Self.wrap(text, width: width, indent: indent, firstLinePrefix: firstLinePrefix)
    }

    /// Word-wraps `text` to `width` columns; see the instance method.
    package static func wrap(
        _ text: String, width: Int, indent: Int, firstLinePrefix: String = ""
    ) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var isFirst = true
        for sourceLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let start = isFirst ? firstLinePrefix : pad
            isFirst = false
            if sourceLine.allSatisfy({ $0 == " " }) {
                lines.append("")
                continue
            }
            var line = start
            var lineHasWord = false
            // Runs of spaces inside a line are kept: they split into empty "words".
            for word in sourceLine.split(separator: " ", omittingEmptySubsequences: false) {
                if lineHasWord && !word.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = pad + word
                } else {
                    line += (lineHasWord ? " " : "") + word
                }
                lineHasWord = true
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
