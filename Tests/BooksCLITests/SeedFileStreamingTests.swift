import Foundation
import Testing

/// Seed files are read as a stream, checked whole before the store is touched, and can come
/// from standard input.
@Suite struct SeedFileStreamingTests {
    @Test func aMalformedEntryFarIntoAFileIsRefusedWithNothingWritten() throws {
        let sandbox = try BooksSandbox.seeded()
        let before = try Data(contentsOf: sandbox.store)
        var entries = try JSONSerialization.jsonObject(with: SeedCommandTests.seedFile(count: 3_000)) as? [[String: String]] ?? []
        entries[2_998]["price"] = "48,98"
        let text = String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
        let file = sandbox.directory.appendingPathComponent("late.json")
        try Data(text.utf8).write(to: file)
        let run = try sandbox.run(["seed", "--file", file.path, "--batch-size", "100"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("late.json entry 2999: price '48,98'"), "\(run.stderr)")
        #expect(try Data(contentsOf: sandbox.store) == before)

        let duplicate = String(decoding: SeedCommandTests.seedFile(count: 2_000), as: UTF8.self)
            .replacingOccurrences(of: "0000000007CF", with: "000000000003")  // entry 2,000 takes entry 4's UUID
        try Data(duplicate.utf8).write(to: file)
        let again = try sandbox.run(["seed", "--file", file.path, "--batch-size", "100"])
        #expect(again.status == 65, "\(again)")
        #expect(again.stderr.contains("entry 2000: uuid '00000000-0000-4000-8000-000000000003': entry 4 has the same UUID"), "\(again.stderr)")
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test func aDashReadsTheSeedFileFromStandardInput() throws {
        let sandbox = try BooksSandbox()
        let file = sandbox.directory.appendingPathComponent("in.json")
        try SeedCommandTests.seedFile(count: 40).write(to: file)
        // Through a pipe (read once, kept aside for the second pass) and from a file.
        let piped = try Self.run(sandbox, stdin: .pipe(Data(contentsOf: file)))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == "Seeded 40 books; the catalogue has 40.\n")
        // The same books again, from a file: all there already, left as they are.
        let redirected = try Self.run(sandbox, stdin: .file(file))
        #expect(
            redirected.stdout == "Seeded 0 of 40 books (40 already in the catalogue were left as they are); the catalogue has 40.\n",
            "\(redirected.stderr)")

        let bad = try Self.run(sandbox, stdin: .pipe(Data("[{\"uuid\": 1}]".utf8)))
        #expect(bad.status == 65)
        #expect(bad.stderr == "Error: Invalid standard input entry 1: uuid '1': expected a string\n", "\(bad.stderr)")
        let directory = try Self.run(sandbox, stdin: .file(sandbox.directory))
        #expect(directory.status == 66, "\(directory.stderr)")
        #expect(directory.stderr == "Error: Standard input cannot be used as a seed file: it is a directory.\n")
    }

    enum Input {
        case pipe(Data)
        case file(URL)
    }

    /// Runs `books seed --file -` with `stdin`.
    static func run(_ sandbox: BooksSandbox, stdin: Input) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try BooksRun.executable()
        process.arguments = ["--store", sandbox.store.path, "seed", "--file", "-", "--batch-size", "7"]
        process.environment = sandbox.environment()
        let input = Pipe()
        switch stdin {
        case .pipe: process.standardInput = input
        case .file(let url): process.standardInput = try FileHandle(forReadingFrom: url)
        }
        let output = sandbox.directory.appendingPathComponent("out.txt")
        let errors = sandbox.directory.appendingPathComponent("err.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        if case .pipe(let data) = stdin {
            try input.fileHandleForWriting.write(contentsOf: data)
            try input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: try Data(contentsOf: output), as: UTF8.self),
            String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        )
    }
}
