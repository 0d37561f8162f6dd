import Foundation
import Persistence
import PersistenceSQLite
import Testing

/// A store whose schema calls Core Data's own SQL functions (the triggers with which Core
/// Data keeps derived attributes current, indexes with its collations) is written as Core
/// Data writes it: the triggers run and compute what Core Data's would.
@Suite struct CoreDataStoreTriggerTests {
    /// The fixture with triggers and an index in Core Data's form: `lastName` derived as
    /// `canonical:(firstName)`, `updatedAt` as `now()` on insert, and an index on a car's
    /// model in Core Data's no-case collation.
    static func storeWithTriggers() throws -> CoreDataFixture {
        let fixture = try CoreDataFixture()
        let database = try Database(path: fixture.storeURL.path)
        defer { try? database.close() }
        try registerCollationStandIn(on: database)
        try database.execute(
            """
            CREATE TRIGGER IF NOT EXISTS Z_DA_ZPERSON_Person_lastName_UPDATE AFTER UPDATE OF ZFIRSTNAME ON ZPERSON
                FOR EACH ROW BEGIN UPDATE ZPERSON SET ZLASTNAME = NSCoreDataCanonical(NEW.ZFIRSTNAME) WHERE Z_PK = NEW.Z_PK;
                SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPERSON', Z_ENT, Z_PK, 'lastName', ZLASTNAME)
                FROM ZPERSON WHERE Z_PK = NEW.Z_PK; END;
            CREATE TRIGGER IF NOT EXISTS Z_DA_ZPERSON_Person_updatedAt_INSERT AFTER INSERT ON ZPERSON
                FOR EACH ROW BEGIN UPDATE ZPERSON SET ZUPDATEDAT = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK;
                SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZPERSON', Z_ENT, Z_PK, 'updatedAt', ZUPDATEDAT)
                FROM ZPERSON WHERE Z_PK = NEW.Z_PK; END;
            CREATE INDEX ZCAR_ZMODEL_NOCASE ON ZCAR (ZMODEL COLLATE NSCollateNoCase);
            """)
        return fixture
    }

    @Test func coreDatasTriggersRunWhenASaveWritesTheirTables() throws {
        let fixture = try Self.storeWithTriggers()
        defer { fixture.remove() }
        let before = Date()
        do {
            let container = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
            let context = container.viewContext
            let victoria = try #require(
                try context.fetch(FetchRequest(entityName: "Person", predicate: try FetchPredicate("firstName == 'Victoria'"))).first)
            try victoria.setValue("Élodie", forKey: "firstName")
            let ada = try context.insertObject(forEntityName: "Person")
            try ada.setValue("Ada", forKey: "firstName")
            try ada.setValue("Lovelace", forKey: "lastName")
            try ada.setValue(UUID(), forKey: "id")
            try ada.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")  // the trigger's now() replaces it
            let car = try context.insertObject(forEntityName: "Car")
            try car.setValue("ADA-2", forKey: "numberPlate")
            try car.setValue("model t", forKey: "model")
            try context.save()
            try container.persistentStoreCoordinator.close()
        }
        let rows = try CoreDataStoreReadTests.sql(
            fixture.storeURL, "SELECT ZFIRSTNAME, ZLASTNAME, ZUPDATEDAT FROM ZPERSON WHERE ZFIRSTNAME IN ('Élodie', 'Ada') ORDER BY Z_PK")
        #expect(rows.first?[1].stringValue == "elodie")
        let stamped = try #require(rows.last?[2].doubleValue)
        #expect(abs(stamped - before.timeIntervalSinceReferenceDate) < 60)
        let database = try Database(path: fixture.storeURL.path, mode: .readOnly)
        defer { try? database.close() }
        try CoreDataStoreTriggerTests.registerCollationStandIn(on: database)
        #expect(try database.scalar("SELECT count(*) FROM ZCAR WHERE ZNUMBERPLATE = 'ADA-2'").int64Value == 1)
    }

    /// Plain SQLite makes and reads the index only with a collation of that name.
    static func registerCollationStandIn(on database: Database) throws {
        try database.createCollation("NSCollateNoCase") { a, b in
            let x = String(decoding: a, as: UTF8.self).lowercased(), y = String(decoding: b, as: UTF8.self).lowercased()
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }
}
