import Foundation
import Persistence
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Stores `books` must refuse without changing a byte: one it may not write, and one made
/// for another model. (Missing directories, directories, non-SQLite files and foreign SQLite
/// databases are in `BooksEndToEndTests`.)
@Suite struct BadStoreTests {
    /// Root ignores file permissions, so as root the read-only run drops to `nobody` with
    /// `setpriv`; without either, the test cannot make a store read-only and is skipped.
    /// As root, `nobody` must also reach the built products: a clone in a private folder
    /// (under `/root`, mode 0700) keeps the binary and its resources from it, and the test
    /// is skipped there.
    static let canDropPrivileges = geteuid() != 0
        || (FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && productsReachableByOthers)

    /// Whether every folder above the built `books` lets others through (`o+x`) and the
    /// binary and its resource folders let them read.
    static var productsReachableByOthers: Bool {
        guard let books = try? BooksRun.executable() else { return false }
        var folder = books.deletingLastPathComponent()
        let reachable = { (path: String, bits: mode_t) -> Bool in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & bits == bits
        }
        let products = [books.path] + ["books_BookCatalog.resources", "books_SeedData.resources"].map {
            folder.appendingPathComponent($0).path
        }
        guard products.allSatisfy({ reachable($0, S_IROTH) }) else { return false }
        while folder.path != "/" {
            guard reachable(folder.path, S_IXOTH) else { return false }
            folder = folder.deletingLastPathComponent()
        }
        return true
    }

    /// Runs books as an unprivileged user (nobody, when we are root).
    static func runUnprivileged(_ arguments: [String], sandbox: BooksSandbox) throws -> BooksRun {
        let books = try BooksRun.executable().path
        guard geteuid() == 0 else { return try sandbox.run(arguments) }
        return try BooksRun(
            ["--reuid", "65534", "--regid", "65534", "--clear-groups", books, "--store", sandbox.store.path] + arguments,
            environment: sandbox.environment(), executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }

    @Test(.enabled(if: canDropPrivileges))
    func readOnlyStoreIsReadButNeverWritten() throws {
        let sandbox = try BooksSandbox.seeded()
        // The directory stays writable (SQLite keeps its -shm index there), the file is not.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: sandbox.directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.store.path)
        let before = try Data(contentsOf: sandbox.store)

        let list = try Self.runUnprivileged(["list", "--limit", "1", "--json"], sandbox: sandbox)
        #expect(list.status == 0, "\(list)")
        #expect(try list.jsonObjects().count == 1)

        let uuid = try #require(try list.jsonObjects().first?["uuid"] as? String)
        for arguments in [
            ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"], ["delete", uuid, "--yes"],
        ] {
            let run = try Self.runUnprivileged(arguments, sandbox: sandbox)
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stdout == "")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(
                run.stderr.hasPrefix("Error: The catalogue \(sandbox.store.path) is read-only: nothing was changed"),
                "\(run.stderr)")
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
        #expect(try StoreAudit(store: sandbox.store).count("Book") == 459)
    }

    @Test func storeMadeForAnotherModelIsRefusedUntouched() throws {
        let sandbox = try BooksSandbox()
        // A Persistence store whose Book entity differs from the catalogue's.
        let other = ManagedObjectModel(entities: [
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)])
        ])
        do {
            // The container closes the store when it goes at the end of this scope.
            let container = try PersistentContainer(model: other, storeURL: sandbox.store)
            try container.viewContext.insertObject(forEntityName: "Book")["title"] = "Kept"
            try container.viewContext.save()
        }
        let before = try Data(contentsOf: sandbox.store)
        for arguments in [["list"], ["seed"], ["search", "kept"], ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 65, "\(arguments): \(run)")
            #expect(run.stdout == "")
            #expect(run.stderrLines.count == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains(sandbox.store.path), "\(run.stderr)")
            #expect(run.stderr.contains("was written with a different model"), "\(run.stderr)")
            #expect(try Data(contentsOf: sandbox.store) == before, "\(arguments) changed the store")
        }
    }
}
