import Foundation
import ProcessTestSupport

/// One run of the built `books` binary: what it printed and its exit status.
struct BooksRun: CustomStringConvertible {
    /// The exit status.
    let status: Int32
    /// Standard output, raw.
    let stdoutData: Data
    /// Standard output as UTF-8 text.
    let stdout: String
    /// Standard error as UTF-8 text.
    let stderr: String

    /// Standard output split into lines, without the newlines.
    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    /// Standard error split into non-empty lines.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var description: String { "status \(status)\nstdout: \(stdout.prefix(2_000))\nstderr: \(stderr)" }

    /// Runs `books` (or `executable`, such as a wrapper that runs `books`) with `arguments`
    /// and exactly `environment` (nothing inherited), stdin closed, reading both pipes to the
    /// end before waiting.
    init(_ arguments: [String], environment: [String: String], executable: URL? = nil) throws {
        let process = Process()
        process.executableURL = try executable ?? Self.executable()
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let run = try ChildProcess.run(process)
        status = run.status
        stdoutData = run.stdout
        stdout = run.stdoutText
        stderr = run.stderrText
    }

    /// The ID `books add` printed (`Added 72E1DE3E  The Cyberiad — …`), which every command
    /// taking an ID accepts; empty when it printed no such line.
    var addedID: String {
        guard stdout.hasPrefix("Added ") else { return "" }
        return String(stdout.dropFirst(6).prefix { $0 != " " })
    }

    /// Standard output parsed as a JSON array of objects.
    func jsonObjects() throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: stdoutData)
        guard let array = value as? [[String: Any]] else { throw NotAnArrayOfObjects(text: String(stdout.prefix(200))) }
        return array
    }

    struct NotAnArrayOfObjects: Error, CustomStringConvertible {
        var text: String
        var description: String { "stdout is not a JSON array of objects: \(text)" }
    }

    /// The built `books`.
    static func executable() throws -> URL { try BuiltProduct.executable(named: "books") }
}

/// A fresh temporary directory with a store path in it, removed when the sandbox goes away.
final class BooksSandbox {
    /// The temporary directory, also `HOME`.
    let directory: URL
    /// The `--store` path (the file may not exist).
    let store: URL

    /// Makes an empty sandbox; the store file does not exist yet.
    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("books-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = directory.appendingPathComponent("Books.sqlite")
    }

    /// Makes a sandbox whose store is a copy of the shared, already seeded store.
    static func seeded() throws -> BooksSandbox {
        let sandbox = try BooksSandbox()
        let template = try SeededTemplate.shared.get()
        try FileManager.default.copyItem(at: template, to: sandbox.store)
        return sandbox
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The explicit environment of a run: locale, UTC, no colors, `HOME` here.
    func environment(lang: String = "en_US.UTF-8", extra: [String: String] = [:]) -> [String: String] {
        ["LANG": lang, "TZ": "UTC", "NO_COLOR": "1", "HOME": directory.path, "PATH": "/usr/bin:/bin"]
            .merging(extra) { $1 }
    }

    /// Runs `books --store STORE arguments…`.
    @discardableResult
    func run(_ arguments: [String], lang: String = "en_US.UTF-8", extra: [String: String] = [:]) throws -> BooksRun {
        try BooksRun(["--store", store.path] + arguments, environment: environment(lang: lang, extra: extra))
    }

    /// Runs `books arguments…` without adding `--store`.
    func runBare(_ arguments: [String], lang: String = "en_US.UTF-8", extra: [String: String] = [:]) throws -> BooksRun {
        try BooksRun(arguments, environment: environment(lang: lang, extra: extra))
    }

    /// The number of books `list --json` prints.
    func bookCount() throws -> Int {
        let run = try run(["list", "--json"])
        guard run.status == 0 else { throw BooksRunFailed(run: run) }
        return try run.jsonObjects().count
    }

    struct BooksRunFailed: Error, CustomStringConvertible {
        var run: BooksRun
        var description: String { "books failed: \(run)" }
    }
}

/// A store seeded once per test process (by `books seed` on a fresh file), copied by
/// ``BooksSandbox/seeded()`` so that each test has its own.
enum SeededTemplate {
    /// The folder that holds the template, removed when the test process exits.
    static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("books-cli-template-\(UUID().uuidString)", isDirectory: true)

    /// The seeded file, or why it could not be made.
    static let shared: Result<URL, any Error> = Result {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: SeededTemplate.directory) }
        let store = directory.appendingPathComponent("Books.sqlite")
        let run = try BooksRun(
            ["--store", store.path, "seed"],
            environment: ["LANG": "en_US.UTF-8", "TZ": "UTC", "NO_COLOR": "1", "HOME": directory.path])
        guard run.status == 0 else { throw BooksSandbox.BooksRunFailed(run: run) }
        // Only the main file is copied: a leftover WAL would be lost.
        let leftovers = ["-wal", "-journal"].map { store.path + $0 }
            .filter { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int).map { $0 > 0 } ?? false }
        guard leftovers.isEmpty else { throw TemplateHasSidecar(paths: leftovers) }
        return store
    }

    struct TemplateHasSidecar: Error, CustomStringConvertible {
        var paths: [String]
        var description: String { "the seeded template store left \(paths.joined(separator: ", ")) behind" }
    }
}
