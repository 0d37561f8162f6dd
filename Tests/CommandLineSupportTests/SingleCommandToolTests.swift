import CommandLineSupport
import Testing

/// A tool that is one command (its root has arguments and no subcommands, as
/// `persistence-codegen`): help renders the root as a leaf, and usage errors point to
/// `--help`, since `help` would be read as an argument.
@Suite struct SingleCommandToolTests {
    static let file = Argument<String>("file", help: "The file to read.")
    static let output = Option<String>("output", valueName: "dir", help: "Write here.")
    static let single = Option<String>("single", valueName: "file", help: "Write one file.")
    static let root = CommandSpec(
        name: "gen", abstract: "Generate.", arguments: [file], options: [output, single])

    @Test func helpListsTheRootsArgumentsAndOptions() {
        let help = HelpFormatter(root: Self.root).help(forCommandPath: [])
        #expect(help.hasPrefix("OVERVIEW: Generate.\n\nUSAGE: gen <file> [--output <dir>] [--single <file>]\n"))
        #expect(help.contains("\nARGUMENTS:\n  <file>                  The file to read.\n"))
        #expect(help.contains("\nOPTIONS:\n  --output <dir>          Write here.\n"))
        #expect(!help.contains("SUBCOMMANDS"))
    }

    @Test func helpIsAnArgumentAndErrorsPointToDashDashHelp() throws {
        let parser = CommandLineParser(root: Self.root)
        guard case .run(let parsed) = try parser.parse(["help"]) else {
            Issue.record("`help` was not read as the file")
            return
        }
        #expect(parsed[Self.file] == "help")
        #expect(throws: UsageError.self) { try parser.parse(["a", "--outptu", "x"]) }
        do {
            _ = try parser.parse(["a", "--outptu", "x"])
        } catch {
            #expect(
                error.description
                    == "Error: Unknown option '--outptu'. Did you mean '--output'? See 'gen --help'.\n")
        }
    }

    @Test func aRuleCheckedAfterParsingIsWordedAsTheParsersOwn() {
        let error = CommandLineParser(root: Self.root).error(
            .exactlyOneOf([Self.output.spec.displayName, Self.single.spec.displayName]), path: [])
        #expect(
            error.description
                == "Error: Expected exactly one of '--output <dir>' or '--single <file>'. See 'gen --help'.\n")
        #expect(error.exitCode == .usage)
    }
}
