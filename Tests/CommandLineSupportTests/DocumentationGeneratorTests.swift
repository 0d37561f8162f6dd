import CommandLineSupport
import Testing

/// Help examples, completion scripts and the manual page are generated from the command
/// specs: whatever a tool declares appears in each, with nothing written per command.
@Suite struct DocumentationGeneratorTests {
    static let shell = Argument<String>("shell", choices: ["bash", "zsh", "fish"], help: "The shell.")
    static let output = Option<String>("output", valueName: "file", help: "Write here.", isPath: true)
    static let format = Option<String>("format", valueName: "format", choices: ["csv", "json"], help: "The format.")
    static let root = CommandSpec(
        name: "my-tool", abstract: "A tool with a-hyphen.",
        discussion: "It does things.\n\n.A line that starts with a dot, and a \\ backslash.",
        options: [ToolFixture.store, ToolFixture.version],
        subcommands: [
            ToolFixture.List.spec,
            CommandSpec(
                name: "store", abstract: "Work on stores.",
                subcommands: [
                    CommandSpec(
                        name: "export", abstract: "Export a store.", options: [output, format],
                        examples: [CommandExample("my-tool store export --format csv", "Export as CSV.")])
                ]),
            CommandSpec(name: "completions", abstract: "Print a script.", arguments: [shell]),
        ],
        examples: [CommandExample("my-tool list", "List.")])

    /// Every command path and its options, as the generators must show them.
    static var everything: [(path: [String], options: [String])] {
        root.allCommands.map { ($0.path, $0.command.options.map(\.name)) }
    }

    @Test func examplesAreShownInTheHelpOfTheirCommand() {
        #expect(Self.root.examples.map(\.commandLine) == ["my-tool list"])
        #expect(Self.root.commands(atPath: ["store", "export"])?.last?.examples.count == 1)
        let help = HelpFormatter(root: Self.root).help(forCommandPath: ["store", "export"])
        #expect(help.hasSuffix("\nEXAMPLES:\n  my-tool store export --format csv\n      Export as CSV.\n"), "\(help)")
        #expect(!HelpFormatter(root: Self.root).help(forCommandPath: ["list"]).contains("EXAMPLES"))
    }

    @Test func everyShellsScriptNamesEveryCommandOptionAndChoice() {
        for shell in CompletionScript.Shell.allCases {
            let script = CompletionScript(root: Self.root).script(for: shell)
            for (path, options) in Self.everything {
                if let name = path.last { #expect(script.contains(name), "\(shell): \(path)") }
                for option in options { #expect(script.contains(option), "\(shell): \(path) --\(option)") }
            }
            #expect(script.contains("csv json"), "\(shell)")
            #expect(script.contains("bash zsh fish"), "\(shell)")
            #expect(script.contains("my_tool"), "\(shell): function names are made of letters, digits and _")
            #expect(script.hasSuffix("\n"))
        }
        let bash = CompletionScript(root: Self.root).script(for: .bash)
        #expect(bash.contains("'store export --output') echo @file ;;"))
        #expect(bash.contains("'store export --format') echo 'csv json' ;;"))
        #expect(bash.contains("complete -F _my_tool my-tool"))
        let fish = CompletionScript(root: Self.root).script(for: .fish)
        #expect(fish.contains("complete -c my-tool -n '__my_tool_at \\'store export\\'' -l 'output' -r -F -d 'Write here.'"), "\(fish)")
        #expect(fish.contains("-l 'format' -x -a 'csv json'"))
        let zsh = CompletionScript(root: Self.root).script(for: .zsh)
        #expect(zsh.hasPrefix("#compdef my-tool\n"))
    }

    @Test func theManualPageIsWellFormedRoffWithEveryCommandAndOption() {
        let page = ManPage(root: Self.root, version: "1.2", extraSections: [("Exit status", "0 success.")]).roff
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.first == #".TH "MY\-TOOL" 1 "" "my\-tool 1.2" "User Commands""#)
        let sections = lines.filter { $0.hasPrefix(".SH ") }
        #expect(sections == [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH COMMANDS", ".SH EXAMPLES", ".SH EXIT STATUS"])
        #expect(lines.contains(#"my\-tool \- A tool with a\-hyphen."#))
        for (path, options) in Self.everything {
            if !path.isEmpty { #expect(lines.contains(".SS " + (["my\\-tool"] + path).joined(separator: " ")), "\(path)") }
            for option in options {
                #expect(lines.contains { $0.contains("\\fB\\-\\-\(option.replacingOccurrences(of: "-", with: "\\-"))\\fR") }, "\(option)")
            }
        }
        #expect(lines.contains(#"\fB\-\-format\fR \fIformat\fR"#))
        #expect(lines.contains("The format. One of: csv, json."))
        // No empty line (a blank in the output), no text line a control character starts,
        // and every backslash an escape.
        #expect(!lines.contains(""))
        #expect(lines.contains(#"\&.A line that starts with a dot, and a \e backslash."#))
        #expect(ManPage.escaped("Cien años — x") == #"Cien a\[u00F1]os \[u2014] x"#)
        let textLines = lines.filter { !$0.hasPrefix(".") }
        #expect(textLines.allSatisfy { !$0.hasPrefix("'") })
    }
}
