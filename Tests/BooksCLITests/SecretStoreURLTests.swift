import Foundation
import Persistence
import ProcessTestSupport
import Testing

/// A `postgresql://` store holding a password, given to every command of every tool in a
/// build without the PostgreSQL trait: each says the same one line (no PostgreSQL support),
/// exits 1, writes nothing, and the password appears in neither stream.
@Suite(.enabled(if: !ServerStoreURL.isSupported, "the build has the PostgreSQL trait"))
struct SecretStoreURLTests {
    static let secret = "s3cr3tPW"
    static let urls = [
        "postgresql://reader:\(secret)@db.example/books",
        "postgres://reader:\(secret)@db.example:5432/books?sslmode=require",
        "postgresql://reader@db.example/books?password=\(secret)",
        "postgresql:///books?host=/run/postgresql&password=\(secret)&user=reader",
    ]
    static let unsupported =
        "Error: This build has no PostgreSQL support: build it with `swift build --traits PostgreSQL` "
        + "(libpq-dev installed) to use a postgresql:// store\n"

    /// Every `books` command that uses the store, with arguments it accepts.
    static let booksCommands: [[String]] = [
        ["seed"], ["list"], ["list", "--where", "title MATCHES \"a.*\""], ["search", "dune"],
        ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"],
        ["show", "abcd"], ["edit", "abcd", "--title", "New"], ["delete", "abcd", "--yes"],
        ["delete", "--where", "title == \"x\"", "--yes"], ["import", "books.json"], ["export"],
        ["export", "--format", "csv", "-o", "out.csv"], ["history"], ["undo"], ["check"],
    ]

    @Test(arguments: urls) func everyBooksCommandSaysTheSameLineAndHidesThePassword(url: String) throws {
        let sandbox = try BooksSandbox()
        try Data("[]".utf8).write(to: sandbox.directory.appendingPathComponent("books.json"))
        let before = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted()
        for command in Self.booksCommands {
            let byOption = try BooksRun(["--store", url] + command, environment: sandbox.environment())
            let byVariable = try BooksRun(command, environment: sandbox.environment(extra: ["BOOKS_STORE": url]))
            for run in [byOption, byVariable] {
                #expect(run.status == 1, "\(command): \(run)")
                #expect(run.stderr == Self.unsupported, "\(command): \(run)")
                #expect(run.stdout.isEmpty, "\(command): \(run)")
                #expect(!run.stderr.contains(Self.secret) && !run.stdout.contains(Self.secret), "\(command): \(run)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted() == before)
    }

    @Test(arguments: urls) func everyStoreSubcommandOfPersistenceToolSaysTheSameLine(url: String) throws {
        let bundle = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("in.json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: json))
        let file = directory.appendingPathComponent("new.sqlite").path
        let commands: [[String]] = [
            ["create", url, "--model", bundle], ["import", url, json, "--model", bundle],
            ["export", url, "--model", bundle], ["export", url],
            ["delete", url, "--model", bundle, "--id", "Book/p1"], ["check", url, "--model", bundle],
            ["migrate", url, "--model", bundle], ["migrate", url, "--model", bundle, "--dry-run"],
            ["convert", url, file, "--model", bundle], ["convert", json, url, "--model", bundle],
        ]
        for command in commands {
            let run = try Self.tool(["store"] + command, in: directory)
            #expect(run.status == 1, "\(command): \(run.stderrText)")
            #expect(run.stderrText == "error: " + Self.unsupported.dropFirst("Error: ".count), "\(command)")
            #expect(run.stdoutText.isEmpty, "\(command): \(run.stdoutText)")
            #expect(!run.stderrText.contains(Self.secret), "\(command): \(run.stderrText)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["in.json"])
    }

    /// A secret location where a file is expected (a model, an output directory, a usage
    /// error's value) is never echoed with its password either.
    @Test func messagesThatEchoALocationHideItsPassword() throws {
        let url = Self.urls[0]
        let runs = [
            try Self.tool(["model", "validate", url], in: nil),
            try Self.tool(["model", "print", url], in: nil),
            try Self.tool(["store", "create", "x.sqlite", "--model", url], in: nil),
            try Self.run("persistence-codegen", [url, "--output", "/nonexistent"]),
            try Self.run("persistence-codegen", ["--model", url]),
        ]
        for run in runs {
            #expect(run.status != 0)
            #expect(run.stderrText.contains("reader:***@db.example") || !run.stderrText.contains("reader"), "\(run.stderrText)")
            #expect(!run.stderrText.contains(Self.secret), "\(run.stderrText)")
        }
        let books = try BooksRun(["show", url], environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(books.status == 64)
        #expect(!books.stderr.contains(Self.secret), "\(books)")
    }

    static func tool(_ arguments: [String], in directory: URL?) throws -> ChildProcessOutput {
        try run("persistence-tool", arguments, in: directory)
    }

    static func run(_ name: String, _ arguments: [String], in directory: URL? = nil) throws -> ChildProcessOutput {
        let process = Process()
        process.executableURL = try BuiltProduct.executable(named: name)
        process.arguments = arguments
        process.environment = ["LANG": "C.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        if let directory { process.currentDirectoryURL = directory }
        return try ChildProcess.run(process)
    }
}
