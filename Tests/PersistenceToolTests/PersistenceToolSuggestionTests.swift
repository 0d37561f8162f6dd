import Foundation
import PersistenceTestSupport
import Testing

/// persistence-tool suggests by the shared rule: close matches of the same kind only, and
/// never an option that could not take the value typed.
@Suite struct PersistenceToolSuggestionTests {
    @Test func aFlagIsNotSuggestedForAnOptionGivenAValue() throws {
        let result = try ToolRun(["model", "dump", "x", "--jsn=yes"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: Unknown option '--jsn'. See 'persistence-tool help model dump'.\n")
    }

    @Test func anOptionTakingAValueIsSuggestedForOneGivenAValue() throws {
        let result = try ToolRun(["store", "check", "s.sqlite", "--mdel=m.xcdatamodeld"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: Unknown option '--mdel'. Did you mean '--model'? See 'persistence-tool help store check'.\n"
        )
    }

    @Test func onlyCloseMatchesAreSuggested() throws {
        let swapped = try ToolRun(["store", "check", "s.sqlite", "--vresion", "2"])
        #expect(swapped.status == 64)
        #expect(
            swapped.stderr.hasPrefix("Error: Unknown option '--vresion'. Did you mean '--version'?"))
        // Two edits from a three-letter name is a guess, not a typo.
        let far = try ToolRun(["store", "check", "s.sqlite", "--mod"])
        #expect(far.status == 64)
        #expect(
            far.stderr == "Error: Unknown option '--mod'. See 'persistence-tool help store check'.\n")
    }
}
