import Foundation
import ProcessTestSupport
import Testing

/// Every console example in README.md runs against a fresh catalogue and prints exactly what
/// the README shows, so that the README cannot drift from the program.
///
/// The convention, for whoever edits the README:
///
/// - A console example is a fenced block whose info string is `console`. Each line that
///   starts with `$ ` is a command (a line ending with `\` continues on the next); the lines
///   after it, up to the next command or the end of the block, are exactly what it prints,
///   standard output and standard error together, as a terminal shows them.
/// - Commands run one after another, in the order of the README, each with `/bin/sh` in one
///   temporary home directory (also the working directory) with a fresh catalogue at the
///   default place, the built `books` first on `PATH`, and `LANG=en_US.UTF-8`, `TZ=UTC`,
///   `NO_COLOR=1`: a command may set variables (`LANG=fr_FR.UTF-8 books …`), quote, pipe
///   and redirect as in any shell.
/// - A block that cannot run reproducibly (it needs another program, a file the README
///   does not make, a timing or a machine) is skipped when the line before its fence (blank
///   lines aside) is `<!-- readme-test: skip REASON -->`; the reason is required.
///
/// Other fenced blocks (`sh`, `swift`, none) are not run.
@Suite struct ReadmeExamplesTests {
    /// One command of a console block and what it prints.
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        var expected: String
        var description: String { "README.md:\(line): $ \(command)" }
    }

    /// A console block: its examples, or why it is skipped.
    struct Block {
        var line: Int
        var examples: [Example]
        var skipReason: String?
    }

    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    static let skipMarker = "<!-- readme-test: skip"

    /// The console blocks of `text`, in order.
    ///
    /// - Throws: ``MalformedBlock`` for a block with text before its first command, a skip
    ///   marker without a reason, or a fence left open.
    static func blocks(in text: String) throws -> [Block] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let info = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let start = index
            guard let end = lines[(start + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" }) else {
                throw MalformedBlock(line: start + 1, reason: "the fence is not closed")
            }
            index = end + 1
            guard info == "console" else { continue }
            var skipReason: String?
            if let marker = lines[..<start].last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
                marker.hasPrefix(skipMarker)
            {
                let reason = marker.dropFirst(skipMarker.count).replacingOccurrences(of: "-->", with: "")
                    .trimmingCharacters(in: .whitespaces)
                guard !reason.isEmpty else { throw MalformedBlock(line: start, reason: "a skip marker needs a reason") }
                skipReason = reason
            }
            var examples: [Example] = []
            var body = lines[(start + 1)..<end].makeIterator()
            var lineNumber = start + 1
            while let line = body.next() {
                lineNumber += 1
                if line.hasPrefix("$ ") {
                    var command = String(line.dropFirst(2))
                    let commandLine = lineNumber
                    while command.hasSuffix("\\"), let next = body.next() {
                        lineNumber += 1
                        command += "\n" + next
                    }
                    examples.append(Example(line: commandLine, command: command, expected: ""))
                } else if examples.isEmpty {
                    throw MalformedBlock(line: lineNumber, reason: "a console block starts with a `$ ` command")
                } else {
                    examples[examples.count - 1].expected += line + "\n"
                }
            }
            blocks.append(Block(line: start + 1, examples: examples, skipReason: skipReason))
        }
        return blocks
    }

    struct MalformedBlock: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "README.md:\(line): \(reason)" }
    }

    @Test func everyConsoleExampleInTheReadmePrintsWhatItShows() throws {
        let blocks = try Self.blocks(in: String(contentsOf: Self.readme, encoding: .utf8))
        let runnable = blocks.filter { $0.skipReason == nil }
        #expect(!runnable.isEmpty, "README.md has no console example to run")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("books-readme-\(UUID().uuidString)")
        let bin = home.appendingPathComponent(".readme-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("books"), withDestinationURL: try BooksRun.executable())
        let environment = [
            "HOME": home.path, "LANG": "en_US.UTF-8", "TZ": "UTC", "NO_COLOR": "1",
            "PATH": "\(bin.path):/usr/bin:/bin",
        ]
        for example in runnable.flatMap(\.examples) {
            let run = try ChildProcess.runScript(
                "cd \"$HOME\" && exec 2>&1 && " + example.command, environment: environment)
            #expect(run.stdoutText == example.expected, "\(example)")
        }
    }

    @Test func theConventionIsReadAsDocumented() throws {
        let text = """
            Some text.

            ```console
            $ books one \\
                --two
            out 1

            out 2
            $ books three
            ```

            <!-- readme-test: skip needs sqlite3 -->

            ```console
            $ sqlite3 x
            ```

            ```sh
            $ not run
            ```
            """
        let blocks = try Self.blocks(in: text)
        #expect(blocks.count == 2)
        #expect(blocks[0].examples.map(\.command) == ["books one \\\n    --two", "books three"])
        #expect(blocks[0].examples.map(\.expected) == ["out 1\n\nout 2\n", ""])
        #expect(blocks[0].examples.map(\.line) == [4, 9])
        #expect(blocks[0].skipReason == nil)
        #expect(blocks[1].skipReason == "needs sqlite3")
        #expect(throws: MalformedBlock.self) { try Self.blocks(in: "```console\nout\n```") }
        #expect(throws: MalformedBlock.self) { try Self.blocks(in: "<!-- readme-test: skip -->\n```console\n$ x\n```") }
        #expect(throws: MalformedBlock.self) { try Self.blocks(in: "```console\n$ x\n") }
    }
}
