import Foundation
import Testing

/// A store path that ends with `/` names a directory: it is refused before anything is
/// opened, never read as the file without the slash.
@Suite struct StorePathDirectoryTests {
    @Test func aStoreOptionEndingWithASlashIsRefusedAndCreatesNothing() throws {
        let sandbox = try BooksSandbox()
        let path = sandbox.directory.appendingPathComponent("x.sqlite").path + "/"
        let run = try BooksRun(["list", "--store", path], environment: sandbox.environment())
        #expect(run.status == 64, "\(run)")
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("names a directory"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("x.sqlite").path))
    }

    @Test func aStoreVariableEndingWithASlashIsRefusedAndCreatesNothing() throws {
        let sandbox = try BooksSandbox()
        let path = sandbox.directory.appendingPathComponent("y.sqlite").path + "/"
        let run = try BooksRun(["list"], environment: sandbox.environment(extra: ["BOOKS_STORE": path]))
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr == "Error: BOOKS_STORE '\(path)' names a directory; give the store file's path.\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("y.sqlite").path))
    }

    @Test func aFileThatIsNotADatabaseIsBadDataAndLeftUntouched() throws {
        let sandbox = try BooksSandbox()
        let file = sandbox.directory.appendingPathComponent("notes.sqlite")
        try Data("hello\n".utf8).write(to: file)
        let run = try BooksRun(["list", "--store", file.path], environment: sandbox.environment())
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr == "Error: \(file.path) is not an SQLite database; it was left untouched.\n")
        #expect(try Data(contentsOf: file) == Data("hello\n".utf8))
    }
}
