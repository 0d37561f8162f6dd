import CommandLineSupport
import Testing

/// The one "Did you mean" algorithm of both executables.
@Suite struct NameSuggestionTests {
    @Test func editDistanceCountsASwapAsOneEdit() {
        #expect(NameSuggestion.editDistance("list", "list") == 0)
        #expect(NameSuggestion.editDistance("lsit", "list") == 1)
        #expect(NameSuggestion.editDistance("lst", "list") == 1)
        #expect(NameSuggestion.editDistance("kitten", "sitting") == 3)
        #expect(NameSuggestion.editDistance("", "abc") == 3)
        #expect(NameSuggestion.editDistance("--sort", "--store") == 2)
    }

    @Test func theNearestCloseNameIsSuggested() {
        #expect(NameSuggestion.closest(to: "--limt", in: ["--json", "--limit"]) == "--limit")
        #expect(NameSuggestion.closest(to: "exprot", in: ["create", "export", "import"]) == "export")
        #expect(NameSuggestion.closest(to: "modle", in: ["model", "store"]) == "model")
        #expect(NameSuggestion.closest(to: "zzz", in: ["list"]) == nil)
    }

    /// Two edits are allowed only for names of six letters or more: two edits turn a short
    /// name into an unrelated one.
    @Test func theAllowedDistanceGrowsWithTheName() {
        #expect(NameSuggestion.allowedDistance(for: "--ab") == 1)
        #expect(NameSuggestion.allowedDistance(for: "--sort") == 1)
        #expect(NameSuggestion.allowedDistance(for: "--by-mnth") == 2)
        #expect(NameSuggestion.allowedDistance(for: "--a-very-long-name") == 2)
        #expect(NameSuggestion.closest(to: "--sort", in: ["--store"]) == nil)
        #expect(NameSuggestion.closest(to: "--batchsize", in: ["--batch-size"]) == "--batch-size")
    }

    @Test func aTieGoesToTheFirstListed() {
        #expect(NameSuggestion.closest(to: "lis", in: ["list", "lisp"]) == "list")
    }

    @Test func aVeryLongWordIsNearNothing() {
        let long = String(repeating: "x", count: 100_000)
        #expect(NameSuggestion.closest(to: long, in: [long]) == nil)
    }
}

/// The option suggestion both executables use for an unknown option.
@Suite struct OptionSuggestionTests {
    let options: [OptionSpec] = [
        ToolFixture.store.spec, ToolFixture.List.json.spec, ToolFixture.List.limit.spec,
    ]

    @Test func withoutAValueAnyCloseOptionIsSuggested() {
        #expect(NameSuggestion.closestOption(to: "--jsn", value: nil, in: options) == "--json")
        #expect(NameSuggestion.closestOption(to: "--limt", value: nil, in: options) == "--limit")
    }

    @Test func aValueRulesOutFlagsAndOptionsThatRefuseIt() {
        #expect(NameSuggestion.closestOption(to: "--jsn", value: "yes", in: options) == nil)
        #expect(NameSuggestion.closestOption(to: "--limt", value: "ten", in: options) == nil)
        #expect(NameSuggestion.closestOption(to: "--limt", value: "10", in: options) == "--limit")
        #expect(NameSuggestion.closestOption(to: "--stor", value: "a.sqlite", in: options) == "--store")
        #expect(NameSuggestion.closestOption(to: "--stor", value: "", in: options) == nil)
    }

    @Test func neverADifferentOptionForAShortName() {
        #expect(NameSuggestion.closestOption(to: "--sort", value: nil, in: options) == nil)
        #expect(NameSuggestion.closestOption(to: "--sort", value: "title", in: options) == nil)
    }
}
