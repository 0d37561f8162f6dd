import Foundation
import ProcessTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every file a command writes goes through `OutputFile`: the open store and its files (by
/// any name or link), another SQLite database, devices, FIFOs, sockets and read-only files
/// are refused in one line with nothing written; a replaced file keeps its mode and owner;
/// a killed export leaves nothing behind, and an earlier run's debris is swept.
@Suite struct CheckedOutputTests {
    static let isRoot = geteuid() == 0

    /// A seeded sandbox and the bytes of its store, to show it unchanged.
    static func seeded() throws -> (BooksSandbox, Data) {
        let sandbox = try BooksSandbox.seeded()
        return (sandbox, try Data(contentsOf: sandbox.store))
    }

    static func expectRefused(_ run: BooksRun, _ target: String, _ reason: String, prefix: String = "Error: ") {
        #expect(run.status == 1 && run.stdout.isEmpty, "\(target): \(run)")
        #expect(run.stderr == "\(prefix)Cannot write \(target): \(reason); nothing was written.\n", "\(target): \(run.stderr)")
    }

    @Test func theStoreAndItsFilesAreNeverAnExportsTarget() throws {
        let (sandbox, before) = try Self.seeded()
        let store = sandbox.store.path
        let folder = sandbox.directory
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: store)
        try FileManager.default.linkItem(atPath: store, toPath: folder.appendingPathComponent("hard").path)
        let support = folder.appendingPathComponent(".Books.sqlite_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        for target in [store, store + "-wal", store + "-shm", store + "-journal", folder.appendingPathComponent("link").path,
                       folder.appendingPathComponent("hard").path, support.appendingPathComponent("F00D").path] {
            for format in ["json", "csv"] {
                let run = try sandbox.run(["export", "--format", format, "-o", target])
                #expect(run.status == 1 && run.stdout.isEmpty, "\(target): \(run)")
                #expect(run.stderr.hasPrefix("Error: Cannot write \(target): it is the open store \(store)"), "\(run.stderr)")
                #expect(run.stderrLines.count == 1)
            }
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
        #expect(!FileManager.default.fileExists(atPath: support.appendingPathComponent("F00D").path))
        // persistence-tool refuses the same for its store.
        let tool = try BuiltProduct.executable(named: "persistence-tool")
        let model = BuiltProduct.repositoryRoot.appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld").path
        for target in [store, folder.appendingPathComponent("link").path, store + "-wal"] {
            let run = try BooksRun(["store", "export", store, "--model", model, "--output", target], environment: sandbox.environment(), executable: tool)
            #expect(run.status == 1 && run.stderr.hasPrefix("error: Cannot write \(target): it is the open store"), "\(run)")
        }
        #expect(try Data(contentsOf: sandbox.store) == before)
    }

    @Test func anotherSQLiteDatabaseADirectoryAndAReadOnlyFileAreRefused() throws {
        let (sandbox, _) = try Self.seeded()
        let other = sandbox.directory.appendingPathComponent("other.sqlite")
        try FileManager.default.copyItem(at: sandbox.store, to: other)
        let otherBytes = try Data(contentsOf: other)
        Self.expectRefused(try sandbox.run(["export", "-o", other.path]), other.path, "it is an SQLite database, which an export never replaces")
        #expect(try Data(contentsOf: other) == otherBytes)
        Self.expectRefused(try sandbox.run(["export", "-o", sandbox.directory.path]), sandbox.directory.path, "it is a directory")
        let readOnly = sandbox.directory.appendingPathComponent("kept.json")
        try Data("mine".utf8).write(to: readOnly)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly.path)
        Self.expectRefused(try sandbox.run(["export", "-o", readOnly.path]), readOnly.path, "it is read-only")
        #expect(try Data(contentsOf: readOnly) == Data("mine".utf8))
        // Importing the catalogue into itself is refused too.
        let run = try sandbox.run(["import", sandbox.store.path])
        #expect(run.status == 65 && run.stderr.hasPrefix("Error: Cannot import \(sandbox.store.path): it is the catalogue"), "\(run)")
    }

    @Test func devicesFIFOsAndSocketsAreRefusedNeverReplaced() throws {
        let (sandbox, _) = try Self.seeded()
        let fifo = sandbox.directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        Self.expectRefused(try sandbox.run(["export", "-o", fifo]), fifo, "it is a FIFO")
        let socketPath = sandbox.directory.appendingPathComponent("sock").path
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in socketPath.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        Self.expectRefused(try sandbox.run(["export", "-o", socketPath]), socketPath, "it is a socket")
        for path in [fifo, socketPath] {
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG, "\(path) is still what it was")
        }
        if Self.isRoot {
            // A character device like /dev/null, made here: the real one is never touched.
            let device = sandbox.directory.appendingPathComponent("null").path
            #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)  // makedev(1, 3)
            Self.expectRefused(try sandbox.run(["export", "-o", device]), device, "it is a device")
            var info = stat()
            #expect(stat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        }
    }

    @Test func aReplacedFileKeepsItsModeAndOwner() throws {
        let (sandbox, _) = try Self.seeded()
        let target = sandbox.directory.appendingPathComponent("private.json")
        try Data("old".utf8).write(to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        if Self.isRoot { #expect(chown(target.path, 65534, 65534) == 0) }
        let run = try sandbox.run(["export", "-o", target.path])
        #expect(run.status == 0, "\(run)")
        var info = stat()
        #expect(stat(target.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        if Self.isRoot { #expect(info.st_uid == 65534 && info.st_gid == 65534) }
        #expect(try Data(contentsOf: target).count > 100_000)
    }

    /// A SIGKILL, SIGINT or SIGTERM in the middle of a large export leaves no partial file
    /// and the old file whole; a partial that an older run left is swept by the next export
    /// to that file.
    @Test func aKilledExportLeavesNothingBehind() throws {
        let (sandbox, _) = try Self.seeded()
        #expect(try sandbox.run(["seed", "--count", "150000"]).status == 0)
        let target = sandbox.directory.appendingPathComponent("out.json")
        try Data("previous".utf8).write(to: target)
        // The store's own -wal and -shm come and go with its connections.
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
                .filter { !$0.hasPrefix("Books.sqlite-") }.sorted()
        }
        let before = try files()
        for signal in [SIGKILL, SIGINT, SIGTERM] {
            let pid = try Self.spawnWithDefaultSignals(
                try BooksRun.executable().path, ["--store", sandbox.store.path, "export", "-o", target.path],
                environment: sandbox.environment())
            usleep(250_000)
            var status: Int32 = 0
            let wasRunning = waitpid(pid, &status, WNOHANG) == 0
            kill(pid, signal)
            if wasRunning { waitpid(pid, &status, 0) }
            #expect(wasRunning, "the export of 150,459 books ended within 0.25 s; the kill tested nothing")
            #expect(status & 0x7F == signal, "killed by signal \(signal), status \(status)")
            #expect(try files() == before, "signal \(signal)")
            #expect(try Data(contentsOf: target) == Data("previous".utf8), "signal \(signal): the old file stands whole")
        }

        // Debris of a run from before (a named partial, as the fallback makes) goes next time.
        let stale = sandbox.directory.appendingPathComponent(".out.json.partial-1A2B3C4D")
        try Data("half".utf8).write(to: stale)
        #expect(try sandbox.run(["export", "--format", "csv", "-o", target.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    /// Starts `path` with every signal's default action and none blocked, as a shell starts
    /// a command: a test runner's threads block or ignore signals, which a child inherits.
    static func spawnWithDefaultSignals(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        return pid
    }
}
