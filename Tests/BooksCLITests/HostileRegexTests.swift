import Foundation
import Testing

/// `MATCHES` patterns that backtrack catastrophically (over a second a value in ICU, minutes
/// over the seeded catalogue) fail within their step budget: one line naming the pattern,
/// exit 64 as any other unusable `--where` pattern, and nothing written.
@Suite struct HostileRegexTests {
    static let patterns = ["(.*){1,32000}b", "(.*)*x", "(.|.)*\\\\d", "(.*){1,32000}b|(.*)*x"]

    @Test(arguments: patterns) func aCatastrophicPatternFailsQuickly(pattern: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        for command in [["list"], ["list", "--json"], ["delete", "--yes"]] {
            let started = Date()
            let run = try sandbox.run(command + ["--where", "title MATCHES \"\(pattern)\""])
            #expect(Date().timeIntervalSince(started) < 5, "\(command): \(run)")
            #expect(run.status == 64, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(run.stderrLines.count == 1, "\(run)")
            #expect(run.stderr.hasPrefix("Error: "), "\(run)")
            #expect(run.stderr.contains("took too long to match"), "\(run)")
            #expect(run.stderr.contains("simplify it"), "\(run)")
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test func theMessageNamesThePattern() throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.run(["list", "--where", "title MATCHES \"(.*){1,32000}b\""])
        #expect(run.stderr.contains("the pattern \"(.*){1,32000}b\" took too long to match"), "\(run)")
    }

    @Test func ordinaryPatternsStillMatch() throws {
        let sandbox = try BooksSandbox.seeded()
        let all = try sandbox.run(["list", "--json"]).jsonObjects()
        let run = try sandbox.run(["list", "--json", "--where", "title MATCHES \".*\""])
        #expect(run.status == 0, "\(run)")
        #expect(try run.jsonObjects().count == all.count)
        let the = try sandbox.run(["list", "--json", "--where", "title MATCHES[c] \"the .*\""])
        #expect(the.status == 0, "\(the)")
        let expected = all.filter { ($0["title"] as? String)?.lowercased().hasPrefix("the ") == true }
        #expect(try the.jsonObjects().count == expected.count)
        #expect(!expected.isEmpty)
    }
}
