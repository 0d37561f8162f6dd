import CommandLineSupport
import Testing

/// A "Did you mean" hint never points at something that would do something else: only close
/// matches of the same kind, and never an option that would take the next word as a value it
/// was not meant to be (`--store` for `--sore title` would create a store named `title`).
@Suite struct SuggestionSafetyTests {
    static let format = Option<String>("format", valueName: "format", choices: ["csv", "json"], help: "The format.")
    let options: [OptionSpec] = [
        ToolFixture.store.spec, ToolFixture.List.json.spec, ToolFixture.List.limit.spec, Self.format.spec,
    ]

    private func suggestion(_ typed: String, _ form: NameSuggestion.WrittenForm) -> String? {
        NameSuggestion.closestOption(to: typed, written: form, in: options)
    }

    @Test func anOptionTakingAnyTextOrAPathIsNeverSuggestedBeforeAWordForAnotherTypo() {
        #expect(suggestion("--sore", .beforeWord("title")) == nil)
        #expect(suggestion("--stor", .beforeWord("title")) == nil)
        #expect(suggestion("--sort", .beforeWord("title")) == nil)
        // Two neighbouring letters swapped come from no other name.
        #expect(suggestion("--stoer", .beforeWord("title")) == "--store")
    }

    @Test func anOptionWhoseValueIsCheckedIsSuggestedWhenTheWordFitsIt() {
        #expect(suggestion("--limt", .beforeWord("5")) == "--limit")
        #expect(suggestion("--limt", .beforeWord("title")) == nil)
        #expect(suggestion("--formt", .beforeWord("csv")) == "--format")
        #expect(suggestion("--formt", .beforeWord("xml")) == nil)
    }

    @Test func aFlagIsSuggestedBeforeAWordWhichThenStaysWhereItWas() {
        #expect(suggestion("--jsn", .beforeWord("solaris")) == "--json")
    }

    @Test func withAValueOnlyOptionsTakingItAreSuggested() {
        #expect(suggestion("--jsn", .withValue("yes")) == nil)
        #expect(suggestion("--stor", .withValue("a.sqlite")) == "--store")
        #expect(suggestion("--formt", .withValue("xml")) == nil)
    }

    @Test func aloneAnyCloseOptionIsSuggestedSinceNothingWouldBeTaken() {
        #expect(suggestion("--jsn", .alone) == "--json")
        #expect(suggestion("--limt", .alone) == "--limit")
    }

    @Test func aTranspositionIsExactlyTwoNeighboursSwapped() {
        #expect(NameSuggestion.isTransposition("--stoer", of: "--store"))
        #expect(!NameSuggestion.isTransposition("--store", of: "--store"))
        #expect(NameSuggestion.isTransposition("--sotre", of: "--store"))
        #expect(!NameSuggestion.isTransposition("--sorte", of: "--store"))
        #expect(!NameSuggestion.isTransposition("--stor", of: "--store"))
    }

    @Test func theParserJudgesTheWordThatFollows() {
        #expect(ToolFixture.usageError("list", "--sore", "title")?.message == "Unknown option '--sore'")
        #expect(ToolFixture.usageError("list", "--stoer", "x.sqlite")?.message == "Unknown option '--stoer'. Did you mean '--store'?")
        #expect(ToolFixture.usageError("list", "--limt", "5")?.message == "Unknown option '--limt'. Did you mean '--limit'?")
        #expect(ToolFixture.usageError("list", "--limt", "title")?.message == "Unknown option '--limt'")
        #expect(ToolFixture.usageError("list", "--jsn", "--limit", "2")?.message == "Unknown option '--jsn'. Did you mean '--json'?")
        #expect(ToolFixture.usageError("list", "--limt", "--", "x")?.message == "Unknown option '--limt'. Did you mean '--limit'?")
    }

    @Test func commandsAreSuggestedForCommandsOnly() {
        #expect(ToolFixture.usageError("lsit")?.message == "Unknown command 'lsit'. Did you mean 'list'?")
        #expect(ToolFixture.usageError("json")?.message == "Unknown command 'json'")
    }

    @Test func aChoiceOptionRefusesOtherValuesNamingTheChoices() {
        let root = CommandSpec(
            name: "t", abstract: "", subcommands: [CommandSpec(name: "x", abstract: "", options: [Self.format])])
        #expect(throws: UsageError.self) { try CommandLineParser(root: root).parse(["x", "--format", "xml"]) }
        do {
            _ = try CommandLineParser(root: root).parse(["x", "--format", "xml"])
        } catch {
            #expect(error.message == "The value 'xml' is invalid for '--format <format>': must be one of csv, json")
        }
    }
}

/// A repeating argument that accepts dash words takes `-word` (a search's exclusion) when no
/// option of the command has that name; `--word` stays an option, with its hint.
@Suite struct DashWordArgumentTests {
    static let words = Argument<[String]>(repeating: "text", help: "Words.", acceptsDashWords: true)
    static let json = Flag("json", shortName: "j", help: "JSON.")
    static let root = CommandSpec(
        name: "t", abstract: "",
        subcommands: [CommandSpec(name: "search", abstract: "", arguments: [words], options: [json])])

    private func words(_ arguments: String...) throws -> [String]? {
        guard case .run(let parsed) = try CommandLineParser(root: Self.root).parse(arguments) else { return nil }
        return parsed[Self.words]
    }

    @Test func aSingleDashWordIsAWordUnlessItIsAnOption() throws {
        #expect(try words("search", "lem", "-solaris", "-x") == ["lem", "-solaris", "-x"])
        #expect(try words("search", "-j", "lem") == ["lem"])
        #expect(throws: UsageError.self) { try words("search", "lem", "--jsn") }
        guard case .help = try CommandLineParser(root: Self.root).parse(["search", "lem", "-h"]) else {
            Issue.record("-h is still help")
            return
        }
    }
}
