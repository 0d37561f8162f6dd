import CommandLineSupport
import Foundation
import Testing

@testable import books

/// `BooksCommands.all` is the one list of `books`' commands: the help, the manual page, the
/// completion scripts, the dispatch and the history all come from it, so a command added
/// there (one file and one line) appears everywhere, and one missing from it nowhere.
@Suite struct BooksCommandRegistryTests {
    static let names = BooksCommands.all.map { $0.name }

    @Test func noTwoCommandsShareAName() {
        #expect(Set(Self.names).count == Self.names.count, "\(Self.names)")
        #expect(!Self.names.contains("help"), "help is the parser's own")
    }

    @Test func theRootListsEveryRegisteredCommandInItsOrder() {
        #expect(BooksCommandLine.root.subcommands.map(\.name) == Self.names)
    }

    @Test func everyRegisteredCommandIsInTheHelpTheManualPageAndEveryCompletionScript() throws {
        let sandbox = try BooksSandbox()
        let help = try sandbox.runBare(["help"])
        let man = try sandbox.runBare(["man"])
        #expect(help.status == 0 && man.status == 0)
        for type in BooksCommands.all {
            let name = type.name
            #expect(help.stdout.contains("\n  \(name) "), "books help lacks \(name)")
            #expect(man.stdout.contains("\n.SS books \(name)\n"), "books man lacks \(name)")
            let own = try sandbox.runBare(["help", name])
            #expect(own.status == 0 && own.stdout.hasPrefix("OVERVIEW: \(type.spec.abstract.prefix(40))"), "books help \(name)")
        }
        for shell in CompletionScript.Shell.allCases {
            let script = try sandbox.runBare(["completions", shell.rawValue])
            #expect(script.status == 0, "\(shell)")
            for name in Self.names {
                #expect(script.stdout.contains("'\(name)'"), "the \(shell) script lacks \(name)")
            }
        }
        #expect(try sandbox.files().isEmpty)
    }

    /// Each command's examples parse to that very command: the dispatch goes by the registry.
    @Test func everyCommandHasAnExampleThatParsesToItself() throws {
        for type in BooksCommands.all {
            #expect(!type.examples.isEmpty, "books \(type.name) has no example")
            #expect(type.documentedSpec.examples == type.examples)
            for example in type.examples {
                let words = try #require(DocumentationCommandTests.shellWords(example.commandLine))
                let start = try #require(words.firstIndex(of: "books"), "\(example.commandLine)")
                let arguments = Array(words[(start + 1)...].prefix { !["|", ">", ")"].contains($0) })
                let parsed = try BooksCommandLine.parse(arguments, environment: ["HOME": "/home/ana"])
                let command = try #require(parsed.command, "\(example.commandLine)")
                #expect(ObjectIdentifier(Swift.type(of: command)) == ObjectIdentifier(type), "\(example.commandLine)")
            }
        }
    }

    /// The history records a command that changes the catalogue by its own name; a command
    /// that only reads begins no history and records no name.
    @Test func theHistoryNamesEachCommandThatChangesTheCatalogue() throws {
        var changing: [String] = []
        for type in BooksCommands.all {
            let example = try #require(type.examples.first)
            let words = try #require(DocumentationCommandTests.shellWords(example.commandLine))
            let arguments = Array(words.drop { $0 != "books" }.dropFirst().prefix { !["|", ">", ")"].contains($0) })
            let command = try #require(try BooksCommandLine.parse(arguments, environment: [:]).command)
            if command.changesCatalogue {
                changing.append(type.name)
                #expect(command.historyName == type.name)
            }
        }
        #expect(changing == ["seed", "add", "edit", "delete", "import", "undo", "redo"])
        let dryRun = try BooksCommandLine.parse(["import", "--dry-run", "f.csv"], environment: [:])
        #expect(dryRun.changesCatalogue == false && dryRun.historyName == "import")
        #expect(try BooksCommandLine.parse(["list"], environment: [:]).historyName == nil)
    }

    /// Only the commands that print text made from the specs run without a usable store.
    @Test func onlyTheDocumentationCommandsLeaveTheStoreAlone() {
        let without = BooksCommands.all.filter { !$0.usesStore }.map { $0.name }
        #expect(without == ["completions", "man"])
    }
}
