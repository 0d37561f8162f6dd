#if PostgreSQL
import Foundation
import Persistence
import PersistenceModel
import PersistencePostgreSQLStore
import PersistenceStore
import Testing

/// The PostgreSQL store across a server restart and a server down for a while: the save
/// that was running fails with one line of kind `unavailable` and writes nothing, the
/// context keeps its changes, the next save connects again and writes them once; nothing
/// is retried behind the user's back.
///
/// On a cluster of the suite's own (see `ThrowawayPostgreSQLCluster`), one test at a time,
/// so that no other suite's server is restarted under it.
@Suite(
    .serialized, .enabled(if: PostgreSQLTestServer.conninfo != nil, "PERSISTENCE_TEST_POSTGRES names no server"),
    .throwawayPostgreSQLCluster)
struct PostgreSQLServerRestartTests {
    /// A catalogue of one book, "Dune", counted 0, saved by a context on a queue of its own.
    static func catalogue(
        _ cluster: ThrowawayPostgreSQLCluster
    ) throws -> (PostgreSQLTestServer, PostgreSQLSessions, ManagedObjectContext, ManagedObject) {
        let server = PostgreSQLTestServer(conninfo: cluster.conninfo)
        let sessions = try PostgreSQLSessions(conninfo: cluster.conninfo, applicationName: PostgreSQLSessions.uniqueName())
        let (_, context) = try server.open(
            PostgreSQLConnectionFailureTests.model(), applicationName: sessions.applicationName,
            concurrencyType: .privateQueue)
        let book = try context.performAndWait {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = "Dune"
            book["count"] = Int64(0)
            try context.save()
            _ = try context.fetch(FetchRequest(entityName: "Book"))  // a reader in the pool
            return book
        }
        return (server, sessions, context, book)
    }

    /// Checks that `error` is one line saying the server is unavailable.
    static func expectUnavailable(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
        let failure = error as? any PersistentStoreFailure
        #expect(failure?.failureKind == .unavailable, "\(error)", sourceLocation: sourceLocation)
        #expect(!String(describing: error).contains("\n"), "\(error)", sourceLocation: sourceLocation)
    }

    /// A save waiting for a row lock when the server restarts: it fails, nothing of it is
    /// written (the new book neither), and saved again after the restart it is written once
    /// (the count is 1, not 2).
    @Test func aRestartMidSaveFailsThatSaveWholeAndTheNextSaveWritesItOnce() throws {
        let cluster = try #require(ThrowawayPostgreSQLCluster.current)
        let (server, sessions, context, book) = try Self.catalogue(cluster)
        let locker = try PGConnection(conninfo: cluster.conninfo)
        defer { locker.close() }
        try locker.execute("BEGIN")
        try locker.execute("SELECT 1 FROM \(server.qualified("Book")) FOR UPDATE")
        let holder = try #require(try locker.scalar("SELECT pg_backend_pid()"))

        try context.performAndWait {
            book["count"] = Int64(1)
            let added = try context.insertObject(forEntityName: "Book")
            added["title"] = "Emma"
            added["count"] = Int64(0)
        }
        let save = BackgroundWork { try context.performAndWait { try context.save() } }
        // The save's own statement waiting for the locker's rows, not any other wait of its
        // sessions: a restart before the save has started would let it reconnect and succeed.
        try PostgreSQLSessions.wait(until: "the save to wait for the row lock") {
            try !sessions.waitingForRowLocks(heldBy: holder).isEmpty
        }
        try cluster.restart()

        let outcome = try #require(save.outcome(), "the save returned")
        let error = try #require(throws: (any Error).self) { try outcome.get() }
        Self.expectUnavailable(error)
        #expect(try PostgreSQLConnectionFailureTests.stored(server) == ["Dune": 0], "nothing of the save was written")
        #expect(context.performAndWait { context.hasChanges }, "the changes are still the context's")

        try context.performAndWait { try context.save() }
        #expect(try PostgreSQLConnectionFailureTests.stored(server) == ["Dune": 1, "Emma": 0], "written once")
        let titles = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Book")).compactMap { $0["title"] as? String }.sorted()
        }
        #expect(titles == ["Dune", "Emma"])
    }

    /// The one case whose outcome is unknown: the connection lost while the server commits
    /// (here, held at its commit waiting for a synchronous standby that never answers, then
    /// ended). The save fails saying so; it was in fact written, and saving the same
    /// changes again is refused as a conflict (their row versions moved on), not written
    /// twice.
    @Test func aConnectionLostDuringTheCommitSaysTheOutcomeIsUnknown() throws {
        let cluster = try #require(ThrowawayPostgreSQLCluster.current)
        let (server, sessions, context, book) = try Self.catalogue(cluster)
        let admin = try PGConnection(conninfo: cluster.conninfo)
        defer { admin.close() }
        try admin.execute("ALTER SYSTEM SET synchronous_standby_names = 'no_such_standby'")
        try admin.execute("SELECT pg_reload_conf()")
        defer {
            try? admin.execute("ALTER SYSTEM RESET synchronous_standby_names")
            try? admin.execute("SELECT pg_reload_conf()")
        }
        try PostgreSQLSessions.wait(until: "the setting to apply") {
            try admin.scalar("SHOW synchronous_standby_names") == "no_such_standby"
        }

        context.performAndWait { book["count"] = Int64(1) }
        let save = BackgroundWork { try context.performAndWait { try context.save() } }
        var committing: Set<String> = []
        try PostgreSQLSessions.wait(until: "the commit to wait for the standby") {
            committing = try sessions.waiting(for: "SyncRep")
            return !committing.isEmpty
        }
        try sessions.terminate(committing)

        let outcome = try #require(save.outcome(), "the save returned")
        let error = try #require(throws: (any Error).self) { try outcome.get() }
        Self.expectUnavailable(error)
        #expect(String(describing: error).contains("unknown"), "\(error)")
        #expect(try PostgreSQLConnectionFailureTests.stored(server) == ["Dune": 1], "the server had committed")
        let again = context.performAndWait { Result { try context.save() } }
        #expect(throws: MergeConflictError.self) { try again.get() }
        #expect(try PostgreSQLConnectionFailureTests.stored(server) == ["Dune": 1])
    }

    /// With the server down, a save and a read each fail at once with one line; nothing is
    /// written; once the server is back, the same context saves and reads.
    @Test func whileTheServerIsDownSavesAndReadsFailAndOnceBackTheyWork() throws {
        let cluster = try #require(ThrowawayPostgreSQLCluster.current)
        let (server, _, context, book) = try Self.catalogue(cluster)
        try cluster.halt()
        var resumed = false
        defer { if !resumed { try? cluster.resume() } }

        try context.performAndWait {
            book["count"] = Int64(1)
            let saveError = try #require(throws: (any Error).self) { try context.save() }
            Self.expectUnavailable(saveError)
            #expect(context.hasChanges)
            let readError = try #require(throws: (any Error).self) { try context.count(for: FetchRequest(entityName: "Book")) }
            Self.expectUnavailable(readError)
        }

        try cluster.resume()
        resumed = true
        #expect(try PostgreSQLConnectionFailureTests.stored(server) == ["Dune": 0])
        try context.performAndWait {
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Book")) == 1)
        }
        #expect(try PostgreSQLConnectionFailureTests.stored(server) == ["Dune": 1])
    }
}
#endif
