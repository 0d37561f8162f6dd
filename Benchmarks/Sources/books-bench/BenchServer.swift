import Foundation
import Persistence

/// The PostgreSQL server the postgresql and writers workloads run on, named by a libpq URL
/// (`postgresql:///postgres?host=/tmp/pg&user=postgres`), and the databases they make on it:
/// each round's store is a new database, as each SQLite round's is a new file.
///
/// Databases are made and dropped by `psql`, the server's own client: the store never
/// creates a database, and the benchmarks write no SQL of their own.
struct BenchServer {
    let url: String
    private let components: URLComponents

    /// The server at `url`, when this build can open PostgreSQL stores.
    ///
    /// - Throws: `ChildProcessError` for a build without the `PostgreSQL` trait or a URL
    ///   that is not a PostgreSQL URL.
    init(url: String) throws {
        guard ServerStoreURL.isSupported else {
            throw ChildProcessError(description: "this books-bench was built without PostgreSQL: build it with --traits PostgreSQL")
        }
        guard ServerStoreURL.isServer(url), let components = URLComponents(string: url) else {
            throw ChildProcessError(description: "\(url) is not a postgresql:// URL")
        }
        self.url = url
        self.components = components
    }

    /// The URL of the database `name` on this server.
    func databaseURL(_ name: String) throws -> URL {
        var components = components
        components.path = "/" + name
        guard let url = components.url else { throw ChildProcessError(description: "no URL for the database \(name)") }
        return url
    }

    /// Drops the database `name` if it exists (closing any connection left to it) and
    /// makes it again, empty.
    func recreate(_ name: String) throws {
        try psql("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)", "CREATE DATABASE \"\(name)\"")
    }

    /// Drops the database `name` if it exists.
    func drop(_ name: String) throws {
        try psql("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)")
    }

    /// Runs each statement with `psql` on the server's own database, each in its own
    /// transaction (as `CREATE DATABASE` requires).
    private func psql(_ statements: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1", "--dbname", url]
            + statements.flatMap { ["--command", $0] }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ChildProcessError(description: "psql \(statements.joined(separator: "; ")) exited with status \(process.terminationStatus)")
        }
    }

    /// The server's version, as `SHOW server_version` answers, for the results.
    func version() -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "--no-psqlrc", "--tuples-only", "--no-align", "--dbname", url, "--command", "SHOW server_version"]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "?" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
