import CommandLineSupport
import Testing

/// Help in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS and
/// SUBCOMMANDS, wrapped to 80 columns.
@Suite struct HelpFormatterTests {
    @Test func rootHelpListsOptionsAndSubcommands() {
        let help = ToolFixture.help([])
        #expect(help.hasPrefix("OVERVIEW: A test tool.\n\nUSAGE: tool <subcommand> [--store <path>]\n"))
        #expect(help.contains("\nOPTIONS:\n  --store <path>          The store file.\n"))
        #expect(help.contains("\n  --version               Show the version.\n"))
        #expect(help.contains("\n  -h, --help              Show help information.\n"))
        #expect(help.contains("\nSUBCOMMANDS:\n  list                    List the books.\n"))
        #expect(help.contains("\n  help                    Show subcommand help information.\n"))
        #expect(help.hasSuffix("\n  See 'tool help <subcommand>' for detailed help.\n"))
    }

    @Test func subcommandHelpHasOverviewUsageArgumentsAndOptions() {
        let help = ToolFixture.help(["search"])
        #expect(
            help.hasPrefix(
                "OVERVIEW: Find books.\n\nEvery word must occur in the title or the author's name.\n\n"))
        #expect(help.contains("\nUSAGE: tool search <text> ... [--limit <n>] [--json] [--store <path>]\n"))
        #expect(help.contains("\nARGUMENTS:\n  <text>                  The words to look for.\n"))
        #expect(help.contains("\n  --limit <n>             Print the best N books (default 50); 0 prints every\n"))
        #expect(help.contains("\n  --store <path>          The store file.\n"))
        #expect(!help.contains("SUBCOMMANDS"))
    }

    @Test func helpOfHelpDescribesTheHelpCommand() {
        let help = ToolFixture.help(["help"])
        #expect(help.hasPrefix("OVERVIEW: Show subcommand help information.\n\nUSAGE: tool help [<subcommand>]\n"))
        #expect(help.contains("\nARGUMENTS:\n  <subcommand>            The subcommand to show help for.\n"))
    }

    @Test func everyHelpLineFitsIn80Columns() {
        for path in [[], ["help"]] + ToolFixture.root.subcommands.map({ [$0.name] }) {
            for line in ToolFixture.help(path).split(separator: "\n") {
                #expect(line.count <= 80, "\(path): \(line)")
            }
        }
    }

    /// Continuation lines line up after the command name as it stands after `USAGE: `.
    @Test func longUsageWrapsAfterTheCommandName() {
        let formatter = HelpFormatter(root: ToolFixture.root, width: 40)
        #expect(
            formatter.usage(forCommandPath: ["list"]) == """
                tool list [--by-month]
                                 [--limit <n>] [--json]
                                 [--store <path>]
                """)
    }

    @Test func longLabelsPutTheirTextOnTheNextLine() {
        let formatter = HelpFormatter(root: ToolFixture.root)
        #expect(
            formatter.row(label: "--a-very-long-option <value>", text: "Does things.")
                == "  --a-very-long-option <value>\n                          Does things.\n")
        #expect(formatter.row(label: "--json", text: "") == "  --json\n")
    }
}
