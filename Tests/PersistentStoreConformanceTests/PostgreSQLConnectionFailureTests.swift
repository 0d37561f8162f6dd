#if PostgreSQL
import Foundation
import Persistence
import PersistenceModel
import PersistencePostgreSQLStore
import PersistenceStore
import Testing

/// What the PostgreSQL store does when the server ends a session (an operator's
/// `pg_terminate_backend`, a restart) or cancels a statement: a read connects again and
/// runs once more, even one cut off mid-statement; a save that finds its connection dropped
/// before sending anything connects first; a save the server cancels fails as a whole,
/// keeps the context's changes, and is never made again behind the user's back.
///
/// Runs against the shared server `PERSISTENCE_TEST_POSTGRES` names, ending only its own
/// sessions (found by an `application_name` of their own); restarts are
/// `PostgreSQLServerRestartTests`'.
@Suite(.enabled(if: PostgreSQLTestServer.conninfo != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLConnectionFailureTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("count", .integer64)
            }
        }
    }

    /// The books' titles and counts as stored (-1 for none), read on a connection of its own.
    static func stored(_ server: PostgreSQLTestServer) throws -> [String: Int64] {
        let reader = try PGConnection(conninfo: server.conninfo)
        defer { reader.close() }
        var books: [String: Int64] = [:]
        for row in try reader.query("SELECT title, count FROM \(server.qualified("Book"))") {
            if let title = row[0] { books[title] = row[1].flatMap { Int64($0) } ?? -1 }
        }
        return books
    }

    @Test func theStoreNamesItsSessionsPersistenceUnlessTheURLNamesThem() throws {
        let server = try PostgreSQLTestServer()
        let (store, _) = try server.open(Self.model())
        #expect(try store.connection.scalar("SHOW application_name") == PGConnection.applicationName)
        let (named, _) = try server.open(Self.model(), applicationName: "catalogue_clerk")
        #expect(try named.connection.scalar("SHOW application_name") == "catalogue_clerk")
    }

    /// The server ends every session of the store while they are idle: the next read and
    /// the next save each find that out before sending anything, connect again, and work.
    @Test func sessionsEndedWhileIdleAreOpenedAgainByTheNextReadAndSave() throws {
        let server = try PostgreSQLTestServer()
        let sessions = try PostgreSQLSessions(conninfo: server.conninfo, applicationName: PostgreSQLSessions.uniqueName())
        let (_, context) = try server.open(Self.model(), applicationName: sessions.applicationName)
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["count"] = Int64(0)
        try context.save()
        #expect(try context.fetch(FetchRequest(entityName: "Book")).count == 1, "a reader is in the pool")

        let ended = try sessions.terminate()
        #expect(ended.count >= 2, "the writer and a reader")

        #expect(try context.fetch(FetchRequest(entityName: "Book")).count == 1)
        book["count"] = Int64(1)
        try context.save()
        #expect(try Self.stored(server) == ["Dune": 1])
        #expect(try sessions.pids().isDisjoint(with: ended), "new sessions")
    }

    /// A read cut off mid-statement (its session ended while it waits for a table another
    /// session locked) connects again and runs once more: it changes nothing, so that is no
    /// retry the caller could tell from a first try; it answers once the lock is let go.
    @Test func aReadCutOffMidStatementConnectsAgainAndAnswers() throws {
        let server = try PostgreSQLTestServer()
        let sessions = try PostgreSQLSessions(conninfo: server.conninfo, applicationName: PostgreSQLSessions.uniqueName())
        let (_, context) = try server.open(
            Self.model(), applicationName: sessions.applicationName, concurrencyType: .privateQueue)
        try context.performAndWait {
            for title in ["Dune", "Emma"] {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = title
            }
            try context.save()
        }
        let locker = try PGConnection(conninfo: server.conninfo)
        defer { locker.close() }
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE \(server.qualified("Book")) IN ACCESS EXCLUSIVE MODE")

        let fetch = BackgroundWork {
            try context.performAndWait {
                try context.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }.sorted()
            }
        }
        var first: Set<String> = []
        try PostgreSQLSessions.wait(until: "the read to wait for the lock") {
            first = try sessions.waitingForALock()
            return !first.isEmpty
        }
        try sessions.terminate(first)
        try PostgreSQLSessions.wait(until: "the read to run again on a new session") {
            let waiting = try sessions.waitingForALock()
            return !waiting.isEmpty && waiting.isDisjoint(with: first)
        }
        #expect(!fetch.isFinished)
        try locker.execute("ROLLBACK")
        let outcome = try #require(fetch.outcome(), "the read answered")
        #expect(try outcome.get() == ["Dune", "Emma"])
    }

    /// A save the server cancels (its statement waited for a row lock past the statement
    /// timeout) fails with one line of kind `busy`, writes nothing, and keeps the context's
    /// changes: saved again once the lock is gone, they are written once.
    @Test func aSavePastTheStatementTimeoutFailsWholeAndCanBeSavedAgain() throws {
        let server = try PostgreSQLTestServer()
        let (_, context) = try server.open(Self.model(), statementTimeout: 1_000)
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["count"] = Int64(0)
        try context.save()
        let locker = try PGConnection(conninfo: server.conninfo)
        defer { locker.close() }
        try locker.execute("BEGIN")
        try locker.execute("SELECT 1 FROM \(server.qualified("Book")) FOR UPDATE")

        book["count"] = Int64(1)
        let added = try context.insertObject(forEntityName: "Book")
        added["title"] = "Emma"
        added["count"] = Int64(0)
        let error = try #require(throws: (any Error).self) { try context.save() }
        let failure = try #require(error as? any PersistentStoreFailure, "\(error)")
        #expect(failure.failureKind == .busy)
        #expect(!String(describing: error).contains("\n"))
        #expect(String(describing: error).contains("statement timeout"), "\(error)")
        try locker.execute("ROLLBACK")
        #expect(try Self.stored(server) == ["Dune": 0], "nothing of the save was written")

        #expect(context.hasChanges)
        try context.save()
        #expect(try Self.stored(server) == ["Dune": 1, "Emma": 0])
    }
}
#endif
