import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// CoreDataPlus's three-version `SampleModel.xcdatamodeld`: a store filled under version 1
/// migrates to 2, to 3, and to 3 directly, keeping every value the newer version has a
/// place for. What Core Data's lightweight migration would also drop (attributes removed
/// from the model) is reported as data loss in the plan.
@Suite struct MigrationSampleModelTests {
    static let bundle = ModelFixtures.sampleBundle

    static func version(_ name: String) throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: bundle, version: name)
    }

    /// The cars and people written under version 1, as plain values.
    struct Car: Equatable {
        var entity: String, plate: String, model: String?, maker: String?, marked: Date?, owner: String?, limited: Bool?
    }

    static let people = [("Ada", "Lovelace", 1_700_000_000.5), ("Alan", "Turing", 1_600_000_000.25), ("Grace", nil, 0.0)]
    static let cars = [
        Car(entity: "Car", plate: "AB-123", model: "Panda", maker: "Fiat", marked: nil, owner: "Ada", limited: nil),
        Car(entity: "SportCar", plate: "SP-1", model: "911", maker: "Porsche", marked: Date(timeIntervalSince1970: 1e9), owner: "Alan", limited: nil),
        Car(entity: "ExpensiveSportCar", plate: "EX-9", model: "F40", maker: "Ferrari", marked: nil, owner: "Ada", limited: true),
        Car(entity: "ExpensiveSportCar", plate: "EX-10", model: nil, maker: nil, marked: nil, owner: nil, limited: false),
    ]

    /// A store written with version 1, every stored attribute set, the transformable
    /// `color` holding opaque bytes.
    func filledStore() throws -> TemporaryStore {
        let store = TemporaryStore()
        var options = SQLiteStore.Options()
        options.passesThroughUnregisteredTransformers = true
        let container = try PersistentContainer(model: Self.version("SampleModel"), storeURL: store.url, classes: [:], options: options)
        let context = container.viewContext
        var people: [String: ManagedObject] = [:]
        for (first, last, updated) in Self.people {
            let person = try context.insertObject(forEntityName: "Person")
            person["firstName"] = first
            person["lastName"] = last
            person["id"] = UUID()
            person["updatedAt"] = Date(timeIntervalSince1970: updated)
            people[first] = person
        }
        for car in Self.cars {
            let object = try context.insertObject(forEntityName: car.entity)
            object["numberPlate"] = car.plate
            object["model"] = car.model
            object["maker"] = car.maker
            object["markedForDeletionAsOf"] = car.marked
            if let limited = car.limited { object["isLimitedEdition"] = limited }
            if let owner = car.owner, let person = people[owner] { object.setObject(person, forKey: "owner") }
        }
        try context.save()
        try store.file.write("UPDATE Car SET color = x'c0ffee'")
        return store
    }

    /// The cars a migrated store holds, read through the library.
    func readCars(_ container: PersistentContainer, hasMaker: Bool) throws -> [Car] {
        try container.viewContext.fetch(FetchRequest(entityName: "Car", sortDescriptors: [SortKey("numberPlate")])).map { car in
            Car(
                entity: car.entity.name, plate: car["numberPlate"] as? String ?? "?", model: car["model"] as? String,
                maker: hasMaker ? car["maker"] as? String : nil, marked: car["markedForDeletionAsOf"] as? Date,
                owner: car.object(forKey: "owner")?["firstName"] as? String,
                limited: car.entity.name == "LuxuryCar" ? car["isLimitedEdition"] as? Bool : nil)
        }
    }

    func expectedCars(renamed: Bool, keepingMaker: Bool) -> [Car] {
        Self.cars.map { car in
            var car = car
            if renamed, car.entity == "ExpensiveSportCar" { car.entity = "LuxuryCar" }
            if !keepingMaker { car.maker = nil }
            if !renamed { car.limited = nil }
            return car
        }.sorted { $0.plate < $1.plate }
    }

    func expectPeopleKept(_ container: PersistentContainer) throws {
        let people = try container.viewContext.fetch(FetchRequest(entityName: "Person", sortDescriptors: [SortKey("firstName")]))
        #expect(people.map { $0["firstName"] as? String } == Self.people.map(\.0))
        #expect(people.map { $0["lastName"] as? String } == Self.people.map(\.1))
        #expect(people.map { ($0["updatedAt"] as? Date)?.timeIntervalSince1970 } == Self.people.map(\.2))
        #expect(people.map { $0.objects(forKey: "cars").count } == [2, 1, 0])
    }

    @Test func version1To2KeepsEveryValueAndReportsTheRemovedOnes() throws {
        let store = try filledStore()
        let v2 = try Self.version("SampleModel2")
        let migrator = StoreMigrator(storeURL: store.url, destination: v2, versions: [try Self.version("SampleModel")])
        let plan = try #require(try migrator.plans().first)
        #expect(plan.steps.filter(\.losesData).map(\.description) == [
            "DATA LOSS: Car.color: attribute removed: its values will be deleted",
            "DATA LOSS: Person.id: attribute removed: its values will be deleted",
        ])
        #expect(plan.steps.contains { $0.description == "LuxuryCar: renamed from ExpensiveSportCar (objects kept)" })
        #expect(plan.steps.contains { $0.kind == .addIndex && $0.entity == "Car" })
        try migrator.migrate()
        let container = try PersistentContainer(model: v2.copy(), storeURL: store.url)
        #expect(try readCars(container, hasMaker: true).map(\.plate) == expectedCars(renamed: true, keepingMaker: true).map(\.plate))
        #expect(try readCars(container, hasMaker: true) == expectedCars(renamed: true, keepingMaker: true))
        try expectPeopleKept(container)
        #expect(try store.rows("SELECT count(*) FROM sqlite_master WHERE name = 'Car_byMakerAndNumberPlate'")[0][0].int64Value == 1)
    }

    @Test func version2To3DropsOnlyTheMakerTextThatVersion3Removes() throws {
        let store = try filledStore()
        let v1 = try Self.version("SampleModel"), v2 = try Self.version("SampleModel2"), v3 = try Self.version("SampleModel3")
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).migrate()
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v3, versions: [v1, v2]).plans().first)
        #expect(plan.sourceVersionName == "2")
        #expect(plan.steps.filter(\.losesData).map(\.description) == [
            "DATA LOSS: Car.maker: attribute removed: its values will be deleted",
        ])
        #expect(plan.steps.contains { $0.description == "Maker: new entity; it starts with no objects" })
        let container = try PersistentContainer(model: v3, storeURL: store.url, migratingFrom: [v1, v2])
        #expect(try readCars(container, hasMaker: false) == expectedCars(renamed: true, keepingMaker: false))
        try expectPeopleKept(container)
    }

    @Test(arguments: [false, true])
    func version1To3DirectlyOrThroughVersion2(progressive: Bool) throws {
        let store = try filledStore()
        let v1 = try Self.version("SampleModel"), v2 = try Self.version("SampleModel2"), v3 = try Self.version("SampleModel3")
        let versions = progressive ? [v1, v2, v3] : [v1]
        let plans = try StoreMigrator(storeURL: store.url, destination: v3, versions: versions).plans()
        #expect(plans.count == (progressive ? 2 : 1))
        let lost = plans.flatMap(\.steps).filter(\.losesData).map { "\($0.entity).\($0.property ?? "")" }
        #expect(lost == (progressive ? ["Car.color", "Person.id", "Car.maker"] : ["Car.color", "Car.maker", "Person.id"]))
        let container = try PersistentContainer(model: v3, storeURL: store.url, migratingFrom: versions)
        #expect(try readCars(container, hasMaker: false) == expectedCars(renamed: true, keepingMaker: false))
        try expectPeopleKept(container)
        // The store is at version 3 now, and works: a Maker can be linked and saved.
        let maker = try container.viewContext.insertObject(forEntityName: "Maker")
        maker["name"] = "Fiat"
        let panda = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == %@", "AB-123"))).first)
        panda.setObject(maker, forKey: "createdBy")
        let ada = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Person", predicate: try FetchPredicate("firstName == %@", "Ada"))).first)
        panda.addObject(ada, forKey: "previousOwners")
        try container.viewContext.save()
        #expect(try store.rows("SELECT count(*) FROM Car_previousOwners")[0][0].int64Value == 1)
        #expect(try store.rows("SELECT value FROM _metadata WHERE key = 'modelVersion'")[0][0].textValue == "3")
    }

    @Test func theBundleOpensAnOldStoreAtItsCurrentVersion() throws {
        let store = try filledStore()
        let container = try PersistentContainer(modelBundle: Self.bundle, version: "SampleModel3", storeURL: store.url)
        #expect(try container.viewContext.fetch(FetchRequest(entityName: "LuxuryCar")).count == 2)
        #expect(FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
    }
}
