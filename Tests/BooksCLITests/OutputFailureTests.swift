import Foundation
import Testing

/// A failed write to standard output is an error (exit 1, one line naming the reason); a
/// reader that closed the pipe early is not (the command ends quietly, as `git log | head`).
@Suite struct OutputFailureTests {
    static let diskFull = "Error: could not write output: No space left on device"

    @Test(arguments: [
        ["list"], ["list", "--json"], ["list", "--by-month"], ["list", "--by-month", "--json"],
        ["search", "soledad"], ["search", "soledad", "--json"], ["search", "nosuchwordanywhere", "--json"],
        ["help"], ["help", "list"], ["list", "--help"], ["--version"],
    ])
    func aFullDiskFailsTheCommand(arguments: [String]) throws {
        let sandbox = try BooksSandbox.seeded()
        let run = try sandbox.shell(#"exec "$BOOKS" --store "$STORE" "$@" > /dev/full"#, arguments: arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == Self.diskFull + "\n", "\(run)")
    }

    @Test func showOnAFullDiskFails() throws {
        let sandbox = try BooksSandbox.seeded()
        let uuid = try #require(try sandbox.run(["list", "--json", "--limit", "1"]).jsonObjects().first?["uuid"] as? String)
        let run = try sandbox.shell(#"exec "$BOOKS" --store "$STORE" show "$1" > /dev/full"#, arguments: [uuid])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == Self.diskFull + "\n", "\(run)")
    }

    @Test func addOnAFullDiskSaysWhichBookItAdded() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try sandbox.bookCount()
        let run = try sandbox.shell(
            #"exec "$BOOKS" --store "$STORE" add --title Kept --author Someone --date 2020-02-02 --price 3 > /dev/full"#)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderrLines.count == 1, "\(run)")
        #expect(run.stderr.hasPrefix(Self.diskFull + "; the book "), "\(run)")
        #expect(run.stderr.hasSuffix(" was added\n"), "\(run)")
        #expect(try sandbox.bookCount() == before + 1)
        let uuid = try #require(run.stderr.split(separator: " ").first { UUID(uuidString: String($0)) != nil })
        #expect(try sandbox.run(["show", String(uuid)]).status == 0)
    }

    @Test func deleteOnAFullDiskSaysWhichBookItDeleted() throws {
        let sandbox = try BooksSandbox.seeded()
        let uuid = try #require(try sandbox.run(["list", "--json", "--limit", "1"]).jsonObjects().first?["uuid"] as? String)
        let run = try sandbox.shell(#"exec "$BOOKS" --store "$STORE" delete --yes "$1" > /dev/full"#, arguments: [uuid])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == Self.diskFull + "; the book \(uuid) was deleted\n", "\(run)")
    }

    @Test func aClosedPipeIsQuiet() throws {
        let sandbox = try BooksSandbox.seeded()
        // Enough books that the listing outgrows the pipe's buffer after `head` has gone.
        try sandbox.run(["seed", "--count", "3000"])
        for script in [
            #""$BOOKS" --store "$STORE" list | head -c 10 > /dev/null"#,
            #""$BOOKS" --store "$STORE" list --json | head -c 10 > /dev/null"#,
            // With SIGPIPE ignored the write fails with EPIPE instead: still quiet.
            #"trap '' PIPE; "$BOOKS" --store "$STORE" list | head -c 10 > /dev/null"#,
        ] {
            let run = try sandbox.shell(script)
            #expect(run.stderr.isEmpty, "\(script): \(run)")
        }
    }
}
