import Foundation
import Persistence
import PersistenceSQLite
import Testing

/// Core Data stores that cannot be read as they are: each a one-line error, the file
/// exactly as it was and nothing left beside it.
@Suite struct CoreDataStoreBadInputTests {
    /// The bytes of the store file, and the names in its folder.
    static func snapshot(_ fixture: CoreDataFixture) throws -> (Data, [String]) {
        (try Data(contentsOf: fixture.storeURL), try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).sorted())
    }

    @Test func aModelOfAnotherStructureIsRefusedNamingTheFirstDifference() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let before = try Self.snapshot(fixture)
        // Version 2 renames ExpensiveSportCar to LuxuryCar.
        let model = try ManagedObjectModel(contentsOf: CoreDataFixture.modelURL, version: "SampleModel2")
        let error = try #require(throws: StoreError.self) {
            try PersistentContainer(model: model, storeURL: fixture.storeURL)
        }
        #expect(
            "\(error)"
                == "The store \(fixture.storeURL.path) was written with a different model and can't be opened with this one "
                + "(the store has entity ExpensiveSportCar (Z_ENT 3), which the model does not have); it was left untouched")
        let after = try Self.snapshot(fixture)
        #expect(after.0 == before.0 && after.1 == before.1)
    }

    @Test func aMissingColumnIsNamed() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let database = try Database(path: fixture.storeURL.path, mode: .mustExist)
        try database.execute("ALTER TABLE ZPERSON RENAME COLUMN ZLASTNAME TO ZSURNAME")
        try database.close()
        let before = try Self.snapshot(fixture)
        let error = try #require(throws: StoreError.self) {
            try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
        }
        #expect("\(error)".contains("(ZPERSON has no column ZLASTNAME for Person.lastName)"))
        let after = try Self.snapshot(fixture)
        #expect(after.0 == before.0 && after.1 == before.1)
    }

    @Test func aTruncatedStoreIsAOneLineErrorAndLeftAsItWas() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let whole = try Data(contentsOf: fixture.storeURL)
        try whole.prefix(20_000).write(to: fixture.storeURL)
        let before = try Self.snapshot(fixture)
        var message = ""
        do {
            let context = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL).viewContext
            _ = try context.fetch(FetchRequest(entityName: "Car"))
            _ = try context.fetch(FetchRequest(entityName: "Person"))
        } catch {
            message = "\(error)"
        }
        #expect(!message.isEmpty && !message.contains("\n"))
        let after = try Self.snapshot(fixture)
        #expect(after.0 == before.0 && after.1 == before.1)
    }

    @Test func aRowWhoseEntityNumberNamesNoEntityIsAnErrorNamingTheRow() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let database = try Database(path: fixture.storeURL.path, mode: .mustExist)
        try database.execute("UPDATE ZCAR SET Z_ENT = 9 WHERE Z_PK = 5")
        try database.close()
        let before = try Self.snapshot(fixture)
        do {
            let container = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
            let error = try #require(throws: CoreDataStoreError.self) {
                try container.viewContext.fetch(FetchRequest(entityName: "Car"))
            }
            #expect(
                "\(error)"
                    == "The Core Data store \(fixture.storeURL.path) can't be read: row 5 of ZCAR has Z_ENT 9, which names no "
                    + "entity of Car's hierarchy; it was left untouched")
            try container.persistentStoreCoordinator.close()
        }
        let after = try Self.snapshot(fixture)
        #expect(after.0 == before.0 && after.1 == before.1)
    }
}
