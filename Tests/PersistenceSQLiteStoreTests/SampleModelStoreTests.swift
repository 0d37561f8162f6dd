import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// CoreDataPlus's `SampleModel` through the library API, with a transformer registered for
/// its transformable `Car.color`: open, insert, save, reopen and read back every attribute.
@Suite struct SampleModelStoreTests {
    /// The app type `Car.color` holds (`customClassName="Color"`).
    struct Color: Equatable {
        var red: UInt8, green: UInt8, blue: UInt8
    }

    /// `ColorTransformer`: three bytes; anything else is refused, never crashed on.
    struct ColorTransformer: ValueTransforming {
        struct Refused: Error {}
        func transformedValue(_ value: any Sendable) throws -> Data {
            guard let color = value as? Color else { throw Refused() }
            return Data([color.red, color.green, color.blue])
        }
        func reverseTransformedValue(_ data: Data) throws -> any Sendable {
            guard data.count == 3 else { throw Refused() }
            let bytes = Array(data)
            return Color(red: bytes[0], green: bytes[1], blue: bytes[2])
        }
    }

    @Test func archivesReadTransformableBytesWithTheRegisteredTransformer() throws {
        ValueTransformers.register(ColorTransformer(), forName: "ColorTransformer")
        let model = try ManagedObjectModel(
            contentsOf: ModelFixtures.sampleBundle, version: "SampleModel")
        let context = try PersistentContainer(model: model, storeURL: nil).viewContext
        let json = #"{"Car": [{"@id": "c", "numberPlate": "AB-123", "color": "AQL/"}]}"#
        let car = try #require(try StoreArchive.importJSON(Data(json.utf8), into: context).first)
        #expect(car.value(forKey: "color") as? Color == Color(red: 1, green: 2, blue: 255))
        #expect(try StoreArchive.exportJSON(from: context).contains(#""color": "AQL/""#))
        let bad = #"{"Car": [{"@id": "d", "numberPlate": "X", "color": "AQ=="}]}"#
        let error = try #require(throws: StoreArchiveError.self) {
            try StoreArchive.importJSON(Data(bad.utf8), into: context)
        }
        #expect(error.location == "$.Car[0].color" && error.localID == "d")
        #expect(
            error.reason.hasPrefix(
                "the bytes are not a value the transformer 'ColorTransformer' can read"))
    }

    /// Stored bytes the transformer cannot read make a fetch throw, naming the row's own
    /// entity (a sub-entity's row in its root's table too), the attribute and the transformer;
    /// rows whose bytes are readable are still read.
    @Test func undecodableTransformableBytesMakeAFetchThrowNamingEntityAndAttribute() throws {
        ValueTransformers.register(ColorTransformer(), forName: "ColorTransformer")
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.sampleBundle, version: "SampleModel")
        let file = TemporaryStore()
        do {
            let container = try PersistentContainer(model: model, storeURL: file.url)
            let context = container.viewContext
            let person = try context.insertObject(forEntityName: "Person")
            try person.setValue("Ada", forKey: "firstName")
            try person.setValue(UUID(), forKey: "id")
            try person.setValue(Date(timeIntervalSince1970: 0), forKey: "updatedAt")
            for (entity, plate) in [("Car", "AB-1"), ("Car", "AB-2"), ("ExpensiveSportCar", "LUX-1")] {
                let car = try context.insertObject(forEntityName: entity)
                try car.setValue(plate, forKey: "numberPlate")
                try car.setTransformableValue(Color(red: 1, green: 2, blue: 3), forKey: "color")
                try car.setValue(person, forKey: "owner")
            }
            try context.save()
        }
        let database = try file.file.connection(mode: .mustExist)
        try database.execute("UPDATE Car SET color = x'01' WHERE numberPlate IN ('AB-1', 'LUX-1')")
        try database.close()

        let context = try PersistentContainer(model: model, storeURL: file.url).viewContext
        for (plate, entity) in [("AB-1", "Car"), ("LUX-1", "ExpensiveSportCar")] {
            let request = FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == %@", plate))
            let error = try #require(throws: ValueTransformerError.self) { try context.fetch(request) }
            #expect(error.attribute == "\(entity).color")
            #expect(error.transformerName == "ColorTransformer")
            #expect(error.reason.hasPrefix("the stored bytes could not be decoded"))
        }
        let readable = FetchRequest(entityName: "Car", predicate: try FetchPredicate("numberPlate == 'AB-2'"))
        #expect(try context.fetch(readable).first?.value(forKey: "color") as? Color == Color(red: 1, green: 2, blue: 3))
    }

    @Test func everyAttributeIsReadBackAfterReopening() throws {
        ValueTransformers.register(ColorTransformer(), forName: "ColorTransformer")
        let model = try ManagedObjectModel(
            contentsOf: ModelFixtures.sampleBundle, version: "SampleModel")
        let file = TemporaryStore()
        let updatedAt = try DateText.parseISO8601("2024-02-29T23:59:59.123456Z")
        let marked = try DateText.parseISO8601("1969-07-20T20:17:40.5Z")
        let personID = UUID()
        do {
            let container = try PersistentContainer(model: model, storeURL: file.url)
            let context = container.viewContext
            let person = try context.insertObject(forEntityName: "Person")
            try person.setValue("Ada", forKey: "firstName")
            try person.setValue("Lovelace", forKey: "lastName")
            try person.setValue(personID, forKey: "id")
            try person.setValue(updatedAt, forKey: "updatedAt")
            try person.setValue(true, forKey: "isDriving")
            let car = try context.insertObject(forEntityName: "Car")
            try car.setValue("AB-123", forKey: "numberPlate")
            try car.setValue("Fiat", forKey: "maker")
            try car.setValue("500", forKey: "model")
            try car.setValue(marked, forKey: "markedForDeletionAsOf")
            try car.setTransformableValue(Color(red: 1, green: 2, blue: 255), forKey: "color")
            try car.setValue(88, forKey: "currentDrivingSpeed")
            try car.setValue(person, forKey: "owner")
            let expensive = try context.insertObject(forEntityName: "ExpensiveSportCar")
            try expensive.setValue("LUX-1", forKey: "numberPlate")
            try expensive.setValue(true, forKey: "isLimitedEdition")
            try expensive.setValue(person, forKey: "owner")
            try context.save()
            #expect(
                car.value(forKey: "currentDrivingSpeed", as: Int64.self) == 88,
                "a transient is kept across a save")
        }
        // The colour is the transformer's bytes in the file.
        #expect(
            try file.rows("SELECT color FROM Car WHERE numberPlate = 'AB-123'") == [
                [.blob(Data([1, 2, 255]))]
            ])

        let reopened = try PersistentContainer(model: model, storeURL: file.url)
        defer { try? reopened.viewContext.closeStore() }
        let context = reopened.viewContext
        let people = try context.fetch(FetchRequest(entityName: "Person"))
        let person = try #require(people.first)
        #expect(people.count == 1)
        #expect(person.value(forKey: "firstName", as: String.self) == "Ada")
        #expect(person.value(forKey: "lastName", as: String.self) == "Lovelace")
        #expect(person.value(forKey: "id", as: UUID.self) == personID)
        #expect(person.value(forKey: "updatedAt", as: Date.self) == updatedAt)
        #expect(
            person.value(forKey: "isDriving", as: Bool.self) != true, "a transient is not stored")
        let cars = try context.fetch(
            FetchRequest(entityName: "Car", sortDescriptors: [SortKey("numberPlate")]))
        #expect(cars.map(\.entityName) == ["Car", "ExpensiveSportCar"])
        let car = cars[0]
        #expect(car.value(forKey: "numberPlate", as: String.self) == "AB-123")
        #expect(car.value(forKey: "maker", as: String.self) == "Fiat")
        #expect(car.value(forKey: "model", as: String.self) == "500")
        #expect(car.value(forKey: "markedForDeletionAsOf", as: Date.self) == marked)
        #expect(car.value(forKey: "color") as? Color == Color(red: 1, green: 2, blue: 255))
        #expect(
            car.value(forKey: "currentDrivingSpeed", as: Int64.self) != 88,
            "a transient is not stored")
        #expect(car.object(forKey: "owner") === person)
        #expect(cars[1].value(forKey: "isLimitedEdition", as: Bool.self) == true)
        #expect(
            Set(person.objects(forKey: "cars").map(ObjectIdentifier.init))
                == Set(cars.map(ObjectIdentifier.init)))
    }
}
