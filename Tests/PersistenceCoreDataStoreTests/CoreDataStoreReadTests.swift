import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// The store Core Data wrote (Tests/Fixtures/coredata), opened through `PersistentContainer`
/// with the model that wrote it: every object read with the values Core Data stored, checked
/// against the same rows read through plain SQL.
@Suite struct CoreDataStoreReadTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: CoreDataFixture.modelURL, version: "SampleModel")
    }

    /// The rows of a query on the fixture's copy, through plain SQL.
    static func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(query)
    }

    @Test func everyObjectOfEachEntityIsReadWithItsOwnEntity() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let context = try PersistentContainer(model: try Self.model(), storeURL: fixture.storeURL).viewContext
        #expect(try context.fetch(FetchRequest(entityName: "Car")).count == 125)
        #expect(try context.fetch(FetchRequest(entityName: "Person")).count == 20)
        let sportCars = try context.fetch(FetchRequest(entityName: "SportCar"))
        #expect(sportCars.count == 10)
        #expect(sportCars.filter { $0.entityName == "ExpensiveSportCar" }.count == 5)
        var onlySportCars = FetchRequest(entityName: "SportCar")
        onlySportCars.includesSubentities = false
        #expect(try context.fetch(onlySportCars).map { $0.value(forKey: "numberPlate") as? String }.sorted { ($0 ?? "") < ($1 ?? "") }
            == ["200", "201", "202", "203", "204"])
        // Each object's entity is its row's Z_ENT.
        let rows = try Self.sql(fixture.storeURL, "SELECT ZNUMBERPLATE, Z_ENT FROM ZCAR")
        let names: [Int64: String] = [1: "Car", 2: "SportCar", 3: "ExpensiveSportCar"]
        let expected = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].stringValue ?? "", names[$0[1].int64Value ?? 0] ?? "") })
        for car in try context.fetch(FetchRequest(entityName: "Car")) {
            #expect(expected[car.value(forKey: "numberPlate") as? String ?? ""] == car.entityName)
        }
    }

    @Test func datesUUIDsAndBooleansAreTheValuesCoreDataStored() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let context = try PersistentContainer(model: try Self.model(), storeURL: fixture.storeURL).viewContext
        let rows = try Self.sql(fixture.storeURL, "SELECT ZFIRSTNAME, ZLASTNAME, ZUPDATEDAT, ZID FROM ZPERSON")
        #expect(rows.count == 20)
        for row in rows {
            let request = FetchRequest(
                entityName: "Person",
                predicate: try FetchPredicate("firstName == %@ AND lastName == %@", row[0].stringValue ?? "", row[1].stringValue ?? ""))
            let person = try #require(try context.fetch(request).first)
            let seconds = try #require(row[2].doubleValue)
            #expect(person.value(forKey: "updatedAt") as? Date == Date(timeIntervalSinceReferenceDate: seconds))
            let bytes = try #require(row[3].dataValue)
            let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            #expect(person.value(forKey: "id") as? UUID == uuid)
        }
        let victoria = try #require(
            try context.fetch(FetchRequest(entityName: "Person", predicate: try FetchPredicate("lastName == 'Coster'"))).first)
        #expect(victoria.value(forKey: "updatedAt") as? Date == Date(timeIntervalSinceReferenceDate: 639503569.638733))
        let limited = try context.fetch(
            FetchRequest(
                entityName: "ExpensiveSportCar", predicate: try FetchPredicate("isLimitedEdition == YES"),
                sortDescriptors: [SortKey("numberPlate")]))
        #expect(limited.map { $0.value(forKey: "maker") as? String } == ["BMW", "Mercedes-Benz"])
    }

    @Test func toOneAndToManyRelationshipsFollowTheKeyColumns() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let context = try PersistentContainer(model: try Self.model(), storeURL: fixture.storeURL).viewContext
        let counts = try Self.sql(
            fixture.storeURL,
            "SELECT p.ZFIRSTNAME, p.ZLASTNAME, count(c.Z_PK) FROM ZPERSON p LEFT JOIN ZCAR c ON c.ZOWNER = p.Z_PK GROUP BY p.Z_PK")
        #expect(counts.count == 20)
        for row in counts {
            let request = FetchRequest(
                entityName: "Person",
                predicate: try FetchPredicate("firstName == %@ AND lastName == %@", row[0].stringValue ?? "", row[1].stringValue ?? ""))
            let person = try #require(try context.fetch(request).first)
            #expect(person.objects(forKey: "cars").count == Int(row[2].int64Value ?? -1))
        }
        let bmw = try #require(
            try context.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == '300'"))).first)
        let owner = try #require(bmw.value(forKey: "owner") as? ManagedObject)
        #expect(owner.value(forKey: "firstName") as? String == "Faron")
        // Key paths through the to-one, and sorting on them.
        let stones = try context.fetch(
            FetchRequest(
                entityName: "Car", predicate: try FetchPredicate("owner.lastName == 'Stone' AND numberPlate BEGINSWITH '19'"),
                sortDescriptors: [SortKey("numberPlate", ascending: false)]))
        #expect(stones.map { $0.value(forKey: "numberPlate") as? String } == ["199", "198", "197", "196", "195", "194", "193", "192", "191", "190"])
        let ownerless = try context.fetch(
            FetchRequest(entityName: "Car", predicate: try FetchPredicate("owner == nil"), sortDescriptors: [SortKey("model")]))
        #expect(ownerless.map { $0.value(forKey: "model") as? String } == ["Aventador LP750-4", "Aventador LP750-4", "570GT", "Carens", "Megane", "Soul", "Sportage"].sorted())
        let collectors = try context.fetch(
            FetchRequest(entityName: "Person", predicate: try FetchPredicate("cars.@count > 1"), sortDescriptors: [SortKey("lastName")]))
        let expected = try Self.sql(
            fixture.storeURL, "SELECT count(*) FROM (SELECT ZOWNER FROM ZCAR WHERE ZOWNER IS NOT NULL GROUP BY ZOWNER HAVING count(*) > 1)"
        ).first?.first?.int64Value
        #expect(collectors.count == expected.map(Int.init))
    }
}

/// The store opened with the model Core Data compiled into it, no model file needed.
@Suite struct CoreDataStoredModelTests {
    @Test func theStoreOpensWithTheModelItsCacheHolds() throws {
        let fixture = try CoreDataFixture()
        defer { fixture.remove() }
        let model = try CoreDataStore.storedModel(at: fixture.storeURL)
        #expect(model.entities.map(\.name).sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let context = try PersistentContainer(model: model, storeURL: fixture.storeURL).viewContext
        #expect(try context.fetch(FetchRequest(entityName: "Car")).count == 125)
        let bmw = try #require(
            try context.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == '300'"))).first)
        #expect(bmw.entityName == "ExpensiveSportCar" && bmw.value(forKey: "isLimitedEdition") as? Bool == true)
    }

    @Test func aNewStoreKeepsItsModelCompiledAndOneWithoutSaysSo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cd-nocache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("New.sqlite")
        try CoreDataStore.create(model: try CoreDataStoreReadTests.model(), at: url)
        let compiled = try CoreDataStore.storedModel(at: url)
        #expect(compiled.entities.map(\.name).sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        let database = try Database(path: url.path, mode: .mustExist)
        try database.execute("DELETE FROM Z_MODELCACHE")
        try database.close()
        let error = try #require(throws: CoreDataStoreError.self) { try CoreDataStore.storedModel(at: url) }
        #expect("\(error)".contains("Z_MODELCACHE is empty"))
    }
}
