#if PostgreSQL
import Foundation
import PersistencePostgreSQLStore
import ProcessTestSupport
import Testing

/// `books` on a PostgreSQL database prints what it prints on an SQLite file, for the same
/// operations, and refuses what it cannot use in one line with the right exit status.
///
/// Runs against the server `PERSISTENCE_TEST_POSTGRES` names (`.ci/run` starts one), each
/// test in a database of its own.
@Suite(.enabled(if: PostgreSQLTestDatabase.server != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLEndToEndTests {
    @Test func theSameCommandsPrintTheSameOnSQLiteAndPostgreSQL() throws {
        let database = try PostgreSQLTestDatabase()
        let sandbox = try BooksSandbox()
        let commands: [[String]] = [
            ["list"], ["list", "--by-month"], ["search", "ring"], ["search", "the"], ["list", "--where", "price < 15"],
            ["list", "--where", "title CONTAINS[cd] 'the' AND author.name BEGINSWITH 'A'"], ["list", "--json"],
            ["list", "--limit", "3"], ["search", "x'); DROP TABLE \"Book\"; --"],
        ]
        for command in commands {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.runBare(["--store", database.url] + command)
            #expect(onServer.status == onFile.status, "\(command)")
            #expect(onServer.stdout == onFile.stdout, "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
        }
    }

    @Test func aPasswordInTheURLIsRefusedInOneLine() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["--store", "postgresql://reader:secret@localhost/books", "list"])
        #expect(run.status == 64)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("password"))
    }

    @Test func anUnreachableServerIsOneLineAndExitOne() throws {
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["--store", "postgresql:///books?host=/nonexistent-socket-dir", "list"])
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stdout.isEmpty)
    }

    @Test func aDatabaseOfOtherTablesIsRefusedWithSixtyFive() throws {
        let database = try PostgreSQLTestDatabase()
        let connection = try PGConnection(conninfo: database.url)
        try connection.execute("CREATE TABLE note (body text)")
        connection.close()
        let sandbox = try BooksSandbox()
        let run = try sandbox.runBare(["--store", database.url, "list"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}

/// A database of its own on the test server, dropped when the test lets it go.
final class PostgreSQLTestDatabase {
    static var server: String? {
        ProcessInfo.processInfo.environment["PERSISTENCE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    let name = "books_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    private let server: String
    /// The database's URL: the server's, with the database's name in place of its own.
    let url: String

    init() throws {
        server = try #require(Self.server)
        let parts = try #require(URLComponents(string: server))
        var components = parts
        components.path = "/" + name
        url = try #require(components.string)
        let admin = try PGConnection(conninfo: server)
        defer { admin.close() }
        try admin.execute("CREATE DATABASE \(pgIdentifier(name))")
    }

    deinit {
        guard let admin = try? PGConnection(conninfo: server) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS \(pgIdentifier(name)) WITH (FORCE)")
        admin.close()
    }
}
#endif
