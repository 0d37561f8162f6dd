import Foundation
import ProcessTestSupport
import Testing

/// Every `console` and `sh` example in README.md and in the documents under `docs/` runs
/// against a fresh catalogue, and a console example prints exactly what it shows, so that no
/// document can drift from the programs.
///
/// The convention, for whoever edits a document:
///
/// - A console example is a fenced block whose info string is `console`. Each line that
///   starts with `$ ` is a command (a line ending with `\` continues on the next); the lines
///   after it, up to the next command or the end of the block, are exactly what it prints,
///   standard output and standard error together, as a terminal shows them, with the home
///   directory's path written `~`.
/// - An `sh` block is a script: it runs whole with `bash -e -o pipefail` (so the `source
///   <(…)` a reader pastes works) and must exit 0; what it prints is not compared.
/// - Each document runs in a temporary home directory of its own (also the working
///   directory) with a fresh catalogue at the default place; its blocks run one after another,
///   in the document's order, so a block may use what an earlier one made. The built `books`
///   and `persistence-tool` are first on `PATH`; `LANG=en_US.UTF-8`, `TZ=UTC`, `NO_COLOR=1`;
///   `BOOKS_FIXTURES` names the package's `Tests/Fixtures` folder. A command may set variables
///   (`LANG=fr_FR.UTF-8 books …`), quote, pipe and redirect as in any shell.
/// - A block that cannot run here (it builds the package, needs a server, another program, a
///   file no document makes, or shows a time) is skipped when the line before its fence (blank
///   lines aside) is `<!-- doc-test: skip REASON -->`; the reason is required. A block after
///   `<!-- install-test: … -->` is README's install script, which `InstallTests` runs.
///
/// Other fenced blocks (`swift`, `text`, none) are not run.
@Suite struct DocumentationExamplesTests {
    /// A runnable fenced block: its kind, where it starts, and what it runs.
    struct Block {
        enum Kind: String { case console, sh }

        var kind: Kind
        /// 1-based line of the opening fence.
        var line: Int
        /// The console block's commands and their output; empty for a script.
        var examples: [Example]
        /// The script's text; empty for a console block.
        var script: String
        var skipReason: String?
    }

    /// One command of a console block and what it prints.
    struct Example {
        var line: Int
        var command: String
        var expected: String
    }

    struct MalformedBlock: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    static let skipMarker = "<!-- doc-test: skip"
    static let installMarker = "<!-- install-test:"

    /// README.md and every Markdown file under `docs/`, as paths relative to the package.
    static let documents: [String] = {
        let root = BuiltProduct.repositoryRoot
        var found = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        if let walker = FileManager.default.enumerator(atPath: docs.path) {
            for case let path as String in walker where path.hasSuffix(".md") {
                found.append("docs/" + path)
            }
        }
        return found.sorted()
    }()

    /// The runnable blocks of `text`, in order.
    ///
    /// - Throws: ``MalformedBlock`` for a console block with text before its first command, a
    ///   skip marker without a reason, or a fence left open.
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
            guard let end = lines[(start + 1)...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" })
            else { throw MalformedBlock(line: start + 1, reason: "the fence is not closed") }
            index = end + 1
            guard let kind = Block.Kind(rawValue: info) else { continue }
            var skipReason: String?
            if let marker = lines[..<start].last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                if marker.hasPrefix(skipMarker) {
                    let reason = marker.dropFirst(skipMarker.count).replacingOccurrences(of: "-->", with: "")
                        .trimmingCharacters(in: .whitespaces)
                    guard !reason.isEmpty else { throw MalformedBlock(line: start, reason: "a skip marker needs a reason") }
                    skipReason = reason
                } else if marker.hasPrefix(installMarker) {
                    skipReason = "run by InstallTests"
                }
            }
            let body = Array(lines[(start + 1)..<end])
            var block = Block(kind: kind, line: start + 1, examples: [], script: "", skipReason: skipReason)
            switch kind {
            case .sh:
                block.script = body.joined(separator: "\n")
            case .console:
                block.examples = try examples(in: body, firstLine: start + 2)
            }
            blocks.append(block)
        }
        return blocks
    }

    /// The commands of a console block's `body`, whose first line is line `firstLine`.
    static func examples(in body: [String], firstLine: Int) throws -> [Example] {
        var examples: [Example] = []
        var lines = body.makeIterator()
        var lineNumber = firstLine - 1
        while let line = lines.next() {
            lineNumber += 1
            if line.hasPrefix("$ ") {
                var command = String(line.dropFirst(2))
                let commandLine = lineNumber
                while command.hasSuffix("\\"), let next = lines.next() {
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
        return examples
    }

    @Test(arguments: documents)
    func everyExampleOfTheDocumentRunsAsShown(document: String) throws {
        let url = BuiltProduct.repositoryRoot.appendingPathComponent(document)
        let blocks: [Block]
        do {
            blocks = try Self.blocks(in: String(contentsOf: url, encoding: .utf8))
        } catch let error as MalformedBlock {
            Issue.record("\(document): \(error)")
            return
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("books-docs-\(UUID().uuidString)")
        let bin = home.appendingPathComponent(".docs-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        for tool in ["books", "persistence-tool"] {
            try FileManager.default.createSymbolicLink(
                at: bin.appendingPathComponent(tool), withDestinationURL: try BuiltProduct.executable(named: tool))
        }
        let environment = [
            "HOME": home.path, "LANG": "en_US.UTF-8", "TZ": "UTC", "NO_COLOR": "1",
            "PATH": "\(bin.path):/usr/bin:/bin",
            "BOOKS_FIXTURES": BuiltProduct.repositoryRoot.appendingPathComponent("Tests/Fixtures").path,
        ]
        for block in blocks where block.skipReason == nil {
            switch block.kind {
            case .console:
                for example in block.examples {
                    let run = try ChildProcess.runScript(
                        "cd \"$HOME\" && exec 2>&1 && " + example.command, environment: environment)
                    let printed = run.stdoutText.replacingOccurrences(of: home.path, with: "~")
                    #expect(printed == example.expected, "\(document):\(example.line): $ \(example.command)")
                }
            case .sh:
                let run = try ChildProcess.runScript(
                    "cd \"$HOME\" && exec bash -e -o pipefail -c \"$1\" 2>&1", arguments: [block.script],
                    environment: environment)
                #expect(run.status == 0, "\(document):\(block.line): the sh block failed:\n\(run.stdoutText)")
            }
        }
    }

    @Test func everyDocumentIsFound() {
        #expect(Self.documents.contains("README.md"))
        #expect(Self.documents.contains { $0.hasPrefix("docs/guide/") })
        #expect(Self.documents.contains { $0.hasPrefix("docs/Persistence.docc/") })
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

            <!-- doc-test: skip needs sqlite3 -->

            ```console
            $ sqlite3 x
            ```

            ```sh
            books list
            books search x
            ```

            <!-- install-test: run by InstallTests -->
            ```sh
            swift build
            ```

            ```swift
            not run
            ```
            """
        let blocks = try Self.blocks(in: text)
        #expect(blocks.count == 4)
        #expect(blocks[0].examples.map(\.command) == ["books one \\\n    --two", "books three"])
        #expect(blocks[0].examples.map(\.expected) == ["out 1\n\nout 2\n", ""])
        #expect(blocks[0].examples.map(\.line) == [4, 9])
        #expect(blocks[0].skipReason == nil)
        #expect(blocks[1].skipReason == "needs sqlite3")
        #expect(blocks[2].kind == .sh && blocks[2].script == "books list\nbooks search x" && blocks[2].skipReason == nil)
        #expect(blocks[3].skipReason == "run by InstallTests")
        #expect(throws: MalformedBlock.self) { try Self.blocks(in: "```console\nout\n```") }
        #expect(throws: MalformedBlock.self) { try Self.blocks(in: "<!-- doc-test: skip -->\n```console\n$ x\n```") }
        #expect(throws: MalformedBlock.self) { try Self.blocks(in: "```console\n$ x\n") }
    }
}
