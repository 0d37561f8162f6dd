import Foundation
import ProcessTestSupport
import Testing
import PersistenceSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// Store paths that are not store files, stores `books` refuses, read-only media and
/// damaged pages: one line, the right exit code, and nothing written or left behind.
@Suite struct HostileStoreFileTests {
    /// Runs `books --store store arguments…` under `timeout`, so that a hang fails the test
    /// (exit 124) instead of stopping the suite.
    static func runBounded(_ store: String, _ arguments: [String], sandbox: BooksSandbox) throws -> BooksRun {
        try BooksRun(
            ["10", try BooksRun.executable().path, "--store", store] + arguments,
            environment: sandbox.environment(), executable: URL(fileURLWithPath: "/usr/bin/timeout"))
    }

    /// The names in /dev that SQLite would leave beside a device it opened as a database.
    static func journalsInDev() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return Set(names.filter { $0.hasSuffix("-journal") || $0.hasSuffix("-wal") || $0.hasSuffix("-shm") })
    }

    @Test func pathsThatAreNotRegularFilesAreRefusedBeforeSQLiteOpensThem() throws {
        let sandbox = try BooksSandbox()
        let directory = sandbox.directory.path
        let fifo = directory + "/fifo.sqlite"
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = directory + "/folder.sqlite"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let link = directory + "/null-link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let dangling = directory + "/dangling.sqlite"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory + "/nowhere/x")
        let socketPath = directory + "/socket.sqlite"
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let journalsBefore = Self.journalsInDev()
        let cases: [(String, String)] = [
            (fifo, "is a FIFO (named pipe), not a store file"),
            ("/dev/null", "is a character device, not a store file"),
            ("/dev/zero", "is a character device, not a store file"),
            ("/dev/full", "is a character device, not a store file"),
            (link, "is a character device, not a store file"),
            (dangling, "is a symbolic link to nothing, not a store file"),
            (folder, "is a directory, not a store file"),
            (socketPath, "is a socket, not a store file"),
        ]
        for (path, message) in cases {
            for arguments in [["list"], ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"], ["check"]] {
                let run = try Self.runBounded(path, arguments, sandbox: sandbox)
                #expect(run.status == 1, "\(path) \(arguments): \(run)")
                #expect(run.stdout == "")
                #expect(run.stderrLines == ["Error: \(path) \(message)" + (path == folder ? "" : "; it was left untouched")], "\(run.stderr)")
            }
        }
        #expect(Self.journalsInDev() == journalsBefore, "files left in /dev")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["dangling.sqlite", "fifo.sqlite", "folder.sqlite", "null-link.sqlite", "socket.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func refusedStoresAreLeftByteForByteWithNoFileBesideThem() throws {
        let sandbox = try BooksSandbox.seeded()
        let directory = sandbox.directory
        // Another program's SQLite database, in WAL mode.
        let foreign = directory.appendingPathComponent("foreign.sqlite")
        try StoreAudit.writeForeignDatabase(at: foreign)
        // A catalogue whose recorded version hash was edited.
        let edited = directory.appendingPathComponent("edited.sqlite")
        try FileManager.default.copyItem(at: sandbox.store, to: edited)
        try StoreAudit(store: edited).write("UPDATE _metadata SET value = 'x' WHERE key = 'versionHash.Book'")
        // A catalogue cut short.
        let truncated = directory.appendingPathComponent("truncated.sqlite")
        try Data(try Data(contentsOf: sandbox.store).prefix(40_000)).write(to: truncated)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for store in [foreign, edited, truncated] {
            let bytes = try Data(contentsOf: store)
            for arguments in [["list"], ["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"]] {
                let run = try Self.runBounded(store.path, arguments, sandbox: sandbox)
                #expect(run.status == 65, "\(store.lastPathComponent) \(arguments): \(run)")
                #expect(run.stderrLines.count == 1, "\(run.stderr)")
                #expect(try Data(contentsOf: store) == bytes, "\(store.lastPathComponent) changed")
                let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                #expect(after == before, "\(store.lastPathComponent) \(arguments) left files behind")
            }
        }
    }

    @Test func aDamagedPageRefusesWritesAndCheckReportsIt() throws {
        let sandbox = try BooksSandbox.seeded()
        let healthy = try sandbox.run(["check"])
        #expect(healthy.status == 0, "\(healthy)")
        #expect(healthy.stdout == "The catalogue \(sandbox.store.path) is healthy.\n")
        #expect(healthy.stderr == "")

        // Overwrite the middle of a leaf page of the Book table, away from the last page
        // where an insert goes: SQLite notices only when it reads that page.
        let leaves = try StoreAudit(store: sandbox.store).bookLeafPages()
        try #require(leaves.count >= 3)
        let page = leaves[leaves.count / 2]
        let handle = try FileHandle(forUpdating: sandbox.store)
        try handle.seek(toOffset: UInt64((page - 1) * 4096 + 2000))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        let damaged = try Data(contentsOf: sandbox.store)

        let add = try sandbox.run(["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"])
        #expect(add.status == 65, "\(add)")
        #expect(add.stdout == "")
        #expect(add.stderrLines.count == 1, "\(add.stderr)")
        #expect(add.stderr.contains("the store is damaged") && add.stderr.contains("nothing was written"), "<\(add.stderr)>")
        #expect(try Data(contentsOf: sandbox.store) == damaged)

        let check = try sandbox.run(["check"])
        #expect(check.status == 1, "\(check)")
        #expect(check.stdout.contains("SQLite integrity check: On tree page \(page)"), "\(check.stdout)")
        #expect(check.stderrLines.count == 1)
        #expect(check.stderr.hasPrefix("Error: The catalogue \(sandbox.store.path) is damaged: "), "\(check.stderr)")
        #expect(try Data(contentsOf: sandbox.store) == damaged)
    }

    @Test func checkNeverCreatesACatalogue() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.run(["check"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stderrLines == ["Error: There is no store at \(sandbox.store.path)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).isEmpty)
    }

    @Test(.enabled(if: Mount.canMountReadOnly, "needs a read-only bind mount (root)"))
    func aStoreOnReadOnlyMediaIsReadAndWritesAreRefused() throws {
        let sandbox = try BooksSandbox.seeded()
        let media = sandbox.directory.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: sandbox.store, to: media.appendingPathComponent("Books.sqlite"))
        let mounted = sandbox.directory.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: mounted, withIntermediateDirectories: true)
        #expect(Mount.bind(media, at: mounted))
        defer { Mount.unmount(mounted) }
        #expect(Mount.remountReadOnly(mounted))
        let store = mounted.appendingPathComponent("Books.sqlite").path

        let list = try Self.runBounded(store, ["list", "--limit", "2", "--json"], sandbox: sandbox)
        #expect(list.status == 0, "\(list)")
        #expect(try list.jsonObjects().count == 2)
        let search = try Self.runBounded(store, ["search", "solaris"], sandbox: sandbox)
        #expect(search.status == 0 && search.stdout.contains("Solaris"), "\(search)")
        let check = try Self.runBounded(store, ["check"], sandbox: sandbox)
        #expect(check.status == 0, "\(check)")
        let uuid = try #require(try list.jsonObjects().first?["uuid"] as? String)
        for arguments in [["add", "--title", "T", "--author", "A", "--date", "2020-01-01", "--price", "1"], ["delete", uuid, "--yes"]] {
            let run = try Self.runBounded(store, arguments, sandbox: sandbox)
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stdout == "")
            #expect(run.stderrLines.count == 1)
            #expect(run.stderr.hasPrefix("Error: The catalogue \(store) is read-only: nothing was changed"), "\(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: media.path) == ["Books.sqlite"])
    }
}
