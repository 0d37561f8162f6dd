import Foundation
import Testing

/// `books add` and seed files refuse control characters, oversized text and year 0 with exit
/// 65, naming the field (and the entry), and write nothing.
@Suite struct HostileBookTextTests {
    static let refusedAdds: [(name: String, arguments: [String], message: String)] = [
        ("an escape sequence in a title", ["--title", "Red \u{1B}[31mtext", "--author", "A"], "Invalid title 'Red "),
        ("a newline in a title", ["--title", "One\n2024  Forged line", "--author", "A"], "a title can't contain control characters (U+000A"),
        ("a bell in an author", ["--title", "T", "--author", "Ding\u{07}"], "Invalid author 'Ding"),
        ("a C1 control", ["--title", "T\u{9B}2J", "--author", "A"], "(U+009B at character 2)"),
        ("a tab inside a title", ["--title", "Left\tRight", "--author", "A"], "(U+0009 at character 5)"),
        ("combining marks", ["--title", "e" + String(repeating: "\u{301}", count: 3_000), "--author", "A"],
         "a title is at most 500 characters and 2000 Unicode scalars (this one has 3001 Unicode scalars)"),
        ("year 0", ["--title", "T", "--author", "A", "--date", "0000-01-01"], "Invalid date '0000-01-01': the year must be 1 or later"),
    ]

    @Test(arguments: refusedAdds)
    func addRefusesAndWritesNothing(name: String, arguments: [String], message: String) throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        var command = ["add"] + arguments
        if !arguments.contains("--date") { command += ["--date", "2001-02-03"] }
        let run = try sandbox.run(command + ["--price", "1"])
        #expect(run.status == 65, "\(name): \(run)")
        #expect(run.stderrLines.count == 1, "\(name): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(name): \(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"), "\(name): raw control in \(run.stderr)")
        #expect(run.stdout == "")
        #expect(try Data(contentsOf: sandbox.store) == before, "\(name): the store changed")
    }

    @Test func seedFileEntriesAreRefusedNamingTheEntryAndField() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        var entries = try JSONSerialization.jsonObject(with: SeedCommandTests.seedFile(count: 12)) as? [[String: String]] ?? []
        let cases: [(mutate: (inout [String: String]) -> Void, message: String)] = [
            ({ $0["title"] = "Forged\n1999  Other" }, "entry 7: title 'Forged\\n1999  Other': a title can't contain control characters"),
            ({ $0["author"] = "\u{1B}]0;pwned\u{07}" }, "entry 7: author '\\u{1B}]0;pwned\\u{7}'"),
            ({ $0["publishDate"] = "0000-06-01" }, "entry 7: publishDate '0000-06-01': the year must be 1 or later"),
            ({ $0["author"] = "A" + String(repeating: "\u{308}", count: 900) }, "entry 7: author"),
        ]
        for (mutate, message) in cases {
            var bad = entries
            mutate(&bad[6])
            let file = sandbox.directory.appendingPathComponent("bad.json")
            try JSONSerialization.data(withJSONObject: bad).write(to: file)
            let run = try sandbox.run(["seed", "--file", file.path, "--batch-size", "2"])
            #expect(run.status == 65, "\(run)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(try Data(contentsOf: sandbox.store) == before, "the store changed: \(message)")
        }
        entries.removeAll()
    }
}
