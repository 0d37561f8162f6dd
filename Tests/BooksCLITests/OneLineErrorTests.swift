import Foundation
import Testing

/// Every error is one line on standard error, and quotes at most about 80 characters of
/// any value the user gave.
@Suite struct OneLineErrorTests {
    static let usageErrors: [([String], String)] = [
        (["list", "--sortt"], "Error: Unknown option '--sortt'. Did you mean '--sort'? See 'books help list'."),
        (["list", "--by-mnth"], "Error: Unknown option '--by-mnth'. Did you mean '--by-month'? See 'books help list'."),
        (["lst"], "Error: Unknown command 'lst'. Did you mean 'list'? See 'books help'."),
        (["list", "--limit"], "Error: Missing value for '--limit <n>'. See 'books help list'."),
        (["list", "--limit", "abc"], "Error: The value 'abc' is invalid for '--limit <n>'. See 'books help list'."),
        (["list", "--json=yes"], "Error: The option '--json' does not take any value, but 'yes' was specified. See 'books help list'."),
        (["show"], "Error: Missing expected argument '<id>'. See 'books help show'."),
        (
            ["show", "nope"],
            "Error: The value 'nope' is invalid for '<id>': must be a book's ID: 4 to 32 hexadecimal digits of its UUID "
                + "(hyphens allowed). See 'books help show'."
        ),
        (["list", "a", "b"], "Error: 2 unexpected arguments: 'a', 'b'. See 'books help list'."),
        (["add", "--title", "T"], "Error: Missing expected argument '--author <author>'. See 'books help add'."),
    ]

    @Test(arguments: usageErrors)
    func aUsageErrorIsOneLine(arguments: [String], line: String) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr == line + "\n", "\(run)")
        #expect(run.stdout.isEmpty)
    }

    /// Huge inputs that were echoed whole: each error is one short line.
    static let hugeInputs: [([String], Int32)] = [
        (["list", "--where", String(repeating: "(", count: 120_000)], 64),
        (["list", "--where", "price < " + String(repeating: "9", count: 100_000) + "x"], 64),
        (["list", "--where", "title == \"" + String(repeating: "x", count: 100_000)], 64),
        (["list", "--where", String(repeating: "x", count: 100_000) + " == 1"], 64),
        (["list", "--where", "price < \"" + String(repeating: "x", count: 100_000) + "\""], 64),
        (["list", "--where", "title MATCHES \"(" + String(repeating: "x", count: 100_000) + "\""], 64),
        (["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", String(repeating: "1", count: 100_000) + ".x"], 65),
        (["add", "--title", "T", "--author", "A", "--date", String(repeating: "2", count: 100_000), "--price", "1"], 65),
        (["list", "--" + String(repeating: "x", count: 100_000)], 64),
        (["list", "--limit", String(repeating: "9", count: 100_000)], 64),
        ([String(repeating: "x", count: 100_000)], 64),
        (["list"] + (1...5_000).map { "extra\($0)" }, 64),
        (["show", String(repeating: "f", count: 100_000)], 64),
    ]

    @Test(arguments: hugeInputs)
    func aHugeInputIsQuotedInPart(arguments: [String], status: Int32) throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(arguments)
        #expect(run.status == status, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run.stderr.prefix(500))")
        #expect(run.stderr.count < 500, "\(run.stderr.count) characters: \(run.stderr.prefix(500))")
        #expect(run.stderr.hasPrefix("Error: "))
    }

    @Test func aControlCharacterInAnInputIsEscapedInTheError() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["list", "--where", "title == \"a\"\n\u{1B}[31m oops"])
        #expect(run.status == 64)
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(!run.stderr.contains("\u{1B}"))
    }
}
