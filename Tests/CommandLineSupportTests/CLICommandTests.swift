import CommandLineSupport
import Testing

/// A command declared as one ``CLICommand`` type: its name and documented spec come from
/// its own declarations, and a registry of such types is all a tool needs to build its tree.
@Suite struct CLICommandTests {
    /// `greet <name> [--loud]`, printing into a string.
    struct Greet: CLICommand, Equatable {
        static let name_ = Argument<String>("name", help: "Whom to greet.")
        static let loud = Flag("loud", help: "Shout.")
        static let spec = CommandSpec(name: "greet", abstract: "Greet someone.", arguments: [name_], options: [loud])
        static let examples = [CommandExample("tool greet Ana --loud", "Greet Ana, loudly.")]

        var who: String
        var loud: Bool

        init(parsing parsed: ParsedArguments, with parser: CommandLineParser) throws(UsageError) {
            who = parsed[Self.name_] ?? ""
            loud = parsed[Self.loud]
            if who == "nobody" { throw parser.error(.missingArgument("<name>"), path: [Self.name]) }
        }

        func run(in context: inout String) throws -> ExitCode {
            context += loud ? "HELLO, \(who.uppercased())!" : "Hello, \(who)."
            return .success
        }
    }

    static let registry: [any CLICommand.Type] = [Greet.self]
    static let root = CommandSpec(name: "tool", abstract: "A tool.", subcommands: registry.map { $0.documentedSpec })

    @Test func theDocumentedSpecIsTheSpecWithTheExamples() {
        #expect(Greet.name == "greet")
        #expect(Greet.documentedSpec.examples == Greet.examples)
        #expect(Greet.spec.examples.isEmpty)
        #expect(Self.root.subcommand(named: "greet")?.examples.count == 1)
    }

    @Test func aParsedCommandLineBecomesTheCommandThatRuns() throws {
        let parser = CommandLineParser(root: Self.root)
        guard case .run(let parsed) = try parser.parse(["greet", "Ana", "--loud"]) else {
            Issue.record("expected a command to run")
            return
        }
        var text = ""
        let command = try Greet(parsing: parsed, with: parser)
        #expect(try command.run(in: &text) == .success)
        #expect(text == "HELLO, ANA!")
    }

    @Test func aRuleBetweenValuesIsAUsageErrorWordedAsTheParsers() throws {
        let parser = CommandLineParser(root: Self.root)
        guard case .run(let parsed) = try parser.parse(["greet", "nobody"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(throws: UsageError.self) { try Greet(parsing: parsed, with: parser) }
        do {
            _ = try Greet(parsing: parsed, with: parser)
        } catch {
            #expect(error.description.hasPrefix("Error: Missing expected argument '<name>'"))
            #expect(error.description.contains("tool help greet"))
        }
    }
}
