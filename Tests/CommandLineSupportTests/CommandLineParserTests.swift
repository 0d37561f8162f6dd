import CommandLineSupport
import Foundation
import Testing

/// The parser's outcomes and its usage errors, one line each in swift-argument-parser's
/// words.
@Suite struct CommandLineParserTests {
    typealias Fixture = ToolFixture

    // MARK: - Help and version

    @Test func helpIsReachedEveryWay() throws {
        for words in [
            ["help", "list"], ["list", "--help"], ["list", "-h"], ["--help", "list"],
            ["list", "--limit", "zero", "--bogus", "-h"],
        ] {
            #expect(try Fixture.parse(words) == .help(commandPath: ["list"]), "\(words)")
        }
        for words in [[], ["help"], ["--help"], ["--store", "x", "-h"]] {
            #expect(try Fixture.parse(words) == .help(commandPath: []), "\(words)")
        }
        #expect(try Fixture.parse(["help", "--help"]) == .help(commandPath: ["help"]))
    }

    @Test func versionIsARootFlag() throws {
        #expect(try Fixture.parse(["--version"]) == .version)
        #expect(
            Fixture.usageError("list", "--version")?.reason
                == .unknownOption("--version", suggestion: nil))
    }

    // MARK: - Usage errors

    @Test func unknownOptionSuggestsTheNearestOnOneLine() {
        let error = Fixture.usageError("list", "--by-mnth")
        #expect(error?.reason == .unknownOption("--by-mnth", suggestion: "--by-month"))
        #expect(error?.exitCode == .usage)
        #expect(error?.exitCode.rawValue == 64)
        #expect(
            error?.description
                == "Error: Unknown option '--by-mnth'. Did you mean '--by-month'? See 'tool help list'.\n")
    }

    @Test func suggestionsAreCloseMatchesOnly() {
        #expect(Fixture.usageError("list", "--jsno")?.reason == .unknownOption("--jsno", suggestion: "--json"))
        #expect(Fixture.usageError("list", "--bymonthly")?.reason == .unknownOption("--bymonthly", suggestion: nil))
        #expect(Fixture.usageError("list", "--frobnicate")?.reason == .unknownOption("--frobnicate", suggestion: nil))
        #expect(Fixture.usageError("list", "-by-month")?.reason == .unknownOption("-by-month", suggestion: "--by-month"))
        #expect(Fixture.usageError("list", "-x")?.message == "Unknown option '-x'")
        #expect(Fixture.usageError("list", "---json")?.message == "Unknown option '---json'. Did you mean '--json'?")
    }

    /// `--sort` is two edits from `--store`, a different option taking a different value:
    /// suggesting it would send the user to the wrong option.
    @Test func aShortNameIsNotTakenForAnotherOptionTwoEditsAway() {
        #expect(Fixture.usageError("list", "--sort")?.reason == .unknownOption("--sort", suggestion: nil))
        #expect(Fixture.usageError("list", "--sort", "title")?.reason == .unknownOption("--sort", suggestion: nil))
        #expect(Fixture.usageError("list", "--sortt")?.reason == .unknownOption("--sortt", suggestion: nil))
    }

    /// With `--name=value` only an option that could take the value is suggested: never a
    /// flag, never a number option for text.
    @Test func anInlineValueLimitsTheSuggestionToOptionsThatTakeIt() {
        #expect(Fixture.usageError("list", "--jsn=yes")?.reason == .unknownOption("--jsn", suggestion: nil))
        #expect(Fixture.usageError("list", "--jsn")?.reason == .unknownOption("--jsn", suggestion: "--json"))
        #expect(Fixture.usageError("list", "--limt=ten")?.reason == .unknownOption("--limt", suggestion: nil))
        #expect(Fixture.usageError("list", "--limt=10")?.reason == .unknownOption("--limt", suggestion: "--limit"))
    }

    @Test func unknownCommandSuggestsACommandOnly() {
        let error = Fixture.usageError("lst")
        #expect(error?.message == "Unknown command 'lst'. Did you mean 'list'?")
        #expect(error?.description == "Error: Unknown command 'lst'. Did you mean 'list'? See 'tool help'.\n")
        #expect(Fixture.usageError("serach")?.reason == .unknownCommand("serach", suggestion: "search"))
        #expect(Fixture.usageError("frobnicate")?.reason == .unknownCommand("frobnicate", suggestion: nil))
        #expect(Fixture.usageError("help", "lst")?.reason == .unknownCommand("lst", suggestion: "list"))
        #expect(Fixture.usageError("lst", "--help")?.reason == .unknownCommand("lst", suggestion: "list"))
        // An option's name is not offered for a command, nor a command's for an option.
        #expect(Fixture.usageError("store")?.reason == .unknownCommand("store", suggestion: nil))
        #expect(Fixture.usageError("list", "--lists")?.reason == .unknownOption("--lists", suggestion: nil))
    }

    @Test func missingAndInvalidValuesNameTheOptionAndItsHelp() {
        let missing = Fixture.usageError("list", "--limit")
        #expect(missing?.message == "Missing value for '--limit <n>'")
        #expect(missing?.help == "--limit <n>  Print at most N books.")
        #expect(missing?.description == "Error: Missing value for '--limit <n>'. See 'tool help list'.\n")
        #expect(Fixture.usageError("list", "--limit", "--json")?.message == "Missing value for '--limit <n>'")
        #expect(Fixture.usageError("list", "--limit", "abc")?.message == "The value 'abc' is invalid for '--limit <n>'")
        #expect(
            Fixture.usageError("list", "--limit", "0")?.message
                == "The value '0' is invalid for '--limit <n>': must be at least 1")
        #expect(Fixture.usageError("--store")?.message == "Missing value for '--store <path>'")
        #expect(
            Fixture.usageError("list", "--store=")?.message
                == "The value '' is invalid for '--store <path>': must be a file path")
        #expect(Fixture.usageError("show", "nope")?.message == "The value 'nope' is invalid for '<uuid>'")
    }

    @Test func missingAndExtraArgumentsAreReported() {
        #expect(Fixture.usageError("search")?.message == "Missing expected argument '<text>'")
        #expect(Fixture.usageError("show")?.message == "Missing expected argument '<uuid>'")
        #expect(Fixture.usageError("add", "--title", "T")?.reason == .missingArgument("--author <author>"))
        #expect(Fixture.usageError("list", "extra")?.message == "Unexpected argument 'extra'")
        #expect(Fixture.usageError("list", "a", "b")?.message == "2 unexpected arguments: 'a', 'b'")
        #expect(Fixture.usageError("help", "list", "x")?.message == "Unexpected argument 'x'")
        #expect(
            Fixture.usageError("list", "--json=yes")?.message
                == "The option '--json' does not take any value, but 'yes' was specified.")
    }

    @Test func aTypedValueIsQuotedShortAndOnOneLine() throws {
        let error = try #require(Fixture.usageError("list", "--limit", "1\n2" + String(repeating: "9", count: 10_000)))
        #expect(!error.description.dropLast().contains("\n"))
        #expect(error.description.count < 300)
    }
}
