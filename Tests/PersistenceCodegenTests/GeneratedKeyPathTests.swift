import Foundation
import Persistence
import Testing

/// The key-path tables the build plugin generates (`PropertyKeyPathNaming`), used by typed
/// fetches: a `#Predicate` or `SortDescriptor` on a generated property runs in the store
/// with no hand-written table, across inheritance and for Category/Extension classes.
@Suite struct GeneratedKeyPathTests {
    @Test func generatedTablesNameEveryPropertyIncludingInheritedOnes() {
        // Car is the topmost generated class: its table lists SportCar's key paths too.
        #expect(Car.propertyNamesByKeyPath[\Car.numberPlate] == "numberPlate")
        #expect(Car.propertyNamesByKeyPath[\Car.owner] == "owner")
        #expect(Car.propertyNamesByKeyPath[\SportCar.currentDrivingSpeed] == "currentDrivingSpeed")
        #expect(Car.propertyNamesByKeyPath[\SportCar.numberPlate] == "numberPlate")
        // Category/Extension classes carry the table as well.
        #expect(Person.propertyNamesByKeyPath[\Person.lastName] == "lastName")
        #expect(Person.propertyNamesByKeyPath[\Person.cars] == "cars")
        #expect(Region.propertyNamesByKeyPath[\Country.moods] == "moods")
        #expect(Region.propertyNamesByKeyPath[\Continent.countries] == "countries")
    }

    @Test func typedFetchesOfGeneratedClassesRunInTheStore() throws {
        let container = try openContainer("SampleModel.xcdatamodeld", classes: GeneratedClassesTests.sampleClasses)
        let context = container.viewContext
        let person = try context.insert(Person.self)
        (person.firstName, person.lastName) = ("Ada", "Lovelace")
        (person.id, person.updatedAt) = (UUID(), Date(timeIntervalSince1970: 0))
        for (plate, model, speed) in [("C-3", "Zeta", 90), ("A-1", "Alpha", 150), ("B-2", "Beta", 200)] {
            let car = try context.insert(SportCar.self)
            (car.numberPlate, car.model, car.currentDrivingSpeed) = (plate, model, Int64(speed))
            car.owner = plate == "B-2" ? nil : person
        }
        let plain = try context.insert(Car.self)
        (plain.numberPlate, plain.model) = ("E-5", "Epsilon")
        try context.save()
        context.reset()

        let fast = try context.fetch(
            FetchDescriptor<SportCar>(
                predicate: #Predicate { $0.model != "Zeta" },
                sortBy: [SortDescriptor(\.numberPlate, order: .reverse)]))
        #expect(fast.map(\.numberPlate) == ["B-2", "A-1"])
        let owned = try context.fetch(
            FetchDescriptor<Car>(
                predicate: #Predicate { $0.owner?.lastName == "Lovelace" }, sortBy: [SortDescriptor(\.model)]))
        #expect(owned.map(\.model) == ["Alpha", "Zeta"])
        let people = FetchDescriptor<Person>(
            predicate: #Predicate { $0.cars.contains(where: { ($0.model ?? "").starts(with: "Z") }) })
        #expect(try context.fetch(people).map(\.fullName) == ["Ada Lovelace"])
        #expect(try context.fetchCount(FetchDescriptor<Car>(predicate: #Predicate { $0.model != nil })) == 4)
    }

    @Test func aHandWrittenSubclassOfAGeneratedClassNamesItsOwnKeyPaths() throws {
        let container = try openContainer("SampleModel.xcdatamodeld", classes: GeneratedClassesTests.sampleClasses)
        let context = container.viewContext
        for (plate, limited) in [("X-1", true), ("X-2", false)] {
            let car = try context.insert(ExpensiveSportCar.self)
            (car.numberPlate, car.isLimitedEdition) = (plate, limited)
        }
        try context.save()
        let limited = try context.fetch(
            FetchDescriptor<ExpensiveSportCar>(
                predicate: #Predicate { $0.isLimitedEdition }, sortBy: [SortDescriptor(\.numberPlate)]))
        #expect(limited.map(\.numberPlate) == ["X-1"])
    }

    @Test func aKeyPathNoTableNamesIsAnErrorNamingIt() throws {
        let container = try openContainer("SampleModel.xcdatamodeld", classes: GeneratedClassesTests.sampleClasses)
        // ExpensiveSportCar names its own key paths but not the inherited `model`.
        let descriptor = FetchDescriptor<ExpensiveSportCar>(predicate: #Predicate { $0.model == "Delta" })
        let error = try #require(throws: TypedPredicateTranslationError.self) {
            try container.viewContext.fetch(descriptor)
        }
        #expect(error.root == "ExpensiveSportCar")
        #expect(error.description.contains("a key path from ExpensiveSportCar to Optional<String> names no property"))
    }
}
