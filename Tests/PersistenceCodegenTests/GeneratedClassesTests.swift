import Foundation
import Persistence
import Testing

/// The classes the build plugin generated from Models/ (into `Moody+Generated.swift` and
/// `SampleModel+Generated.swift`, never the source tree), used against a store.
@Suite struct GeneratedClassesTests {
    static var sampleClasses: [String: ManagedObject.Type] {
        SampleModel.classes.merging(["ExpensiveSportCar": ExpensiveSportCar.self]) { $1 }
    }

    @Test func classesListsClassAndCategoryEntitiesButNotManualOnes() {
        #expect(Set(SampleModel.classes.keys) == ["Car", "SportCar", "Person"])
        #expect(Set(MoodyModel.classes.keys) == ["Region", "Continent", "Country", "Mood"])
        #expect(SampleModel.classes["Person"] == Person.self)
        #expect(MoodyModel.classes["Country"] == Country.self)
    }

    @Test func typedValuesRoundTripThroughTheStore() throws {
        let container = try openContainer("SampleModel.xcdatamodeld", classes: Self.sampleClasses)
        let context = container.viewContext
        let person = try context.insert(Person.self)
        let id = UUID()
        person.id = id
        person.firstName = "Ada"
        person.lastName = "Lovelace"
        person.updatedAt = Date(timeIntervalSince1970: 1_000)
        person.isDriving = true
        let car = try context.insert(SportCar.self)
        car.numberPlate = "AB-123"
        car.color = Color(name: "racing green")
        car.currentDrivingSpeed = 120
        car.owner = person
        try context.save()
        context.reset()

        let people = try context.fetch(Person.self, where: Person.lastName == "Lovelace")
        let fetched = try #require(people.first)
        #expect(people.count == 1)
        #expect(fetched.id == id && fetched.fullName == "Ada Lovelace")
        #expect(fetched.updatedAt == Date(timeIntervalSince1970: 1_000))
        #expect(fetched.isDriving == false, "transient: not stored")
        let cars = fetched.cars
        #expect(cars.count == 1)
        let fetchedCar = try #require(cars.first as? SportCar)
        #expect(fetchedCar.numberPlate == "AB-123")
        #expect(fetchedCar.color == Color(name: "racing green"))
        #expect(fetchedCar.owner === fetched)
        #expect(fetchedCar.model == nil && fetchedCar.currentDrivingSpeed == 0)
    }

    @Test func typedKeysFilterAndSortAcrossInheritance() throws {
        let container = try openContainer("SampleModel.xcdatamodeld", classes: Self.sampleClasses)
        let context = container.viewContext
        for (plate, model) in [("C-3", "Zeta"), ("A-1", "Alpha"), ("B-2", "Beta")] {
            let car = try context.insert(Car.self)
            (car.numberPlate, car.model) = (plate, model)
        }
        let special = try context.insert(ExpensiveSportCar.self)
        (special.numberPlate, special.model, special.isLimitedEdition) = ("D-4", "Delta", true)
        try context.save()

        let sorted = try context.fetch(Car.self, sortedBy: [Car.numberPlate.descending])
        #expect(sorted.map(\.numberPlate) == ["D-4", "C-3", "B-2", "A-1"])
        let some = try context.fetch(
            Car.self, where: Car.model.beginsWith("B") || Car.model.contains("elt"),
            sortedBy: [Car.model.ascending])
        #expect(some.map(\.model) == ["Beta", "Delta"])
        let sport = try context.fetch(SportCar.self)
        #expect(sport.count == 1 && sport.first is ExpensiveSportCar)
        #expect(try context.count(Car.self, where: Car.model == nil) == 0)
        #expect(try context.count(Car.self, where: Car.numberPlate.isIn(["A-1", "C-3"])) == 2)
    }

    @Test func toManySetAccessorsKeepInversesInStep() throws {
        let container = try openContainer("Moody.xcdatamodel", classes: MoodyModel.classes)
        let context = container.viewContext
        let continent = try context.insert(Continent.self)
        continent.numericISO3166Code = 150
        continent.updatedAt = Date(timeIntervalSince1970: 0)
        let france = try context.insert(Country.self)
        (france.numericISO3166Code, france.updatedAt) = (250, Date(timeIntervalSince1970: 0))
        let spain = try context.insert(Country.self)
        (spain.numericISO3166Code, spain.updatedAt) = (724, Date(timeIntervalSince1970: 0))
        continent.addToCountries(france)
        continent.countries.insert(spain)
        #expect(france.continent === continent && spain.continent === continent)
        let mood = try context.insert(Mood.self)
        mood.date = Date(timeIntervalSince1970: 42)
        mood.colors = ["red", "blue"]
        mood.latitude = 48.85
        france.addToMoods(mood)
        let other = try context.insert(Mood.self)
        other.date = Date(timeIntervalSince1970: 43)
        spain.moods = [other]
        #expect(other.country === spain)
        try context.save()
        context.reset()

        let countries = try context.fetch(
            Country.self, where: Country.continent.appending(Region.numericISO3166Code) == Int16(150),
            sortedBy: [Country.numericISO3166Code.ascending])
        #expect(countries.map { $0.numericISO3166Code } == [250, 724])
        #expect(countries[0].moodCount == 1)
        let fetchedMood = try #require(countries[0].moods.first)
        #expect(fetchedMood.colors as? [String] == ["red", "blue"])
        #expect(fetchedMood.latitude == 48.85 && fetchedMood.longitude == nil)
        let withMoods = try context.fetch(
            Country.self, where: Country.moods.any(Mood.latitude) > 40.0)
        #expect(withMoods.map { $0.numericISO3166Code } == [250])
        let continentAgain = try #require(countries[0].continent)
        continentAgain.removeFromCountries(countries[0])
        #expect(countries[0].continent == nil)
        #expect(continentAgain.countries.map { $0.numericISO3166Code } == [724])
    }

    @Test func abstractGeneratedClassCannotBeInserted() throws {
        let container = try openContainer("Moody.xcdatamodel", classes: MoodyModel.classes)
        #expect(throws: ObjectAccessError.self) { try container.viewContext.insert(Region.self) }
        let regions = try container.viewContext.fetch(Region.self)
        #expect(regions.isEmpty)
    }

    @Test func typedFetchOfAnUnregisteredClassIsRefusedByName() throws {
        let container = try openContainer("SampleModel.xcdatamodeld", classes: SampleModel.classes)
        let error = try #require(throws: FetchError.self) {
            try container.viewContext.fetch(ExpensiveSportCar.self)
        }
        #expect("\(error)".contains("ExpensiveSportCar is registered for no entity"))
    }
}
