import CommandLineSupport
import Foundation
import Testing

/// Subcommands nested below subcommands (`tool store export <store> --model <path>`, as
/// persistence-tool has them): one parser reads them at any depth and one formatter renders
/// their help, with usage errors pointing to `tool help store export`.
@Suite struct NestedCommandTests {
    static let model = Option<String>(
        "model", valueName: "path", help: "The model file.", isRequired: true)
    static let output = Option<String>("output", valueName: "file", help: "Where to write.")
    static let storePath = Argument<String>("store", help: "The store file.")
    static let export = CommandSpec(
        name: "export", abstract: "Write a store's objects as JSON.",
        arguments: [storePath], options: [model, output])
    static let check = CommandSpec(
        name: "check", abstract: "Check a store.", arguments: [storePath], options: [model])
    static let root = CommandSpec(
        name: "tool", abstract: "A tool with command groups.",
        options: [Flag("version", help: "Show the version.")],
        subcommands: [
            CommandSpec(
                name: "store", abstract: "Work on stores.", subcommands: [export, check]),
            CommandSpec(name: "model", abstract: "Work on models.", subcommands: [check]),
        ])

    static func parse(_ words: [String]) throws(UsageError) -> ParseOutcome {
        try CommandLineParser(root: root).parse(words)
    }

    static func usageError(_ words: String...) -> UsageError? {
        do throws(UsageError) {
            _ = try parse(words)
            return nil
        } catch {
            return error
        }
    }

    @Test func aLeafTwoLevelsDownReceivesItsTypedValues() throws {
        let outcome = try Self.parse(["store", "export", "s.sqlite", "--model=m", "--output", "-"])
        guard case .run(let parsed) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(parsed.commandPath == ["store", "export"])
        #expect(parsed[Self.storePath] == "s.sqlite")
        #expect(parsed[Self.model] == "m")
        #expect(parsed[Self.output] == "-")
    }

    @Test func helpIsReachedAtEveryLevel() throws {
        #expect(try Self.parse(["store"]) == .help(commandPath: ["store"]))
        #expect(try Self.parse(["store", "--help"]) == .help(commandPath: ["store"]))
        #expect(try Self.parse(["help", "store"]) == .help(commandPath: ["store"]))
        #expect(try Self.parse(["help", "store", "export"]) == .help(commandPath: ["store", "export"]))
        #expect(try Self.parse(["store", "export", "-h"]) == .help(commandPath: ["store", "export"]))
        #expect(try Self.parse(["--version"]) == .version)
    }

    @Test func mistakesNameTheLevelTheyAreAt() {
        let group = Self.usageError("store", "exprot")
        #expect(group?.reason == .unknownCommand("exprot", suggestion: "export"))
        #expect(group?.description == "Error: Unknown command 'exprot'. Did you mean 'export'? See 'tool help store'.\n")
        let inHelp = Self.usageError("help", "store", "chek")
        #expect(inHelp?.reason == .unknownCommand("chek", suggestion: "check"))
        #expect(Self.usageError("help", "store", "check", "more")?.reason == .unexpectedArguments(["more"]))
        let missing = Self.usageError("store", "export", "s.sqlite")
        #expect(
            missing?.description
                == "Error: Missing expected argument '--model <path>'. See 'tool help store export'.\n")
        // An option's value does not start with `-` (unless a negative number): a forgotten
        // value is reported, not taken from the next option.
        #expect(
            Self.usageError("store", "export", "s", "--output", "--model", "m")?.reason
                == .missingValue(option: "--output <file>"))
        // The root's flag is not an option of a group.
        #expect(Self.usageError("store", "--version")?.reason == .unknownOption("--version", suggestion: nil))
    }

    @Test func helpOfAGroupListsItsSubcommandsAndOfALeafItsFullUsage() {
        let formatter = HelpFormatter(root: Self.root)
        let group = formatter.help(forCommandPath: ["store"])
        #expect(group.hasPrefix("OVERVIEW: Work on stores.\n\nUSAGE: tool store <subcommand>\n"))
        #expect(group.contains("SUBCOMMANDS:\n  export                  Write a store's objects as JSON.\n  check "))
        #expect(!group.contains("  help "))
        #expect(group.hasSuffix("\n  See 'tool help store <subcommand>' for detailed help.\n"))
        let leaf = formatter.help(forCommandPath: ["store", "export"])
        #expect(leaf.contains("USAGE: tool store export <store> --model <path> [--output <file>]\n"))
        #expect(leaf.contains("ARGUMENTS:\n  <store>"))
        #expect(!leaf.contains("SUBCOMMANDS:"))
        for line in (group + leaf).split(separator: "\n") { #expect(line.count <= 80) }
    }
}
