import Foundation
import Testing
import ProcessTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// README's "Install" steps, run from a fresh prefix with the products this test run built:
/// the installed `books` finds its model and sample books under the prefix with the build
/// folder out of reach, and a binary copied without them fails in one line, creating nothing.
@Suite struct InstallTests {
    /// The `sh` block after README's install-test marker, its build line left out (the test
    /// installs what `swift build --build-tests` made) and `bin` and `prefix` set by the test.
    static func installScript(bin: URL, prefix: URL) throws -> String {
        let text = try String(contentsOf: BuiltProduct.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let marker = try #require(lines.firstIndex { $0.hasPrefix("<!-- install-test:") })
        #expect(lines[marker + 1] == "```sh")
        let end = try #require(lines[(marker + 2)...].firstIndex { $0 == "```" })
        var script = Array(lines[(marker + 2)..<end])
        #expect(script.first == "swift build -c release", "the block begins with the release build")
        script.removeFirst()
        script = script.map { line in
            if line.hasPrefix("bin=") { return "bin='\(bin.path)'" }
            if line.hasPrefix("prefix=") { return "prefix='\(prefix.path)'" }
            return line
        }
        return "set -e\n" + script.joined(separator: "\n") + "\n"
    }

    @Test func readmesInstallGivesABinaryThatNeedsNoBuildFolder() throws {
        let sandbox = try BooksSandbox()
        let prefix = sandbox.directory.appendingPathComponent("prefix with space", isDirectory: true)
        let bin = try BooksRun.executable().deletingLastPathComponent()
        let install = try ShellRun(try Self.installScript(bin: bin, prefix: prefix), environment: sandbox.environment())
        #expect(install.status == 0, "\(install)")

        let books = prefix.appendingPathComponent("bin/books")
        let run = try BooksRun(
            ["list", "--by-month", "--limit", "1"], environment: sandbox.environment(), executable: books)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "September 2024 (1)\n  F7F6485E  Intermezzo — Sally Rooney · Sep 24, 2024 · 45.25\n", "\(run)")
        // The man page and the three completion scripts are there and are what books prints.
        for (file, arguments) in [
            ("share/man/man1/books.1", ["man"]),
            ("share/bash-completion/completions/books", ["completions", "bash"]),
            ("share/zsh/site-functions/_books", ["completions", "zsh"]),
            ("share/fish/vendor_completions.d/books.fish", ["completions", "fish"]),
        ] {
            let installed = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            let printed = try BooksRun(arguments, environment: sandbox.environment()).stdout
            #expect(!installed.isEmpty && installed == printed, "\(file)")
        }
        // A link to the installed binary (as in ~/bin) finds the same resources.
        let link = sandbox.directory.appendingPathComponent("books-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: books)
        let linked = try BooksRun(["list", "--limit", "1"], environment: sandbox.environment(), executable: link)
        #expect(linked.status == 0, "\(linked)")
    }

    @Test func aBinaryCopiedWithoutItsResourcesFailsInOneLineAndCreatesNothing() throws {
        let sandbox = try BooksSandbox()
        let lone = sandbox.directory.appendingPathComponent("lone/bin", isDirectory: true)
        try FileManager.default.createDirectory(at: lone, withIntermediateDirectories: true)
        let books = lone.appendingPathComponent("books")
        try FileManager.default.copyItem(at: try BooksRun.executable(), to: books)
        for arguments in [["list"], ["seed"], ["search", "lem"], ["check"], ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"]] {
            let run = try BooksRun(["--store", sandbox.store.path] + arguments, environment: sandbox.environment(), executable: books)
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stdout == "")
            // `seed` reads its file before it opens the catalogue, so it misses the books first.
            let missing = arguments == ["seed"]
                ? "books_SeedData.resources/books.json" : "books_BookCatalog.resources/Books.xcdatamodeld"
            #expect(
                run.stderr == "Error: \(missing) is missing: it was looked for in "
                    + "\(lone.path) and \(lone.deletingLastPathComponent().path)/share/books; install the resource folders "
                    + "beside the binary or in its ../share/books (README, \"Install\").\n", "\(arguments): \(run)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.store.path), "\(arguments) created the store")
        }
        // Resources that the user cannot read (a build in a private folder, run as another
        // user) are an error of the same line, never a trap inside Foundation's Bundle.
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            for folder in ["books_BookCatalog.resources", "books_SeedData.resources"] {
                let copy = lone.appendingPathComponent(folder)
                try FileManager.default.copyItem(at: try BooksRun.executable().deletingLastPathComponent().appendingPathComponent(folder), to: copy)
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: copy.path)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: sandbox.directory.path)
            let run = try BooksRun(
                ["--reuid", "65534", "--regid", "65534", "--clear-groups", books.path, "--store", sandbox.store.path, "list"],
                environment: sandbox.environment(), executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            #expect(run.status == 1 && run.stderrLines.count == 1, "\(run)")
            #expect(run.stderr.hasPrefix("Error: books_BookCatalog.resources/Books.xcdatamodeld is missing"), "\(run)")
        }
        // Commands that need no catalogue still work.
        #expect(try BooksRun(["help"], environment: sandbox.environment(), executable: books).status == 0)
    }
}
