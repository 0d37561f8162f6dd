#if PostgreSQL
import Foundation
import Persistence
import PersistenceModel
import PersistencePostgreSQLStore
import PersistenceStore
import Testing

/// What the PostgreSQL store does beyond the contract every store keeps: hostile values and
/// search text reach the server only as parameters, a foreign schema or model is refused
/// without a change, and uniqueness and optimistic locking hold across connections (for
/// dropped connections, see `PostgreSQLConnectionFailureTests`).
///
/// Runs against the server `PERSISTENCE_TEST_POSTGRES` names (`.ci/run` starts one).
@Suite(.enabled(if: PostgreSQLTestServer.conninfo != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLStoreTests {
    static func uniqueModel() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("isbn", .string)
                Attribute("title", .string)
                UniquenessConstraint("isbn")
            }
        }
    }

    @Test func hostileValuesAndSearchTextStayValues() throws {
        let server = try PostgreSQLTestServer()
        let hostile = "x'); DROP TABLE \"Book\"; -- \\ % _ $1 \u{0}"
        let (store, context) = try server.open(ConformanceModel.make())
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = hostile
        book["n"] = Int64(1)
        try context.save()
        let found = try context.fetch(
            FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == %@", hostile)))
        #expect(found.count == 1)
        for text in [hostile, "%", "_", "\\", "' OR 1=1 --", "\"Book\""] {
            var request = FetchRequest(entityName: "Book")
            request.searchText = text
            _ = try store.count(for: request)
        }
        var search = FetchRequest(entityName: "Book")
        search.searchText = "drop table"
        #expect(try store.count(for: search) == 1, "the text is found as text")
        #expect(try store.count(for: FetchRequest(entityName: "Book")) == 1, "the table is still there")
        try store.close()
    }

    /// A history recorded before the store kept previous values (no `"previousValues"`
    /// column) still reads, its changes without them, and gains the column at the next save,
    /// whose changes keep them.
    @Test func aHistoryWithoutPreviousValuesGainsThemAtTheNextSave() throws {
        let server = try PostgreSQLTestServer()
        do {
            let (store, context) = try server.open(Self.uniqueModel(), tracksHistory: true)
            let book = try context.insertObject(forEntityName: "Book")
            book["isbn"] = "1"
            book["title"] = "Dune"
            try context.save()
            try store.close()
        }
        // As a release before previous values made it.
        let admin = try PGConnection(conninfo: server.conninfo)
        try admin.execute("ALTER TABLE \(server.qualified("_historyChange")) DROP COLUMN \"previousValues\"")
        admin.close()

        let (store, context) = try server.open(Self.uniqueModel(), tracksHistory: true)
        let before = try store.history(after: .token(nil))
        #expect(before.count == 1 && before[0].changes.allSatisfy { $0.previousValues == nil })
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        book["title"] = "Dune Messiah"
        try context.save()
        let after = try store.history(after: .token(before.last?.token))
        #expect(after.first?.changes.first?.previousValues == ["title": .attribute(.string("Dune"))])
        context.delete(book)
        try context.save()
        let deleted = try store.history(after: .token(after.last?.token))
        #expect(
            deleted.first?.changes.first?.previousValues
                == ["isbn": .attribute(.string("1")), "title": .attribute(.string("Dune Messiah"))])
    }

    /// A new context reading the writer IDs of 1,000 fetched volumes sends a handful of
    /// statements: the fetch, and one a batch of siblings, each without BEGIN and COMMIT
    /// (one statement reads one snapshot); it was a transaction and a query a volume.
    @Test func readingTheToManyIDsOfAThousandFetchedObjectsIsAFewRoundTrips() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(BatchInsertLinkConformanceTests.model())
        let expected = try ToManyIDBatchStatementTests.stock(context)
        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator, classes: [:])
        // Every read of this thread inside uses the connection this read holds (a reader
        // of the pool), whose statements are counted.
        let (read, sent) = try context.persistentStoreCoordinator.read { connection in
            let reader = try #require(connection as? PostgreSQLStore)
            let before = reader.connection.statementsSent
            let read = try ToManyIDBatchStatementTests.readAll(fresh)
            return (read, reader.connection.statementsSent - before)
        }
        #expect(read.count == 1_000)
        for (volume, writers) in read { #expect(writers == expected[volume], "\(volume)") }
        #expect(sent < 10, "\(sent) statements")
        // One object's IDs alone: one statement, no transaction around it.
        let alone = try store.destinationIDs(
            of: try #require(fresh.model.schema(for: "Volume")?.relationship(named: "writers")), from: read[0].0)
        let single = store.connection.statementsSent
        _ = try store.destinationIDs(
            of: try #require(fresh.model.schema(for: "Volume")?.relationship(named: "writers")), from: read[0].0)
        #expect(store.connection.statementsSent - single == 1)
        #expect(alone == read[0].1)
    }

    /// Books made in turn with their new authors (a book, its author, the next book) and
    /// linked through an ordered many-to-many: the save writes rows and links many per
    /// statement, not a round trip a row or a link (it was 3 statements a row and 2 a link),
    /// and every link reads back in order from both sides; a second save appending to
    /// stored lists (faults) and reordering one keeps each list as the objects had it.
    @Test func aSaveOfManyLinkedObjectsIsAFewRoundTrips() throws {
        let server = try PostgreSQLTestServer()
        let (store, context) = try server.open(BatchInsertLinkConformanceTests.model())
        var writers: [ManagedObject] = []
        var expected: [String: [String]] = [:]
        for index in 0..<300 {
            let volume = try context.insertObject(forEntityName: "Volume")
            volume["code"] = "v\(index)"
            if index % 3 == 0 {
                let writer = try context.insertObject(forEntityName: "Writer")
                writer["name"] = "w\(writers.count)"
                writers.append(writer)
            }
            let first = writers[writers.count - 1], second = writers[(index * 7) % writers.count]
            volume.addObject(first, forKey: "writers")
            if second !== first { volume.addObject(second, forKey: "writers") }
            expected["v\(index)"] = volume.objects(forKey: "writers").map { $0["name"] as? String ?? "?" }
        }
        let before = store.connection.statementsSent
        try context.save()
        let sent = store.connection.statementsSent - before
        #expect(sent < 40, "\(sent) statements for 400 rows and about 600 links")

        func stored() throws -> (byVolume: [String: [String]], links: Int) {
            let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator, classes: [:])
            var byVolume: [String: [String]] = [:]
            for volume in try fresh.fetch(FetchRequest(entityName: "Volume")) {
                byVolume[volume["code"] as? String ?? "?"] = volume.objects(forKey: "writers").map { $0["name"] as? String ?? "?" }
            }
            let links = try fresh.fetch(FetchRequest(entityName: "Writer")).reduce(0) { $0 + $1.objects(forKey: "volumes").count }
            return (byVolume, links)
        }
        var read = try stored()
        #expect(read.byVolume == expected)
        #expect(read.links == expected.values.reduce(0) { $0 + $1.count })

        // Appends to lists the context holds as faults, and one list reordered.
        let fresh = ManagedObjectContext(coordinator: context.persistentStoreCoordinator, classes: [:])
        let newcomer = try fresh.insertObject(forEntityName: "Writer")
        newcomer["name"] = "new"
        for volume in try fresh.fetch(FetchRequest(entityName: "Volume", predicate: try FetchPredicate("code BEGINSWITH 'v1'"))) {
            let code = volume["code"] as? String ?? "?"
            if code == "v10" {
                let reversed = Array(volume.objects(forKey: "writers").reversed())
                for writer in reversed { volume.removeObject(writer, forKey: "writers") }
                for writer in reversed + [newcomer] { volume.addObject(writer, forKey: "writers") }
                expected[code] = expected[code, default: []].reversed() + ["new"]
            } else {
                volume.addObject(newcomer, forKey: "writers")
                expected[code, default: []].append("new")
            }
        }
        try fresh.save()
        read = try stored()
        #expect(read.byVolume == expected)
        #expect(read.links == expected.values.reduce(0) { $0 + $1.count })
    }

    @Test func aSchemaOfOtherTablesIsRefusedAndLeftAsItWas() throws {
        let server = try PostgreSQLTestServer()
        let admin = try PGConnection(conninfo: server.conninfo)
        defer { admin.close() }
        try admin.execute("CREATE SCHEMA \(pgIdentifier(server.schema))")
        try admin.execute("CREATE TABLE \(pgIdentifier(server.schema)).note (body text)")
        #expect(throws: PostgreSQLStoreError.self) { _ = try server.open(ConformanceModel.make()) }
        let tables = try admin.query("SELECT tablename FROM pg_tables WHERE schemaname = $1", [.text(server.schema)])
        #expect(tables.map { $0[0] } == ["note"])
    }

    @Test func aStoreOfAnotherModelIsRefused() throws {
        let server = try PostgreSQLTestServer()
        let (store, _) = try server.open(ConformanceModel.make())
        try store.close()
        let error = try #require(throws: PostgreSQLStoreError.self) { _ = try server.open(Self.uniqueModel()) }
        #expect(error.failureKind == .incompatibleModel)
    }

    @Test func uniquenessHoldsAndObjectTrumpUpserts() throws {
        let server = try PostgreSQLTestServer()
        let (_, first) = try server.open(Self.uniqueModel())
        let book = try first.insertObject(forEntityName: "Book")
        book["isbn"] = "1"
        book["title"] = "first"
        try first.save()

        let (_, second) = try server.open(Self.uniqueModel())
        let duplicate = try second.insertObject(forEntityName: "Book")
        duplicate["isbn"] = "1"
        duplicate["title"] = "second"
        #expect(throws: ConstraintConflictError.self) { try second.save() }
        second.mergePolicy = .mergeByPropertyObjectTrump
        try second.save()
        let (_, reader) = try server.open(Self.uniqueModel())
        let rows = try reader.fetch(FetchRequest(entityName: "Book"))
        #expect(rows.map { $0["title"] as? String } == ["second"])
    }

    @Test func aConcurrentEditIsAConflictNotALostUpdate() throws {
        let server = try PostgreSQLTestServer()
        let (_, first) = try server.open(Self.uniqueModel())
        let book = try first.insertObject(forEntityName: "Book")
        book["isbn"] = "1"
        book["title"] = "first"
        try first.save()
        let (_, second) = try server.open(Self.uniqueModel())
        let theirs = try #require(try second.fetch(FetchRequest(entityName: "Book")).first)
        book["title"] = "mine"
        try first.save()
        theirs["title"] = "theirs"
        #expect(throws: MergeConflictError.self) { try second.save() }
        let (_, reader) = try server.open(Self.uniqueModel())
        #expect(try reader.fetch(FetchRequest(entityName: "Book")).first?["title"] as? String == "mine")
    }

    @Test func anotherProcessSaveIsMergedByContextsThatMergeAutomatically() throws {
        let server = try PostgreSQLTestServer()
        let (_, writer) = try server.open(Self.uniqueModel())
        let book = try writer.insertObject(forEntityName: "Book")
        book["isbn"] = "1"
        book["title"] = "before"
        try writer.save()
        let (store, _) = try server.open(Self.uniqueModel())
        let coordinator = PersistentStoreCoordinator(store: store)
        let reader = ManagedObjectContext(coordinator: coordinator, classes: [:], concurrencyType: .privateQueue)
        let read = try reader.performAndWait {
            reader.automaticallyMergesChangesFromParent = true
            return try #require(try reader.fetch(FetchRequest(entityName: "Book")).first)
        }
        #expect(reader.performAndWait { read["title"] as? String } == "before")
        book["title"] = "after"
        try writer.save()
        var title: String?
        for _ in 0..<50 where title != "after" {
            Thread.sleep(forTimeInterval: 0.1)
            title = reader.performAndWait { read["title"] as? String }
        }
        #expect(title == "after", "the other coordinator's save reached this context without a fetch")
        try coordinator.close()
    }

    /// Eight clients, each on a connection and coordinator of its own as a process would
    /// be, make 200 increments of three shared counters: every save either commits or
    /// reports a conflict (and is made again on fresh values), and none is lost.
    @Test func concurrentWritersLoseNoUpdateAndReportEveryConflict() throws {
        let server = try PostgreSQLTestServer()
        let model = { ManagedObjectModel { Entity("Counter") { Attribute("n", .integer64); Attribute("count", .integer64) } } }
        let (_, seed) = try server.open(model())
        for n in 0..<3 {
            let counter = try seed.insertObject(forEntityName: "Counter")
            counter["n"] = Int64(n)
            counter["count"] = Int64(0)
        }
        try seed.save()
        let clients = try (0..<8).map { _ in
            let (store, _) = try server.open(model())
            return ManagedObjectContext(
                coordinator: PersistentStoreCoordinator(store: store), classes: [:], concurrencyType: .privateQueue)
        }
        let editsPerClient = 25
        let conflicts = ConflictCount()
        let failures = ConflictCount()
        DispatchQueue.concurrentPerform(iterations: clients.count) { client in
            let context = clients[client]
            for edit in 0..<editsPerClient {
                while true {
                    let saved: Bool = context.performAndWait {
                        do {
                            context.reset()
                            let request = FetchRequest(
                                entityName: "Counter", predicate: try FetchPredicate("n == %@", Int64((client + edit) % 3)))
                            guard let counter = try context.fetch(request).first else { return false }
                            counter["count"] = ((counter["count"] as? Int64) ?? 0) + 1
                            try context.save()
                            return true
                        } catch is MergeConflictError {
                            conflicts.add()
                            return false
                        } catch {
                            failures.add()
                            return true
                        }
                    }
                    if saved { break }
                }
            }
        }
        let (_, reader) = try server.open(model())
        let total = try reader.fetch(FetchRequest(entityName: "Counter")).compactMap { $0["count"] as? Int64 }.reduce(0, +)
        #expect(failures.value == 0, "a save failed other than by a conflict")
        #expect(total == Int64(clients.count * editsPerClient), "no increment was lost (\(conflicts.value) conflicts reported)")
        for context in clients { try context.persistentStoreCoordinator.close() }
    }

    @Test func aStatementPastTheTimeoutIsCancelled() throws {
        let server = try PostgreSQLTestServer()
        let connection = try PGConnection(conninfo: server.conninfo, statementTimeout: 50)
        defer { connection.close() }
        let error = try #require(throws: PostgreSQLError.self) { try connection.execute("SELECT pg_sleep(2)") }
        #expect(error.sqlState == "57014")
        #expect(try connection.scalar("SELECT 1") == "1", "the connection stays usable")
    }

    @Test func anUnreachableServerIsOneLineAndCreatesNothing() throws {
        let error = try #require(throws: PostgreSQLError.self) {
            _ = try PostgreSQLStore(model: Self.uniqueModel(), conninfo: "postgresql:///postgres?host=/nonexistent-socket-dir")
        }
        #expect(error.isConnectionLost)
        #expect(!error.description.contains("\n"))
    }
}

/// A count shared by the writers of a test.
final class ConflictCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

/// The server the PostgreSQL tests run against, and a schema of their own on it, dropped
/// when the test lets it go.
final class PostgreSQLTestServer {
    static var conninfo: String? {
        ProcessInfo.processInfo.environment["PERSISTENCE_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    let conninfo: String
    let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    private var stores: [PostgreSQLStore] = []

    init() throws {
        conninfo = try #require(Self.conninfo)
    }

    /// A schema of its own on the server `conninfo` names.
    init(conninfo: String) {
        self.conninfo = conninfo
    }

    deinit {
        for store in stores { try? store.close() }
        if let admin = try? PGConnection(conninfo: conninfo) {
            try? admin.execute("DROP SCHEMA IF EXISTS \(pgIdentifier(schema)) CASCADE")
            admin.close()
        }
    }

    /// A store in this test's schema, with a context on a coordinator of its own (another
    /// process, as far as the store can tell).
    ///
    /// - Parameters:
    ///   - applicationName: The sessions' `application_name`, to find them in `pg_stat_activity`.
    ///   - statementTimeout: Milliseconds after which the server cancels a statement.
    func open(
        _ model: ManagedObjectModel, tracksHistory: Bool = false, applicationName: String? = nil,
        statementTimeout: Int? = nil, concurrencyType: ManagedObjectContext.ConcurrencyType = .mainQueue
    ) throws -> (PostgreSQLStore, ManagedObjectContext) {
        var options = PostgreSQLStore.Options()
        options.schema = schema
        options.tracksHistory = tracksHistory
        if let statementTimeout { options.statementTimeout = statementTimeout }
        var conninfo = conninfo
        if let applicationName {
            conninfo += (conninfo.contains("?") ? "&" : "?") + "application_name=" + applicationName
        }
        let store = try PostgreSQLStore(model: model, conninfo: conninfo, options: options)
        stores.append(store)
        let coordinator = PersistentStoreCoordinator(store: store)
        return (store, ManagedObjectContext(coordinator: coordinator, classes: [:], concurrencyType: concurrencyType))
    }

    /// `table` in this test's schema, quoted for SQL.
    func qualified(_ table: String) -> String { pgIdentifier(schema) + "." + pgIdentifier(table) }
}
#endif
