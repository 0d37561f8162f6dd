import Foundation
import PersistenceTestSupport
import Testing
import Persistence

/// The relationships of real models (objc.io's Moody, CoreDataPlus's SampleModel) end to end:
/// insert, link, save, reopen, delete.
@Suite struct FixtureModelRelationshipTests {
    private func open(_ fixture: ModelFixture, _ store: TemporaryStore) throws -> ManagedObjectContext {
        var options = SQLiteStore.Options()
        options.passesThroughUnregisteredTransformers = true  // Moody's and SampleModel's colors
        return try PersistentContainer(model: try fixture.load(), storeURL: store.url, classes: [:], options: options).viewContext
    }

    private func one(_ context: ManagedObjectContext, _ entity: String, _ format: String, _ argument: Any) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: entity, predicate: try FetchPredicate(format, argument))).first)
    }

    @Test func moodyContinentsCountriesAndMoods() throws {
        let fixture = ModelFixture(url: ModelFixtures.moody)
        let store = TemporaryStore()
        do {
            let context = try open(fixture, store)
            let europe = try context.insertObject(forEntityName: "Continent")
            europe["numericISO3166Code"] = Int16(150)
            europe["updatedAt"] = Date()
            for code in [Int16(250), 276] {
                let country = try context.insertObject(forEntityName: "Country")
                country["numericISO3166Code"] = code
                country["updatedAt"] = Date()
                country.setObject(europe, forKey: "continent")
                for i in 0..<2 {
                    let mood = try context.insertObject(forEntityName: "Mood")
                    mood["date"] = Date(timeIntervalSince1970: Double(i))
                    mood["creatorID"] = "\(code)-\(i)"
                    country.addObject(mood, forKey: "moods")
                }
            }
            try context.save()
        }
        #expect(try store.rows("SELECT _entity, count(*) FROM Region GROUP BY _entity ORDER BY _entity")
            == [[.text("Continent"), .integer(1)], [.text("Country"), .integer(2)]])
        let context = try open(fixture, store)
        let europe = try one(context, "Continent", "numericISO3166Code == %@", 150)
        #expect(europe.objects(forKey: "countries").compactMap { $0.value(forKey: "numericISO3166Code", as: Int64.self) } == [250, 276])
        let france = try one(context, "Country", "numericISO3166Code == %@", 250)
        #expect(france.objects(forKey: "moods").compactMap { $0["creatorID"] as? String } == ["250-0", "250-1"])
        let moodyCountries = try context.fetch(FetchRequest(entityName: "Country", predicate: try FetchPredicate("moods.@count == 2")))
        #expect(moodyCountries.count == 2)
        context.delete(france)
        try context.save()
        #expect(
            try open(fixture, store).count(for: FetchRequest(entityName: "Mood", predicate: try FetchPredicate("country == nil"))) == 2,
            "Nullify")
        let reopened = try open(fixture, store)
        #expect(try one(reopened, "Continent", "numericISO3166Code == %@", 150).objects(forKey: "countries").count == 1)
    }

    @Test(arguments: ["SampleModel", "SampleModel3"])
    func sampleModelCarsOwnersAndPreviousOwners(version: String) throws {
        let fixture = ModelFixture(url: ModelFixtures.sampleBundle, version: version)
        let store = TemporaryStore()
        let hasPrevious = version == "SampleModel3"
        do {
            let context = try open(fixture, store)
            func person(_ first: String) throws -> ManagedObject {
                let p = try context.insertObject(forEntityName: "Person")
                p["firstName"] = first
                p["updatedAt"] = Date()
                if p.entity.attributes.contains(where: { $0.name == "id" }) { p["id"] = UUID() }
                return p
            }
            let ann = try person("Ann")
            let bob = try person("Bob")
            for (plate, entity) in [("A-1", "Car"), ("S-2", "SportCar"), ("L-3", hasPrevious ? "LuxuryCar" : "ExpensiveSportCar")] {
                let car = try context.insertObject(forEntityName: entity)
                car["numberPlate"] = plate
                car.setObject(ann, forKey: "owner")
                if hasPrevious { bob.addObject(car, forKey: "previousCars") }
            }
            try context.save()
        }
        let context = try open(fixture, store)
        let ann = try one(context, "Person", "firstName == %@", "Ann")
        let cars = ann.objects(forKey: "cars")
        #expect(cars.compactMap { $0["numberPlate"] as? String } == ["A-1", "S-2", "L-3"])
        #expect(cars.map(\.entityName) == ["Car", "SportCar", hasPrevious ? "LuxuryCar" : "ExpensiveSportCar"])
        if hasPrevious {
            let sport = try one(context, "SportCar", "numberPlate == %@", "S-2")
            #expect(sport.objects(forKey: "previousOwners").compactMap { $0["firstName"] as? String } == ["Bob"])
            #expect(try store.rows("SELECT count(*) FROM Car_previousOwners") == [[.integer(3)]])
            let withPrevious = try context.fetch(FetchRequest(entityName: "Car", predicate: try FetchPredicate("ANY previousOwners.firstName == 'Bob'")))
            #expect(withPrevious.count == 3)
        }
        context.delete(try one(context, "Car", "numberPlate == %@", "S-2"))
        try context.save()
        let reopened = try open(fixture, store)
        let annAgain = try one(reopened, "Person", "firstName == %@", "Ann")
        #expect(annAgain.objects(forKey: "cars").compactMap { $0["numberPlate"] as? String } == ["A-1", "L-3"])
        if hasPrevious {
            #expect(try one(reopened, "Person", "firstName == %@", "Bob").objects(forKey: "previousCars").count == 2)
            #expect(try store.rows("SELECT count(*) FROM Car_previousOwners") == [[.integer(2)]])
        }
    }
}
