import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// A store in which Core Data records its persistent history: its own entities in
/// `Z_PRIMARYKEY` (16001…) do not stop it opening, its history reads as this library's
/// transactions, and a save records its own transaction there.
@Suite struct CoreDataStoreHistoryTests {
    /// The fixture with Core Data's history tables as real stores have them (`ACHANGE`,
    /// `ATRANSACTION`, `ATRANSACTIONSTRING`, entities 16001–16003) and three transactions:
    /// 1 inserts Person 1 and Car 5 by "importer" in "viewContext"; 2 updates SportCar 21 and
    /// deletes Person 99 (a row gone); 3, with author text in its own column (as older
    /// stores keep it), updates Car 7.
    static func storeWithHistory() throws -> CoreDataFixture {
        let fixture = try CoreDataFixture()
        let database = try Database(path: fixture.storeURL.path)
        defer { try? database.close() }
        try database.execute(
            """
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
                ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
                ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
                ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
            CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 5), (16002, 'TRANSACTION', 0, 3),
                (16003, 'TRANSACTIONSTRING', 0, 3);
            INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, NULL, 'importer'), (2, 16003, NULL, 'viewContext'),
                (3, 16003, NULL, 'com.example.books');
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZTIMESTAMP) VALUES
                (1, 16002, 1, 3, 2, 700000000.5), (2, 16002, NULL, 3, NULL, 700000100);
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHOR, ZTIMESTAMP) VALUES (3, 16002, 'mac app', 700000200);
            INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES
                (1, 16001, 0, 4, 1, 1), (2, 16001, 0, 1, 5, 1), (3, 16001, 1, 2, 21, 2), (4, 16001, 2, 4, 99, 2),
                (5, 16001, 1, 1, 7, 3);
            """)
        return fixture
    }

    static func open(_ fixture: CoreDataFixture) throws -> PersistentContainer {
        try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
    }

    @Test func coreDatasHistoryReadsAsTransactions() throws {
        let fixture = try Self.storeWithHistory()
        defer { fixture.remove() }
        let context = try Self.open(fixture).viewContext
        let history = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(history.map(\.transactionNumber) == [1, 2, 3])
        #expect(history.map(\.author) == ["importer", nil, "mac app"])
        #expect(history.map(\.contextName) == ["viewContext", nil, nil])
        #expect(history[0].timestamp == Date(timeIntervalSinceReferenceDate: 700_000_000.5))
        #expect(history.map { $0.changes.map(\.changeType) } == [[.insert, .insert], [.update, .delete], [.update]])
        #expect(history.flatMap(\.changes).allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil })
        // Each change names its object by the exact entity Core Data recorded.
        let ids = history.flatMap(\.changes).map(\.changedObjectID)
        #expect(ids.map(\.entityName) == ["Person", "Car", "SportCar", "Person", "Car"])
        #expect(try context.existingObject(with: ids[0]).value(forKey: "firstName") as? String == "Victoria")
        #expect(try context.existingObject(with: ids[1]).value(forKey: "numberPlate") as? String == "117")
        #expect(try context.existingObject(with: ids[2]).value(forKey: "numberPlate") as? String == "200")
        #expect(throws: (any Error).self) { try context.existingObject(with: ids[3]) }
    }

    @Test func tokensAndDatesBoundTheHistoryAsCoreDatasDo() throws {
        let fixture = try Self.storeWithHistory()
        defer { fixture.remove() }
        let container = try Self.open(fixture)
        let context = container.viewContext
        let all = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(try context.fetchHistory(after: all[0].token).map(\.transactionNumber) == [2, 3])
        #expect(try context.fetchHistory(after: all[2].token).isEmpty)
        #expect(try container.persistentStoreCoordinator.currentPersistentHistoryToken() == all[2].token)
        #expect(try context.fetchHistory(after: Date(timeIntervalSinceReferenceDate: 700_000_050)).map(\.transactionNumber) == [2, 3])
        #expect(throws: PersistentHistoryError.self) { try context.fetchHistory(after: Date.distantFuture) }

        // Core Data deleted transactions 1 and 2: a token before them has expired; one after
        // them has not.
        let database = try Database(path: fixture.storeURL.path)
        try database.execute("DELETE FROM ACHANGE WHERE ZTRANSACTIONID <= 2; DELETE FROM ATRANSACTION WHERE Z_PK <= 2")
        try database.close()
        #expect(throws: PersistentHistoryError.expired(deletedThrough: 2)) { try context.fetchHistory(after: all[0].token) }
        #expect(try context.fetchHistory(after: all[1].token).map(\.transactionNumber) == [3])
    }

    /// The fixture's model with Person's names preserved after deletion (beside its `id`,
    /// which the model file preserves), and the fixture's `ACHANGE` with a tombstone column
    /// for each (as Core Data adds them for such a model) when `withColumns`.
    static func preservingNames(_ fixture: CoreDataFixture, withColumns: Bool) throws -> ManagedObjectModel {
        let model = try CoreDataStoreReadTests.model()
        model.entities = model.entities.map { entity in
            guard entity.name == "Person" else { return entity }
            var entity = entity
            entity.attributes = entity.attributes.map { attribute in
                var attribute = attribute
                if ["firstName", "lastName"].contains(attribute.name) { attribute.preservesValueInHistoryOnDeletion = true }
                return attribute
            }
            return entity
        }
        if withColumns {
            let database = try Database(path: fixture.storeURL.path)
            defer { try? database.close() }
            try database.execute(
                "ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE0 BLOB; ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE1 BLOB; "
                    + "ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE2 BLOB")
        }
        return model
    }

    /// A save in a store whose history Core Data records is recorded after Core Data's
    /// transactions: an update with its written property in `ZCOLUMNS`, a delete with the
    /// values its entity preserves in `ZTOMBSTONE<n>` (by attribute name: firstName 0, id 1,
    /// lastName 2, each as its row column holds it), both read back through the history API.
    @Test func aSaveIsRecordedAfterCoreDatasTransactionsWithTombstones() throws {
        let fixture = try Self.storeWithHistory()
        defer { fixture.remove() }
        let model = try Self.preservingNames(fixture, withColumns: true)
        let container = try PersistentContainer(model: model, storeURL: fixture.storeURL)
        #expect(!container.persistentStoreCoordinator.isReadOnly)
        let context = container.viewContext
        let car = try #require(try context.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == '117'"))).first)
        try car.setValue("changed", forKey: "model")
        let person = try #require(try context.fetch(FetchRequest(entityName: "Person", predicate: try FetchPredicate("firstName == 'Alex'"))).first)
        let personKey = try #require(person.objectID.primaryKey)
        let storedID = try #require(
            try CoreDataStoreReadTests.sql(fixture.storeURL, "SELECT ZID FROM ZPERSON WHERE Z_PK = \(personKey)").first?.first)
        let id = try #require(person.value(forKey: "id") as? UUID)
        context.delete(person)
        try context.save()

        let rows = try CoreDataStoreReadTests.sql(
            fixture.storeURL,
            "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZTRANSACTIONID, ZTOMBSTONE0, ZTOMBSTONE1, ZTOMBSTONE2 FROM ACHANGE WHERE Z_PK > 5 "
                + "ORDER BY ZCHANGETYPE")
        let carKey = try #require(car.objectID.primaryKey)
        #expect(rows.map { Array($0[1...6]) } == [
            [.integer(1), .integer(1), .integer(4), .null, .null, .null],
            [.integer(2), .integer(4), .integer(4), .text("Alex"), storedID, .text("Rathbun")],
        ])
        #expect(try CoreDataStoreReadTests.sql(fixture.storeURL, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (16001, 16002) ORDER BY Z_ENT")
            == [[.integer(7)], [.integer(4)]])
        let history = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        #expect(history.map(\.transactionNumber) == [1, 2, 3, 4])
        let changes = try #require(history.last).changes
        let update = try #require(changes.first { $0.changeType == .update })
        #expect(update.changedObjectID.primaryKey == carKey)
        #expect(update.updatedProperties == ["model"])
        let delete = try #require(changes.first { $0.changeType == .delete })
        #expect(delete.changedObjectID.primaryKey == personKey)
        #expect(delete.tombstone == ["firstName": .string("Alex"), "id": .uuid(id), "lastName": .string("Rathbun")])
        // Core Data's updates without a bitmap still read as "unknown".
        #expect(history[1].changes.first?.updatedProperties == nil)
        try container.persistentStoreCoordinator.close()
    }

    /// A model that preserves a value the store's `ACHANGE` has no tombstone column for (a
    /// model Core Data did not open the store with) cannot have its delete recorded: the
    /// save is refused in one line, the file as it was.
    @Test func aDeleteWhoseTombstoneHasNoColumnIsRefusedInOneLine() throws {
        let fixture = try Self.storeWithHistory()
        defer { fixture.remove() }
        let model = try Self.preservingNames(fixture, withColumns: false)
        let files = { ["", "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: fixture.storeURL.path + $0)) } }
        let container = try PersistentContainer(model: model, storeURL: fixture.storeURL)
        let context = container.viewContext
        let person = try #require(try context.fetch(FetchRequest(entityName: "Person", predicate: try FetchPredicate("firstName == 'Alex'"))).first)
        try container.persistentStoreCoordinator.close()
        let before = files()
        let reopened = try PersistentContainer(model: model, storeURL: fixture.storeURL)
        let again = try reopened.viewContext.existingObject(with: person.objectID)
        reopened.viewContext.delete(again)
        let error = try #require(throws: CoreDataStoreError.self) { try reopened.viewContext.save() }
        #expect(error.description.contains("ZTOMBSTONE0"))
        #expect(!error.description.contains("\n"))
        try reopened.persistentStoreCoordinator.close()
        #expect(files() == before)
    }

    /// Deleting history before a token removes Core Data's transactions and changes before
    /// it, keeps `Z_MAX` counting, and a token before them reads as expired.
    @Test func historyIsDeletedAsCoreDataDeletesIt() throws {
        let fixture = try Self.storeWithHistory()
        defer { fixture.remove() }
        let context = try Self.open(fixture).viewContext
        let all = try context.fetchHistory(after: nil as PersistentHistoryToken?)
        try context.deleteHistory(before: all[2].token)
        #expect(try CoreDataStoreReadTests.sql(fixture.storeURL, "SELECT Z_PK FROM ATRANSACTION") == [[.integer(3)]])
        #expect(try CoreDataStoreReadTests.sql(fixture.storeURL, "SELECT Z_PK FROM ACHANGE") == [[.integer(5)]])
        #expect(try CoreDataStoreReadTests.sql(fixture.storeURL, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") == [[.integer(3)]])
        #expect(throws: PersistentHistoryError.expired(deletedThrough: 2)) { try context.fetchHistory(after: all[0].token) }
        #expect(try context.fetchHistory(after: all[1].token).map(\.transactionNumber) == [3])
    }
}
