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

    /// Undo and redo work on PostgreSQL as on a file: the history keeps the values each
    /// command replaced (a deleted book's tags included), so the same commands leave the same
    /// catalogue and print the same history. Each store's added book (a new UUID) reads
    /// `NEW-BOOK`, and the history's time stamps are left out.
    @Test func undoAndRedoLeaveTheSameCatalogueAndHistoryOnSQLiteAndPostgreSQL() throws {
        let database = try PostgreSQLTestDatabase()
        let sandbox = try BooksSandbox()
        let book = "a9ef420f"
        let commands: [[String]] = [
            ["seed", "--count", "40", "--batch-size", "15"],
            ["edit", book, "--title", "Solaris II", "--price", "9.99", "--tag", "classic", "--tag", "sf", "--rating", "4"],
            ["delete", book, "--yes"],
            ["add", "--title", "Nowy", "--author", "Ktoś", "--date", "2020-01-02", "--price", "1"],
            ["undo"], ["undo"], ["undo"], ["redo"],
            ["list", "--json"], ["show", book], ["history"],
        ]
        var added: (file: String?, server: String?)
        for command in commands {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.runBare(["--store", database.url] + command)
            if command.first == "add" {
                added = (onFile.addedID, onServer.addedID)
            }
            func normalised(_ text: String, _ id: String?) -> String {
                var text = text
                if let id, !id.isEmpty { text = text.replacingOccurrences(of: id, with: "NEW-BOOK") }
                return command == ["history"] ? Self.withoutTimes(text) : text
            }
            #expect(onFile.status == 0, "\(command): \(onFile)")
            #expect(onServer.status == onFile.status, "\(command): \(onServer)")
            #expect(normalised(onServer.stdout, added.server) == normalised(onFile.stdout, added.file), "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
        }
        // The catalogue is the seed with the edit redone: the book is back, edited.
        let show = try sandbox.runBare(["--store", database.url, "show", book])
        #expect(show.stdout.contains("Solaris II"), "\(show)")
    }

    /// A listing that creates a catalogue records its seed as the first entry of its history,
    /// on a database as on a file (a database is always there, so a new one is told by its
    /// contents): `books history` names it and `books undo` takes it back.
    @Test func theFirstAutomaticSeedIsInTheHistoryOnPostgreSQLAsOnAFile() throws {
        let database = try PostgreSQLTestDatabase()
        let sandbox = try BooksSandbox()
        for command in [["list", "--limit", "2"], ["history"], ["undo"], ["list"]] {
            let onFile = try sandbox.run(command)
            let onServer = try sandbox.runBare(["--store", database.url] + command)
            #expect(onFile.status == 0, "\(command): \(onFile)")
            #expect(onServer.status == onFile.status, "\(command): \(onServer)")
            #expect(Self.withoutTimes(onServer.stdout) == Self.withoutTimes(onFile.stdout), "\(command)")
            #expect(onServer.stderr == onFile.stderr, "\(command)")
            if command == ["history"] { #expect(onServer.stdout.contains("books seed"), "\(onServer)") }
        }
    }

    /// History lines without their time stamps: "#2  2026-11-26T10:41:08Z  books edit: …"
    /// reads "#2  books edit: …".
    static func withoutTimes(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return String(line) }
            let rest = line[space...].drop { $0 == " " }
            return String(line[..<space]) + "  " + String(rest.drop { $0 != " " }.drop { $0 == " " })
        }.joined(separator: "\n")
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
