import CommandLineSupport
import Foundation
import PersistenceTestSupport
import Testing

@testable import persistence_tool

/// `PersistenceToolCommands.all` is the one list of persistence-tool's commands: the help,
/// the manual page, the completion scripts and the dispatch all come from it, so a command
/// added there (one file and one line) appears everywhere.
@Suite struct PersistenceToolCommandRegistryTests {
    static let paths = PersistenceToolCommands.commands.map(\.path)

    @Test func noTwoCommandsShareAPath() {
        #expect(Set(Self.paths).count == Self.paths.count, "\(Self.paths)")
        let topLevel = PersistenceTool.root.subcommands.map(\.name)
        #expect(Set(topLevel).count == topLevel.count && !topLevel.contains("help"), "\(topLevel)")
    }

    @Test func theRootHasEveryRegisteredCommandAndNoOther() {
        let leaves = PersistenceTool.root.allCommands.filter { $0.command.subcommands.isEmpty }.map(\.path)
        #expect(leaves == Self.paths)
    }

    @Test func everyRegisteredCommandIsInTheHelpTheManualPageAndEveryCompletionScript() throws {
        let man = try ToolRun(["man"])
        #expect(man.status == 0, "\(man)")
        for path in Self.paths {
            let spelled = path.joined(separator: " ")
            let parentHelp = try ToolRun(["help"] + path.dropLast())
            #expect(parentHelp.stdout.contains("\n  \(path.last ?? "") "), "help lacks \(spelled)")
            let own = try ToolRun(["help"] + path)
            #expect(own.status == 0 && own.stdout.contains("\nEXAMPLES:\n"), "help \(spelled): \(own)")
            let inMan = spelled.replacingOccurrences(of: "-", with: "\\-")
            #expect(man.stdout.contains("\n.SS persistence\\-tool \(inMan)\n"), "man lacks \(spelled)")
        }
        for shell in CompletionScript.Shell.allCases {
            let script = try ToolRun(["completions", shell.rawValue])
            #expect(script.status == 0, "\(shell)")
            for path in Self.paths {
                #expect(script.stdout.contains("'\(path.joined(separator: " "))'"), "the \(shell) script lacks \(path)")
            }
        }
    }

    /// Each command's examples parse, and the dispatch sends them to that very command.
    @Test func everyCommandHasAnExampleThatParsesToItself() throws {
        let parser = CommandLineParser(root: PersistenceTool.root)
        for (path, type) in PersistenceToolCommands.commands {
            #expect(!type.examples.isEmpty, "\(path) has no example")
            for example in type.examples {
                let words = example.commandLine.split(separator: " ").map(String.init)
                #expect(words.first == "persistence-tool", "\(example.commandLine)")
                let arguments = Array(words.dropFirst().prefix { !["|", ">"].contains($0) })
                guard case .run(let parsed) = try parser.parse(arguments) else {
                    Issue.record("\(example.commandLine) does not run a command")
                    continue
                }
                #expect(parsed.commandPath == path, "\(example.commandLine)")
                let found = try #require(PersistenceToolCommands.command(atPath: parsed.commandPath))
                #expect(ObjectIdentifier(found) == ObjectIdentifier(type), "\(example.commandLine)")
            }
        }
    }
}
