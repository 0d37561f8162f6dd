import Foundation
import PersistenceTestSupport
import ProcessTestSupport
import Testing

import Persistence

/// `persistence-tool` against hostile input and output: a failed write to standard output
/// is reported (exit 1), an argument that is not UTF-8 is refused (65), an error is one
/// line quoting at most about 80 characters of any input, and arguments are checked before
/// a store is opened.
@Suite struct PersistenceToolHostileInputTests {
    static let diskFull = "error: could not write output: No space left on device\n"

    /// Runs `script` with `/bin/sh`, the tool's path as `$TOOL` and `arguments` as `"$@"`.
    static func shell(_ script: String, _ arguments: [String] = []) throws -> ToolRun.Shell {
        try ToolRun.Shell(script, arguments: arguments)
    }

    @Test(arguments: [
        ["--version"], ["--help"], ["help", "store"], ["model", "dump", ModelFixtures.moody.path],
        ["model", "dump", ModelFixtures.moody.path, "--json"], ["model", "validate", ModelFixtures.moody.path],
    ])
    func aFullDiskFailsTheCommand(arguments: [String]) throws {
        let run = try Self.shell(#"exec "$TOOL" "$@" > /dev/full"#, arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.hasSuffix(Self.diskFull), "\(run)")
    }

    @Test func storeCommandsOnAFullDiskFail() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let model = ModelFixtures.moody.path
        let create = try Self.shell(#"exec "$TOOL" store create "$1" --model "$2" > /dev/full"#, [store, model])
        #expect(create.status == 1 && create.stderr == Self.diskFull, "\(create)")
        let export = try Self.shell(#"exec "$TOOL" store export "$1" --model "$2" > /dev/full"#, [store, model])
        #expect(export.status == 1 && export.stderr == Self.diskFull, "\(export)")
    }

    @Test func anArgumentThatIsNotUTF8IsRefused() throws {
        let run = try Self.shell(#"exec "$TOOL" model dump "$(printf 'caf\351.xcdatamodel')""#)
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr == "error: The argument 3 'caf\\xE9.xcdatamodel' is not valid UTF-8; nothing was done.\n", "\(run)")
        #expect(run.stdout.isEmpty)
    }

    @Test func aStoreNamedByInvalidUTF8IsNeverCreated() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.shell(
            #"exec "$TOOL" store create "$1/$(printf '\377').sqlite" --model "$2""#,
            [directory.path, ModelFixtures.moody.path])
        #expect(run.status == 65, "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test(arguments: [
        ["model", "dump", "x", "--" + String(repeating: "j", count: 100_000)],
        ["model", String(repeating: "v", count: 100_000)],
        ["model", "validate", "a", String(repeating: "b", count: 100_000)],
        ["store", "delete", "s.sqlite", "--model", "m", "--id", String(repeating: "C", count: 100_000)],
    ])
    func aHugeArgumentIsQuotedInPartOnOneLine(arguments: [String]) throws {
        let run = try ToolRun(arguments)
        #expect(run.status != 0)
        #expect(run.stderrLines.count == 1, "\(run.stderr.prefix(300))")
        #expect(run.stderr.count < 400, "\(run.stderr.count): \(run.stderr.prefix(300))")
    }

    @Test func aMalformedIDIsRefusedBeforeTheStoreIsOpened() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let run = try ToolRun(["store", "delete", store, "--model", ModelFixtures.moody.path, "--id", "nonsense"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.hasPrefix("error: nonsense: is not an object ID"), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func namesWithControlCharactersAreEscapedInADump() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("Evil.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Ev&#10;FAKE entity&#x85;x" representedClassName="A&#10;B">
                    <attribute name="na&#13;me&#x9B;31m" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.utf8
        ).write(to: model.appendingPathComponent("contents"))
        let run = try ToolRun(["model", "dump", model.path])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.contains("\nFAKE"), "\(run)")
        #expect(run.stdout.contains(#"entity Ev\nFAKE entity\u{85}x (class A\nB)"#), "\(run)")
        #expect(run.stdout.contains(#"attribute na\rme\u{9B}31m: String"#), "\(run)")
        #expect(!run.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
    }

    @Test func aForeignStoresDifferencesAreListedInPart() {
        let error = StoreError.incompatibleModel(
            path: "/s.sqlite", differences: (1...5_000).map { "entity E\($0) is gone" })
        #expect(error.description.count < 400, "\(error)")
        #expect(error.description.contains("entity E5 is gone; … and 4,995 more"), "\(error)")
    }

    @Test func longInputsInLibraryErrorsAreQuotedInPart() throws {
        let predicate = try #require(throws: FetchPredicateError.self) {
            try FetchPredicate(String(repeating: "(", count: 120_000))
        }
        #expect(predicate.description.count < 600, "\(predicate.description.prefix(600))")
        let number = try #require(throws: FetchPredicateError.self) {
            try FetchPredicate("price < " + String(repeating: "9", count: 100_000) + "x")
        }
        #expect(number.description.count < 600, "\(number.description.prefix(600))")
        #expect(QuotedText.excerpt(String(repeating: "x", count: 1_000)).count == 80)
        #expect(QuotedText.excerpt("short\n") == "short\\n")
        let around = QuotedText.excerpt(String(repeating: "a", count: 500) + "!" + String(repeating: "b", count: 500), around: 500)
        #expect(around.text.hasPrefix("…") && around.text.hasSuffix("…") && around.text.contains("!"))
        #expect(Array(around.text)[around.position] == "!")
        #expect(QuotedText.list(["a", "b"]) == "a, b")
        #expect(QuotedText.grouped(1_234_567) == "1,234,567")
    }

    @Test func controlCharactersInDisplayedTextAreQuotedUnambiguously() {
        #expect(QuotedText.forDisplay("Cien años de soledad") == "Cien años de soledad")
        #expect(QuotedText.forDisplay(#"AC\DC "Live""#) == #"AC\DC "Live""#)
        #expect(QuotedText.forDisplay("a\u{1B}[2Jb\n\"c\"\\") == #""a\u{1B}[2Jb\n\"c\"\\""#)
        #expect(QuotedText.forDisplay("\u{85}\u{9B}\u{7F}") == #""\u{85}\u{9B}\u{7F}""#)
        #expect(QuotedText.forDisplay(#""a\nb""#) == #""\"a\\nb\"""#)
        #expect(QuotedText.doubleQuoted("\u{9B}") == #""\u009B""#)
    }

    @Test func bidirectionalOverridesAreQuotedSoTheyCannotReorderALine() {
        #expect(QuotedText.forDisplay("abc\u{202E}fed") == #""abc\u{202E}fed""#)
        #expect(QuotedText.forDisplay("\u{2066}x\u{2069}\u{200F}") == #""\u{2066}x\u{2069}\u{200F}""#)
        #expect(QuotedText.doubleQuoted("\u{202E}") == #""\u202E""#)
        #expect(QuotedText.forDisplay("שלום עולם") == "שלום עולם")
    }
}

extension ToolRun {
    /// One run of a `/bin/sh` script that starts the tool, for what `Process` cannot set up:
    /// standard output on `/dev/full`, an argument of bytes that are not UTF-8.
    struct Shell: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String

        var description: String { "status \(status)\nstdout: \(stdout.prefix(1_000))\nstderr: \(stderr)" }

        init(_ script: String, arguments: [String]) throws {
            let run = try ChildProcess.runScript(
                script, arguments: arguments,
                environment: [
                    "LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin",
                    "TOOL": try ToolRun.executable().path,
                ])
            status = run.status
            stdout = run.stdoutText
            stderr = run.stderrText
        }
    }
}

/// An error that lists several problems (objects that fail validation) prints a line per
/// problem, every line escaped on its own: never a literal `\n`, never a line forged by a
/// value.
@Suite struct PersistenceToolProblemListTests {
    @Test func severalInvalidObjectsAreALineEach() throws {
        let directory = try ModelFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("M.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Car" representedClassName="Car">
                    <attribute name="plate" attributeType="String" minValueString="30"/>
                    <attribute name="wheels" attributeType="Integer 16" minValueString="2" optional="NO"/>
                </entity>
            </model>
            """.utf8).write(to: model.appendingPathComponent("contents"))
        let store = directory.appendingPathComponent("s.sqlite").path
        #expect(try ToolRun(["store", "create", store, "--model", model.path]).status == 0)
        let json = directory.appendingPathComponent("cars.json")
        try Data(#"{"Car": [{"plate": "A\nerror: forged", "wheels": 1}, {"plate": "B"}]}"#.utf8).write(to: json)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let run = try ToolRun(["store", "import", store, json.path, "--model", model.path])
        #expect(run.status == 65, "\(run)")
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "error: Validation failed with 4 errors:", "\(run.stderr)")
        #expect(lines.count == 6 && lines.last == "", "a line per problem: \(run.stderr)")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("  $.Car[") }, "\(run.stderr)")
        #expect(!run.stderr.contains("\\n  ") && run.stderr.contains(#"A\nerror: forged"#), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
