import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// Changes saved into the store Core Data wrote, read back through plain SQL in Core Data's
/// layout: `Z_OPT` bumped, `Z_PRIMARYKEY.Z_MAX` advanced, `Z_METADATA` and `Z_MODELCACHE` as
/// they were.
@Suite struct CoreDataStoreWriteTests {
    static func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        try CoreDataStoreReadTests.sql(url, query)
    }

    @Test func aSavedChangeIsWrittenInCoreDatasLayout() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let bookkeeping = "SELECT (SELECT Z_PLIST FROM Z_METADATA), (SELECT Z_UUID FROM Z_METADATA), (SELECT Z_CONTENT FROM Z_MODELCACHE)"
        let before = try Self.sql(fixture.storeURL, bookkeeping)
        let newID = UUID()
        let saved = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
        do {
            let container = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
            let context = container.viewContext
            let bmw = try #require(
                try context.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == '300'"))).first)
            try bmw.setValue("M6 Gran Coupe", forKey: "model")
            let ada = try context.insertObject(forEntityName: "Person")
            try ada.setValue("Ada", forKey: "firstName")
            try ada.setValue("Lovelace", forKey: "lastName")
            try ada.setValue(newID, forKey: "id")
            try ada.setValue(saved, forKey: "updatedAt")
            let car = try context.insertObject(forEntityName: "ExpensiveSportCar")
            try car.setValue("ADA-1", forKey: "numberPlate")
            try car.setValue(true, forKey: "isLimitedEdition")
            try car.setValue(ada, forKey: "owner")
            try context.save()
            try container.persistentStoreCoordinator.close()
        }
        let bmw = try Self.sql(fixture.storeURL, "SELECT ZMODEL, Z_OPT, Z_ENT FROM ZCAR WHERE ZNUMBERPLATE = '300'")
        #expect(bmw.first?[0].stringValue == "M6 Gran Coupe")
        #expect(bmw.first?[1].int64Value == 2)
        #expect(bmw.first?[2].int64Value == 3)
        let ada = try Self.sql(fixture.storeURL, "SELECT Z_PK, Z_ENT, Z_OPT, ZUPDATEDAT, hex(ZID) FROM ZPERSON WHERE ZFIRSTNAME = 'Ada'")
        #expect(ada.first?[0].int64Value == 21)
        #expect(ada.first?[1].int64Value == 4)
        #expect(ada.first?[2].int64Value == 1)
        #expect(ada.first?[3].doubleValue == 800_000_000.25)
        #expect(ada.first?[4].stringValue == newID.uuidString.replacingOccurrences(of: "-", with: ""))
        let car = try Self.sql(fixture.storeURL, "SELECT Z_PK, Z_ENT, Z_OPT, ZOWNER, ZISLIMITEDEDITION FROM ZCAR WHERE ZNUMBERPLATE = 'ADA-1'")
        #expect(car.first?.compactMap(\.int64Value) == [126, 3, 1, 21, 1])
        let keys = try Self.sql(fixture.storeURL, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(keys.map { "\($0[0].stringValue ?? "")=\($0[1].int64Value ?? -1)" } == ["Car=126", "SportCar=0", "ExpensiveSportCar=0", "Person=21"])
        #expect(try Self.sql(fixture.storeURL, bookkeeping) == before)
        // And the store reads back what was saved.
        let context = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL).viewContext
        let reread = try #require(
            try context.fetch(FetchRequest(entityName: "Person", predicate: try FetchPredicate("firstName == 'Ada'"))).first)
        #expect(reread.value(forKey: "id") as? UUID == newID)
        #expect(reread.value(forKey: "updatedAt") as? Date == saved)
        #expect(reread.objects(forKey: "cars").map(\.entityName) == ["ExpensiveSportCar"])
    }

    @Test func aRowChangedSinceItWasReadIsAConflict() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let container = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
        let context = container.viewContext
        let car = try #require(
            try context.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == '1'"))).first)
        // Another writer (Core Data on a Mac, say) changes the row and bumps its Z_OPT.
        let other = try Database(path: fixture.storeURL.path, mode: .mustExist)
        try other.execute("UPDATE ZCAR SET ZMODEL = 'Cinquecento', Z_OPT = Z_OPT + 1 WHERE ZNUMBERPLATE = '1'")
        try other.close()
        try car.setValue("Uno", forKey: "model")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try Self.sql(fixture.storeURL, "SELECT ZMODEL FROM ZCAR WHERE ZNUMBERPLATE = '1'").first?.first?.stringValue == "Cinquecento")
    }

    @Test func aDuplicateOfAUniqueValueIsRefusedAndNothingIsWritten() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let container = try PersistentContainer(model: try CoreDataStoreReadTests.model(), storeURL: fixture.storeURL)
        let context = container.viewContext
        let car = try context.insertObject(forEntityName: "Car")
        try car.setValue("170", forKey: "numberPlate")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try Self.sql(fixture.storeURL, "SELECT count(*), (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1) FROM ZCAR")
            .first?.compactMap(\.int64Value) == [125, 125])
    }
}

/// An app's metadata, kept beside Core Data's own in `Z_METADATA`'s property list.
@Suite struct CoreDataStoreMetadataTests {
    @Test func appMetadataIsKeptBesideCoreDatasOwnKeys() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        do {
            let store = try CoreDataStore(model: try CoreDataStoreReadTests.model(), url: fixture.storeURL)
            #expect(try store.applicationMetadata(forKey: "seeded") == nil)
            try store.setApplicationMetadata("2026-11-26", forKey: "seeded")
            try store.close()
        }
        let store = try CoreDataStore(model: try CoreDataStoreReadTests.model(), url: fixture.storeURL)
        defer { try? store.close() }
        #expect(try store.applicationMetadata(forKey: "seeded") == "2026-11-26")
        let plist = try #require(try CoreDataStoreReadTests.sql(fixture.storeURL, "SELECT Z_PLIST FROM Z_METADATA").first?.first?.dataValue)
        let metadata = try BinaryPropertyList.read(plist)
        #expect(CoreDataStoreMetadata.versionHashes(in: metadata).keys.sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(metadata.dictionaryValue?["NSStoreType"]?.stringValue == "SQLite")
    }
}
