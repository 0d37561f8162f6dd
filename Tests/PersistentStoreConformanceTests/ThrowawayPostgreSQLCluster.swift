#if PostgreSQL
import Foundation
import Testing

/// A PostgreSQL cluster of one suite's own, for tests that restart or stop the server: the
/// server the other suites share (`PERSISTENCE_TEST_POSTGRES`) is never restarted under
/// them. `.ci/postgres-cluster` makes it in a temporary folder before the suite's first
/// test and removes it, folder and all, after its last (see `throwawayPostgreSQLCluster`).
final class ThrowawayPostgreSQLCluster: Sendable {
    /// The cluster of the running suite.
    @TaskLocal static var current: ThrowawayPostgreSQLCluster?

    /// The script that makes, restarts and removes clusters, in the repository's `.ci`.
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".ci/postgres-cluster")

    /// The folder holding the cluster and its Unix socket.
    let directory: URL

    /// The libpq connection string of its `postgres` database, as the superuser.
    var conninfo: String { "postgresql:///postgres?host=\(directory.path)&user=postgres" }

    /// Makes and starts a cluster in a new temporary folder.
    init() throws {
        // Short: the socket's path inside it must fit a Unix socket address.
        directory = URL(fileURLWithPath: "/tmp/books-pg-restart." + UUID().uuidString.prefix(8))
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            try run("start")
        } catch {
            stop()
            throw error
        }
    }

    /// Restarts the server with a fast shutdown: every session ends, open transactions roll back.
    func restart() throws { try run("restart") }

    /// Stops the server (a fast shutdown), keeping the cluster.
    func halt() throws { try run("halt") }

    /// Starts the halted server again.
    func resume() throws { try run("resume") }

    /// Stops the server and removes the folder.
    func stop() {
        if FileManager.default.fileExists(atPath: directory.path) { try? run("stop") }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the script's `command` on the cluster and waits for it; what it says on stderr
    /// goes to a file in the folder, read when it fails.
    ///
    /// Spawned directly rather than by Foundation's `Process`: the server the script starts
    /// outlives it and would inherit the descriptor by which `Process` learns that its child
    /// has exited, so that `waitUntilExit()` would never return. Here the script gets only
    /// the three standard descriptors.
    private func run(_ command: String) throws {
        let output = directory.appendingPathComponent("script.out")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Every other descriptor the tests have open (one the listing itself used is
        // closed again by then, which posix_spawn passes over).
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in descriptors.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var arguments: [UnsafeMutablePointer<CChar>?] = []
        for argument in [Self.script.path, command, directory.path] { arguments.append(strdup(argument)) }
        arguments.append(nil)
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.script.path, &actions, nil, arguments, environ)
        guard spawned == 0 else {
            throw ClusterScriptError(command: command, status: spawned, output: String(cString: strerror(spawned)))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exited normally (the low seven bits 0) with status 0.
        guard status == 0 else {
            let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw ClusterScriptError(command: command, status: status, output: said)
        }
    }
}

/// `.ci/postgres-cluster` failed.
struct ClusterScriptError: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    let output: String
    var description: String { "postgres-cluster \(command) exited with \(status): \(output)" }
}

/// Runs a suite inside a throwaway cluster of its own (`ThrowawayPostgreSQLCluster.current`
/// while its tests run), made once for the whole suite.
struct ThrowawayPostgreSQLClusterTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Where the PostgreSQL suites are off, so is the cluster.
        guard PostgreSQLTestServer.conninfo != nil else { return try await function() }
        let cluster = try ThrowawayPostgreSQLCluster()
        defer { cluster.stop() }
        try await ThrowawayPostgreSQLCluster.$current.withValue(cluster) { try await function() }
    }
}

extension Trait where Self == ThrowawayPostgreSQLClusterTrait {
    /// The suite runs against a PostgreSQL cluster of its own (see `ThrowawayPostgreSQLCluster`).
    static var throwawayPostgreSQLCluster: Self { Self() }
}
#endif
