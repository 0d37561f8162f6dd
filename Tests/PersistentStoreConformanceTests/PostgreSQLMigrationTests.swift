#if PostgreSQL
import Foundation
import Persistence
import PersistenceModel
import PersistencePostgreSQLStore
import PersistenceStore
import Testing

/// Lightweight migration on the PostgreSQL store: a store filled under one model version is
/// opened with the next, and migrates in the transaction that opens it; a change that
/// cannot be inferred, or that the data refuses, leaves every table, column, index and row
/// as it was; two processes opening an old store at once see it migrated once.
///
/// Runs against the server `PERSISTENCE_TEST_POSTGRES` names (`.ci/run` starts one).
@Suite(.enabled(if: PostgreSQLTestServer.conninfo != nil, "PERSISTENCE_TEST_POSTGRES names no server"))
struct PostgreSQLMigrationTests {
    // MARK: - Attributes

    @Test func addedRemovedRenamedAndDerivedAttributesMigrateWithTheirValues() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string, optional: false)
                Attribute("pages", .integer32)
                Attribute("notes", .string)
                Attribute("price", .decimal)
                UniquenessConstraint("title")
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("heading", .string, optional: false, renamingIdentifier: "title")
                Attribute("pages", .integer64)
                Attribute("price", .decimal, optional: false, default: "0")
                Attribute("subtitle", .string)
                Attribute("rating", .integer16, optional: false, default: "3")
                Attribute("canonicalHeading", .string, derived: "canonical:(heading)", indexedBySpotlight: true)
                UniquenessConstraint("heading")
            }
        }
        let server = try PostgreSQLTestServer()
        try fill(server, v1, [
            ["title": "Cien años de soledad", "pages": Int32(417), "notes": "n", "price": Decimal(string: "19.99")],
            ["title": "Aura", "pages": nil, "notes": nil, "price": nil],
        ])
        let (store, context) = try open(server, v2, migratingFrom: [v1])
        defer { try? store.close() }
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("heading")]))
        #expect(books.map { $0["heading"] as? String } == ["Aura", "Cien años de soledad"])
        #expect(books[1].value(forKey: "pages", as: Int64.self) == 417)
        #expect(books[1].value(forKey: "price", as: Decimal.self) == Decimal(string: "19.99"))
        #expect(books[0].value(forKey: "price", as: Decimal.self) == 0, "a nil made required gets the default")
        #expect(books.allSatisfy { $0["subtitle"] == nil })
        #expect(books.map { $0.value(forKey: "rating", as: Int16.self) } == [3, 3])
        #expect(books.map { $0["canonicalHeading"] as? String } == ["aura", "cien anos de soledad"])
        #expect(try columns(server, "Book") == ["_id", "_opt", "heading", "pages", "price", "subtitle", "rating", "canonicalHeading"]
            .sorted())
        // The search finds the derived column, and the uniqueness constraint followed the rename.
        var search = FetchRequest(entityName: "Book")
        search.searchText = "anos"
        #expect(try store.count(for: search) == 1)
        let duplicate = try context.insertObject(forEntityName: "Book")
        duplicate["heading"] = "Aura"
        #expect(throws: (any Error).self) { try context.save() }
        // The store records v2 now: opening it with v2 alone works, with v1 is refused.
        try open(server, v2.copy()).0.close()
        #expect(throws: PostgreSQLStoreError.self) { try open(server, v1.copy()).0.close() }
    }

    // MARK: - Entities and relationships

    @Test func renamedAddedAndRemovedEntitiesKeepObjectsAndLinks() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("shelves", to: "Shelf", inverse: "books", toMany: true)
            }
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("books", to: "Book", inverse: "shelves", toMany: true)
            }
            Entity("Loan") { Attribute("borrower", .string) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Writer", renamingIdentifier: "Author") {
                Attribute("name", .string)
                Relationship("works", to: "Book", inverse: "writer", toMany: true, renamingIdentifier: "books")
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("writer", to: "Writer", inverse: "works", renamingIdentifier: "author")
                Relationship("shelves", to: "Shelf", inverse: "books", toMany: true)
            }
            Entity("Shelf") {
                Attribute("label", .string)
                Relationship("books", to: "Book", inverse: "shelves", toMany: true)
            }
            Entity("Tag") { Attribute("name", .string) }
        }
        let server = try PostgreSQLTestServer()
        do {
            let (store, context) = try server.open(v1)
            let author = try context.insertObject(forEntityName: "Author")
            author["name"] = "Borges"
            let shelf = try context.insertObject(forEntityName: "Shelf")
            shelf["label"] = "Fiction"
            for title in ["Ficciones", "El Aleph"] {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = title
                book["author"] = author
                book.addObject(shelf, forKey: "shelves")
            }
            let loan = try context.insertObject(forEntityName: "Loan")
            loan["borrower"] = "Ana"
            try context.save()
            try store.close()
        }
        let (store, context) = try open(server, v2, migratingFrom: [v1])
        defer { try? store.close() }
        let writers = try context.fetch(FetchRequest(entityName: "Writer"))
        #expect(writers.map { $0["name"] as? String } == ["Borges"])
        let works = writers.first?.objects(forKey: "works").compactMap { $0["title"] as? String }.sorted()
        #expect(works == ["El Aleph", "Ficciones"])
        let shelves = try context.fetch(FetchRequest(entityName: "Shelf"))
        #expect(shelves.first?.objects(forKey: "books").count == 2, "the join table was kept")
        #expect(try context.count(for: FetchRequest(entityName: "Tag")) == 0)
        let tables = try server.admin { try $0.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT LIKE '\\_%' ORDER BY 1",
            [.text(server.schema)]) }.map { $0[0] ?? "" }.sorted()
        #expect(tables == ["Book", "Book_shelves", "Shelf", "Tag", "Writer"], "Loan is gone, Author is Writer")
        #expect(try server.admin { try $0.scalar("SELECT count(*) FROM \(pgIdentifier(server.schema))._primarykey WHERE \"tableName\" = 'Author'") } == "0")
        // New objects of a renamed entity get keys after the old ones.
        let writer = try context.insertObject(forEntityName: "Writer")
        writer["name"] = "Cortázar"
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Writer")) == 2)
    }

    @Test func subEntitiesKeepTheirRowsThroughARenameAndANewSibling() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("SportCar", parent: "Car") { Attribute("topSpeed", .integer32) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("RaceCar", parent: "Car", renamingIdentifier: "SportCar") {
                Attribute("topSpeed", .integer32)
                Attribute("team", .string, default: "none")
            }
            Entity("Van", parent: "Car") { Attribute("seats", .integer16, default: "9") }
        }
        let server = try PostgreSQLTestServer()
        do {
            let (store, context) = try server.open(v1)
            try context.insertObject(forEntityName: "Car")["plate"] = "C1"
            let sport = try context.insertObject(forEntityName: "SportCar")
            sport["plate"] = "S1"
            sport["topSpeed"] = Int32(300)
            try context.save()
            try store.close()
        }
        let (store, context) = try open(server, v2, migratingFrom: [v1])
        defer { try? store.close() }
        let cars = try context.fetch(FetchRequest(entityName: "Car", sortDescriptors: [SortKey("plate")]))
        #expect(cars.map(\.entity.name) == ["Car", "RaceCar"])
        #expect(cars[1].value(forKey: "topSpeed", as: Int32.self) == 300)
        #expect(cars[1]["team"] as? String == "none")
        let plain = try server.admin { try $0.query("SELECT team, seats FROM \(pgIdentifier(server.schema)).\"Car\" WHERE plate = 'C1'") }
        #expect(plain == [[nil, nil]], "only the sub-entity's objects get its defaults")
    }

    @Test func aFirstSubEntityGivesItsRootTableAnEntityColumn() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Car") { Attribute("plate", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("Van", parent: "Car") { Attribute("seats", .integer16) }
        }
        let server = try PostgreSQLTestServer()
        do {
            let (store, context) = try server.open(v1)
            try context.insertObject(forEntityName: "Car")["plate"] = "C1"
            try context.save()
            try store.close()
        }
        let (store, context) = try open(server, v2, migratingFrom: [v1])
        defer { try? store.close() }
        let van = try context.insertObject(forEntityName: "Van")
        van["plate"] = "V1"
        van["seats"] = Int16(9)
        try context.save()
        let cars = try context.fetch(FetchRequest(entityName: "Car", sortDescriptors: [SortKey("plate")]))
        #expect(cars.map(\.entity.name) == ["Car", "Van"])
        #expect(try context.count(for: FetchRequest(entityName: "Van")) == 1)
        #expect(try columns(server, "Car") == ["_entity", "_id", "_opt", "plate", "seats"])
    }

    // MARK: - Refusals and rollback

    @Test func aChangeThatCannotBeInferredIsRefusedAndTheStoreIsLeftAsItWas() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("pages", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("pages", .integer64) } }
        let server = try PostgreSQLTestServer()
        try fill(server, v1, [["pages": "twelve"], ["pages": "174"]])
        let before = try snapshot(server)
        let error = try #require(throws: PostgreSQLStoreError.self) { try open(server, v2, migratingFrom: [v1]).0.close() }
        #expect(error.failureKind == .incompatibleModel)
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains("(Book.pages): its type changes from String to Integer 64"))
        #expect(error.description.hasSuffix("nothing was changed"))
        #expect(try snapshot(server) == before)
    }

    @Test func aMigrationTheDataRefusesRollsBackEverything() throws {
        // Several steps run before the check of required values fails: a removed column, a
        // renamed one, a new table; all of them roll back.
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("isbn", .string)
                Attribute("notes", .string)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("heading", .string, renamingIdentifier: "title")
                Attribute("isbn", .string, optional: false)
            }
            Entity("Tag") { Attribute("name", .string) }
        }
        let server = try PostgreSQLTestServer()
        try fill(server, v1, [["title": "A", "isbn": "1", "notes": "n"], ["title": "B", "isbn": nil, "notes": nil]])
        let before = try snapshot(server)
        let error = try #require(throws: PostgreSQLStoreError.self) { try open(server, v2, migratingFrom: [v1]).0.close() }
        #expect(error.description.contains("(Book.isbn): it becomes required and has no default value, but objects "))
        #expect(error.description.contains("rolled back"))
        #expect(try snapshot(server) == before)
        // A violated uniqueness constraint rolls back too.
        let v3 = ManagedObjectModel(versionIdentifier: "3") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("isbn", .string)
                Attribute("notes", .string)
                UniquenessConstraint("notes")
            }
        }
        let admin = try PGConnection(conninfo: server.conninfo)
        defer { admin.close() }
        try admin.execute("UPDATE \(pgIdentifier(server.schema)).\"Book\" SET notes = 'same'")
        let changed = try snapshot(server)
        let refusal = try #require(throws: PostgreSQLStoreError.self) { try open(server, v3, migratingFrom: [v1]).0.close() }
        #expect(refusal.description.contains("uniqueness constraint"))
        #expect(try snapshot(server) == changed)
    }

    @Test func linksMovingOutOfAJoinTableAreRefusedNotLost() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") { Attribute("title", .string) }
            Entity("Shelf") { Relationship("books", to: "Book", toMany: true) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "books")
            }
            Entity("Shelf") { Relationship("books", to: "Book", inverse: "shelf", toMany: true) }
        }
        let server = try PostgreSQLTestServer()
        do {
            let (store, context) = try server.open(v1)
            let book = try context.insertObject(forEntityName: "Book")
            try context.insertObject(forEntityName: "Shelf").addObject(book, forKey: "books")
            try context.save()
            try store.close()
        }
        let before = try snapshot(server)
        let error = try #require(throws: PostgreSQLStoreError.self) { try open(server, v2, migratingFrom: [v1]).0.close() }
        #expect(error.description.contains("(Shelf.books): its links move out of the join table Shelf_books"))
        #expect(try snapshot(server) == before)
    }

    @Test func withoutVersionsOrReadOnlyAnOlderStoreIsRefusedUnchanged() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("notes", .string)
            }
        }
        let server = try PostgreSQLTestServer()
        try fill(server, v1, [["title": "A"]])
        let before = try snapshot(server)
        let error = try #require(throws: PostgreSQLStoreError.self) { try open(server, v2).0.close() }
        #expect(error.failureKind == .incompatibleModel)
        #expect(throws: PostgreSQLStoreError.self) { try open(server, v2, migratingFrom: [v1], readOnly: true).0.close() }
        #expect(throws: PostgreSQLStoreError.self) { try open(server, v2, migratingFrom: [v2]).0.close() }
        #expect(try snapshot(server) == before)
    }

    // MARK: - Concurrent openers

    @Test func processesOpeningAnOldStoreAtOnceMigrateItOnce() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("heading", .string, renamingIdentifier: "title")
                Attribute("rating", .integer16, optional: false, default: "3")
            }
        }
        try v1.freeze()
        try v2.freeze()
        let server = try PostgreSQLTestServer()
        try fill(server, v1, (1...50).map { ["title": "Book \($0)"] })
        var options = PostgreSQLStore.Options()
        options.schema = server.schema
        options.modelVersions = [v1]
        let conninfo = server.conninfo
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { [options] _ in
            do {
                let store = try PostgreSQLStore(model: v2, conninfo: conninfo, options: options)
                let count = try store.count(for: FetchRequest(entityName: "Book", predicate: try FetchPredicate("rating == 3")))
                if count != 50 { failures.add("saw \(count) migrated books") }
                try store.close()
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all == [])
        #expect(try columns(server, "Book") == ["_id", "_opt", "heading", "rating"])
    }

    // MARK: - Helpers

    /// Creates the store with `model` and inserts one `Book` per dictionary.
    private func fill(_ server: PostgreSQLTestServer, _ model: ManagedObjectModel, _ rows: [[String: Any?]]) throws {
        let (store, context) = try server.open(model)
        for row in rows {
            let object = try context.insertObject(forEntityName: "Book")
            for (key, value) in row { object[key] = value }
        }
        try context.save()
        try store.close()
    }

    /// Opens the test's store with `model`, migrating from `versions`.
    private func open(
        _ server: PostgreSQLTestServer, _ model: ManagedObjectModel, migratingFrom versions: [ManagedObjectModel] = [],
        readOnly: Bool = false
    ) throws -> (PostgreSQLStore, ManagedObjectContext) {
        var options = PostgreSQLStore.Options()
        options.schema = server.schema
        options.modelVersions = versions
        options.readOnly = readOnly
        let store = try PostgreSQLStore(model: model, conninfo: server.conninfo, options: options)
        return (store, ManagedObjectContext(coordinator: PersistentStoreCoordinator(store: store), classes: [:]))
    }

    /// A table's columns, sorted.
    private func columns(_ server: PostgreSQLTestServer, _ table: String) throws -> [String] {
        try server.admin {
            try $0.query(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY 1",
                [.text(server.schema), .text(table)])
        }.map { $0[0] ?? "" }.sorted()
    }

    /// Everything the store holds: its tables' columns and types, its indexes, and every row.
    private func snapshot(_ server: PostgreSQLTestServer) throws -> [String] {
        try server.admin { admin in
            let schema = [PGValue.text(server.schema)]
            var lines = try admin.query(
                "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || ordinal_position "
                    + "FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1", schema
            ).map { $0[0] ?? "" }
            lines += try admin.query(
                "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY 1", schema).map { $0[0] ?? "" }
            let tables = try admin.query("SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1", schema)
            for case let table? in tables.map({ $0[0] }) {
                lines += try admin.query(
                    "SELECT row_to_json(t)::text FROM \(pgIdentifier(server.schema)).\(pgIdentifier(table)) t ORDER BY 1"
                ).map { "\(table): \($0[0] ?? "")" }
            }
            return lines
        }
    }
}

/// Messages collected from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    var all: [String] { lock.withLock { messages } }
    func add(_ message: String) { lock.withLock { messages.append(message) } }
}

extension PostgreSQLTestServer {
    /// Runs `body` on a connection of its own to the test's server.
    func admin<T>(_ body: (PGConnection) throws -> T) throws -> T {
        let connection = try PGConnection(conninfo: conninfo)
        defer { connection.close() }
        return try body(connection)
    }
}
#endif
