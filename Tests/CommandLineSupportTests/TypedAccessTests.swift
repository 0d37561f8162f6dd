import CommandLineSupport
import Foundation
import Testing

/// Options are declared once as typed keys and read back with them: the value's type
/// follows from the declaration, and there is no lookup by name to misspell.
@Suite struct TypedAccessTests {
    typealias List = ToolFixture.List

    @Test func valuesAreReadBackByTheirKeysWithTheirTypes() throws {
        let parsed = try ToolFixture.run("list", "--by-month", "--limit=3", "--json")
        let limit: Int? = parsed[List.limit]
        let byMonth: Bool = parsed[List.byMonth]
        #expect(limit == 3)
        #expect(byMonth)
        #expect(parsed[List.json])
        #expect(parsed.commandPath == ["list"])
    }

    @Test func absentValuesAreNilAndAbsentFlagsFalse() throws {
        let parsed = try ToolFixture.run("list")
        #expect(parsed[List.limit] == nil)
        #expect(!parsed[List.byMonth])
        #expect(parsed[ToolFixture.store] == nil)
    }

    @Test func bothOptionSpellingsAndTheGlobalOptionOnEitherSide() throws {
        let before = try ToolFixture.run("--store", "/tmp/a.sqlite", "list", "--limit", "2")
        let after = try ToolFixture.run("list", "--limit=2", "--store=/tmp/a.sqlite")
        #expect(before[ToolFixture.store] == "/tmp/a.sqlite")
        #expect(before == after)
    }

    @Test func uuidsAreReadInAnyCase() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try ToolFixture.run("show", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")[ToolFixture.Show.uuid] == id)
    }

    @Test func aRepeatingArgumentKeepsEveryWordInOrder() throws {
        let parsed = try ToolFixture.run("search", "marquez", "cien", "--limit", "0")
        #expect(parsed[ToolFixture.Search.text] == ["marquez", "cien"])
        #expect(parsed[ToolFixture.Search.limit] == 0)
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        let parsed = try ToolFixture.run("delete", "--id", "A", "--id=B")
        #expect(parsed[ToolFixture.Delete.id] == ["A", "B"])
        let usage = HelpFormatter(root: ToolFixture.root).usage(forCommandPath: ["delete"])
        #expect(usage == "tool delete --id <id> ... [--store <path>]")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ToolFixture.run("search", "--json", "--", "--help", "-x")
        #expect(parsed[ToolFixture.Search.text] == ["--help", "-x"])
        #expect(parsed[List.json])
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        #expect(try ToolFixture.run("search", "-5")[ToolFixture.Search.text] == ["-5"])
        #expect(
            ToolFixture.usageError("list", "--limit", "-3")?.message
                == "The value '-3' is invalid for '--limit <n>': must be at least 1")
    }
}
