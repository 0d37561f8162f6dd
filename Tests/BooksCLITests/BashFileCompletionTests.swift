import Foundation
import Testing

/// The bash script completes file names exactly as they are: names with spaces, quotes,
/// glob characters or a leading `-` are one candidate each, never split nor expanded.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is not installed"))
struct BashFileCompletionTests {
    static let names = ["a b.json", "*.csv", "x.csv", "-dash.json", "q?.txt", "it's.json", "[ab].json", "tab\there.json"]

    /// COMPREPLY for `words` (the last is the word being completed), in `files`, sorted,
    /// one `<…>` each.
    static func complete(_ words: [String], in sandbox: BooksSandbox) throws -> String {
        let run = try sandbox.shell(
            """
            cd "$HOME/files" && exec bash -c 'eval "$("$BOOKS" completions bash)" || exit 9
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _books
            for w in "${COMPREPLY[@]}"; do printf "<%s>\\n" "$w"; done | LC_ALL=C sort' bash "$@"
            """, arguments: words)
        #expect(run.status == 0, "\(words): \(run)")
        return run.stdout
    }

    static func sandbox() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        let files = sandbox.directory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files.appendingPathComponent("sub dir"), withIntermediateDirectories: true)
        for name in names { try Data().write(to: files.appendingPathComponent(name)) }
        return sandbox
    }

    static func lines(_ names: [String]) -> String {
        names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { "<\($0)>\n" }.joined()
    }

    @Test func everyFileIsOneCandidateAsItIsNamed() throws {
        let sandbox = try Self.sandbox()
        let all = Self.lines(Self.names + ["sub dir"])
        #expect(try Self.complete(["books", "import", ""], in: sandbox) == all)
        #expect(try Self.complete(["books", "--store", ""], in: sandbox) == all)
        #expect(try Self.complete(["books", "seed", "--file", ""], in: sandbox) == all)
    }

    @Test(arguments: [
        ("a", ["a b.json"]), ("a b", ["a b.json"]), ("a\\ b", ["a b.json"]), ("'a b", ["a b.json"]),
        ("\"a", ["a b.json"]), ("*", ["*.csv"]), ("x", ["x.csv"]), ("q", ["q?.txt"]), ("q?", ["q?.txt"]),
        ("it", ["it's.json"]), ("it\\'", ["it's.json"]), ("[", ["[ab].json"]), ("su", ["sub dir"]),
        ("tab", ["tab\there.json"]), ("nothing", []),
    ])
    func aPartialNameCompletesToTheFilesItBegins(typed: String, expected: [String]) throws {
        let sandbox = try Self.sandbox()
        #expect(try Self.complete(["books", "import", typed], in: sandbox) == Self.lines(expected), "\(typed)")
    }

    /// A word beginning with `-` is an option being typed; a file named `-dash.json` is
    /// offered after `./`, and never read as an option of compgen.
    @Test func aLeadingDashIsSafe() throws {
        let sandbox = try Self.sandbox()
        #expect(try Self.complete(["books", "import", "./-"], in: sandbox) == "<./-dash.json>\n")
        #expect(try Self.complete(["books", "import", "-"], in: sandbox) == "<--dry-run>\n<--help>\n<--prefer-file>\n<--skip-invalid>\n<--store>\n<-h>\n")
    }
}
