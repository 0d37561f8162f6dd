import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Lightweight migration of relationships: added, removed, renamed, to-one ↔ to-many and
/// ordered ↔ unordered, with every link checked after the store is reopened.
@Suite struct MigrationRelationshipTests {
    /// Car.owner (to-one) ↔ Person.cars (to-many), with optional extras.
    static func carsAndPeople(
        version: String, carOwner: Relationship = Relationship("owner", to: "Person", inverse: "cars"),
        personCars: Relationship = Relationship("cars", to: "Car", inverse: "owner", toMany: true),
        extra: Relationship? = nil
    ) -> ManagedObjectModel {
        ManagedObjectModel(versionIdentifier: version) {
            Entity("Car") {
                Attribute("plate", .string)
                carOwner
            }
            Entity("Person") {
                Attribute("name", .string)
                personCars
                if let extra { extra }
            }
        }
    }

    /// Ana owns cars A and B; Bo owns C; D has no owner; Cy owns nothing.
    func fill(_ store: TemporaryStore, _ model: ManagedObjectModel, ownerKey: String = "owner") throws {
        let container = try PersistentContainer(model: model, storeURL: store.url)
        let context = container.viewContext
        var people: [String: ManagedObject] = [:]
        for name in ["Ana", "Bo", "Cy"] {
            people[name] = try context.insertObject(forEntityName: "Person")
            people[name]?["name"] = name
        }
        for (plate, owner) in [("A", "Ana"), ("B", "Ana"), ("C", "Bo"), ("D", nil)] as [(String, String?)] {
            let car = try context.insertObject(forEntityName: "Car")
            car["plate"] = plate
            if let owner, let person = people[owner] { car.setObject(person, forKey: ownerKey) }
        }
        try context.save()
    }

    /// Each car's plate and its owner's name, read back through `key`.
    func owners(_ container: PersistentContainer, key: String = "owner") throws -> [String: String] {
        var result: [String: String] = [:]
        for car in try container.viewContext.fetch(FetchRequest(entityName: "Car")) {
            result[car["plate"] as? String ?? "?"] = car.object(forKey: key)?["name"] as? String ?? "-"
        }
        return result
    }

    func cars(_ container: PersistentContainer, key: String = "cars") throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for person in try container.viewContext.fetch(FetchRequest(entityName: "Person")) {
            result[person["name"] as? String ?? "?"] = person.objects(forKey: key).compactMap { $0["plate"] as? String }.sorted()
        }
        return result
    }

    @Test func renamedRelationshipsKeepEveryLink() throws {
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = Self.carsAndPeople(
            version: "2", carOwner: Relationship("driver", to: "Person", inverse: "vehicles", renamingIdentifier: "owner"),
            personCars: Relationship("vehicles", to: "Car", inverse: "driver", toMany: true, renamingIdentifier: "cars"))
        let store = TemporaryStore()
        try fill(store, v1)
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.map(\.description) == [
            "Car.driver: renamed from owner (links kept)", "Person.vehicles: renamed from cars (links kept)",
        ])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        #expect(try owners(container, key: "driver") == ["A": "Ana", "B": "Ana", "C": "Bo", "D": "-"])
        #expect(try cars(container, key: "vehicles") == ["Ana": ["A", "B"], "Bo": ["C"], "Cy": []])
    }

    @Test func addedAndRemovedRelationships() throws {
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = Self.carsAndPeople(version: "2", extra: Relationship("favourite", to: "Car"))
        let store = TemporaryStore()
        try fill(store, v1)
        let added = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(added.steps.map(\.description) == ["Person.favourite: new relationship to Car"])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        #expect(try owners(container) == ["A": "Ana", "B": "Ana", "C": "Bo", "D": "-"])
        // Removing the pair of relationships again loses the links, and says so.
        let v3 = ManagedObjectModel(versionIdentifier: "3") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("Person") { Attribute("name", .string) }
        }
        let removed = try #require(try StoreMigrator(storeURL: store.url, destination: v3, versions: [v1, v2]).plans().first)
        #expect(removed.losesData)
        #expect(removed.steps.filter(\.losesData).map { "\($0.entity).\($0.property ?? "")" } == [
            "Car.owner", "Person.cars", "Person.favourite",
        ])
        let after = try PersistentContainer(model: v3, storeURL: store.url, migratingFrom: [v1, v2])
        #expect(try after.viewContext.fetch(FetchRequest(entityName: "Car")).count == 4)
        #expect(try store.rows("SELECT name FROM pragma_table_info('Car')").compactMap { $0[0].textValue } == ["_id", "_opt", "plate"])
    }

    @Test func toOneAndToManySwapSidesAndKeepEveryLink() throws {
        // v1: a person has many cars, a car one owner. v2: a car has many keyholders, a
        // person one car — the key column moves from Car to Person.
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = Self.carsAndPeople(
            version: "2",
            carOwner: Relationship("owners", to: "Person", inverse: "car", toMany: true, renamingIdentifier: "owner"),
            personCars: Relationship("car", to: "Car", inverse: "owners", renamingIdentifier: "cars"))
        let store = TemporaryStore()
        // Every person owns at most one car here.
        do {
            let container = try PersistentContainer(model: v1, storeURL: store.url)
            let context = container.viewContext
            for (name, plate) in [("Ana", "A"), ("Bo", "B"), ("Cy", nil)] as [(String, String?)] {
                let person = try context.insertObject(forEntityName: "Person")
                person["name"] = name
                let car = try context.insertObject(forEntityName: "Car")
                car["plate"] = plate ?? "C"
                if plate != nil { car.setObject(person, forKey: "owner") }
            }
            try context.save()
        }
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.contains { $0.kind == .changeCardinality && $0.property == "car" })
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        var links: [String: String] = [:]
        for person in try container.viewContext.fetch(FetchRequest(entityName: "Person")) {
            links[person["name"] as? String ?? "?"] = person.object(forKey: "car")?["plate"] as? String ?? "-"
        }
        #expect(links == ["Ana": "A", "Bo": "B", "Cy": "-"])
        #expect(try cars(container, key: "owners").isEmpty == false)
        var holders: [String: [String]] = [:]
        for car in try container.viewContext.fetch(FetchRequest(entityName: "Car")) {
            holders[car["plate"] as? String ?? "?"] = car.objects(forKey: "owners").compactMap { $0["name"] as? String }
        }
        #expect(holders == ["A": ["Ana"], "B": ["Bo"], "C": []])
    }

    @Test func toManyBecomingToOneIsRefusedNamingTheObjectsWithSeveral() throws {
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = Self.carsAndPeople(
            version: "2",
            carOwner: Relationship("owners", to: "Person", inverse: "car", toMany: true, renamingIdentifier: "owner"),
            personCars: Relationship("car", to: "Car", inverse: "owners", renamingIdentifier: "cars"))
        let store = TemporaryStore()
        try fill(store, v1)  // Ana owns two cars
        try checkpoint(store)
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: MigrationError.self) {
            try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        }
        #expect(error.kind == .tooManyDestinations)
        #expect(error.description.contains("(Person.car)"), "\(error)")
        let ana = try #require(store.rows("SELECT _id FROM Person WHERE name = 'Ana'").first?[0].int64Value)
        let anasCars = try store.rows("SELECT group_concat(_id, ', ') FROM (SELECT _id FROM Car WHERE owner = \(ana) ORDER BY _id)")
        #expect(error.description.contains("Person \(ana) has Car \(anasCars[0][0].textValue ?? "")"), "\(error)")
        #expect(try Data(contentsOf: store.url) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
        // The store still opens with its own model, every link in place.
        #expect(try owners(PersistentContainer(model: v1.copy(), storeURL: store.url)) == ["A": "Ana", "B": "Ana", "C": "Bo", "D": "-"])
    }

    @Test func orderedAndUnorderedSwapKeepingTheOrder() throws {
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = Self.carsAndPeople(version: "2", personCars: Relationship("cars", to: "Car", inverse: "owner", toMany: true, ordered: true))
        let store = TemporaryStore()
        try fill(store, v1)
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.map(\.description) == ["Person.cars: becomes ordered (current order kept)"])
        do {
            let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
            #expect(try cars(container) == ["Ana": ["A", "B"], "Bo": ["C"], "Cy": []])
            let ana = try #require(try container.viewContext.fetch(
                FetchRequest(entityName: "Person", predicate: try FetchPredicate("name == %@", "Ana"))).first)
            #expect(ana.objects(forKey: "cars").compactMap { $0["plate"] as? String } == ["A", "B"])
            // Reorder, then go back to unordered: the links stay.
            let b = ana.objects(forKey: "cars")[1]
            ana.removeObject(b, forKey: "cars")
            ana.addObject(b, forKey: "cars")
            try container.viewContext.save()
        }
        let v3 = Self.carsAndPeople(version: "3")
        let container = try PersistentContainer(model: v3, storeURL: store.url, migratingFrom: [v1, v2, v3])
        #expect(try cars(container) == ["Ana": ["A", "B"], "Bo": ["C"], "Cy": []])
        #expect(try owners(container) == ["A": "Ana", "B": "Ana", "C": "Bo", "D": "-"])
    }

    @Test func aRelationshipToAnUnrelatedEntityIsRefused() throws {
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Car") {
                Attribute("plate", .string)
                Relationship("owner", to: "Garage")
            }
            Entity("Person") { Attribute("name", .string) }
            Entity("Garage") { Attribute("name", .string) }
        }
        let store = TemporaryStore()
        try fill(store, v1)
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans()
        }
        #expect(error.description.contains("(Car.owner)"))
        #expect(error.description.contains("it pointed at Person and now points at Garage, an unrelated entity"))
    }

    /// Moves the WAL into the file, so that its bytes are the whole store.
    func checkpoint(_ store: TemporaryStore) throws {
        let database = try store.file.connection(mode: .mustExist)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try database.close()
    }
}

extension MigrationRelationshipTests {
    /// Car.owners ↔ Person.cars, many-to-many, renamed as given.
    static func manyToMany(version: String, cars: String = "cars", owners: String = "owners", ids: (String?, String?) = (nil, nil))
        -> ManagedObjectModel
    {
        carsAndPeople(
            version: version,
            carOwner: Relationship(owners, to: "Person", inverse: cars, toMany: true, renamingIdentifier: ids.0),
            personCars: Relationship(cars, to: "Car", inverse: owners, toMany: true, renamingIdentifier: ids.1))
    }

    @Test func aToOneBecomesManyToManyAndARenamedJoinTableKeepsEveryLink() throws {
        let v1 = Self.carsAndPeople(version: "1")
        let v2 = Self.manyToMany(version: "2", ids: ("owner", nil))
        let v3 = Self.manyToMany(version: "3", cars: "vehicles", owners: "drivers", ids: ("owners", "cars"))
        let store = TemporaryStore()
        try fill(store, v1)
        let expected = ["Ana": ["A", "B"], "Bo": ["C"], "Cy": []]
        do {
            let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1, v2])
            #expect(try cars(container) == expected)
            var holders: [String: [String]] = [:]
            for car in try container.viewContext.fetch(FetchRequest(entityName: "Car")) {
                holders[car["plate"] as? String ?? "?"] = car.objects(forKey: "owners").compactMap { $0["name"] as? String }
            }
            #expect(holders == ["A": ["Ana"], "B": ["Ana"], "C": ["Bo"], "D": []])
            // A second owner for C, then the rename to v3.
            let cy = try #require(try container.viewContext.fetch(
                FetchRequest(entityName: "Person", predicate: try FetchPredicate("name == %@", "Cy"))).first)
            let c = try #require(try container.viewContext.fetch(
                FetchRequest(entityName: "Car", predicate: try FetchPredicate("plate == %@", "C"))).first)
            cy.addObject(c, forKey: "cars")
            try container.viewContext.save()
        }
        let container = try PersistentContainer(model: v3, storeURL: store.url, migratingFrom: [v1, v2, v3])
        #expect(try cars(container, key: "vehicles") == ["Ana": ["A", "B"], "Bo": ["C"], "Cy": ["C"]])
        let tables = try store.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0[0].textValue }
        #expect(tables.contains("Car_drivers") && !tables.contains("Car_owners"), "\(tables)")
        // Back to to-one: refused while car C has two owners, naming it.
        let v4 = Self.carsAndPeople(
            version: "4", carOwner: Relationship("owner", to: "Person", inverse: "cars", renamingIdentifier: "drivers"),
            personCars: Relationship("cars", to: "Car", inverse: "owner", toMany: true, renamingIdentifier: "vehicles"))
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v4, versions: [v1, v2, v3]).dryRun()
        }
        #expect(error.kind == .tooManyDestinations)
        #expect(error.description.contains("(Car.owner): it becomes to-one, but some objects have more than one destination (Car "), "\(error)")
    }
}

extension MigrationRelationshipTests {
    @Test func aNewCountOverAManyToManyIsComputedFromTheJoinTable() throws {
        let v1 = Self.manyToMany(version: "1")
        let v2 = Self.carsAndPeople(
            version: "2", carOwner: Relationship("owners", to: "Person", inverse: "cars", toMany: true),
            personCars: Relationship("cars", to: "Car", inverse: "owners", toMany: true))
        v2.modifyEntity(named: "Person") {
            $0.attributes.append(AttributeDescription(name: "carCount", type: .integer32, derivationExpression: "cars.@count"))
        }
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: v1, storeURL: store.url)
            let context = container.viewContext
            var cars: [ManagedObject] = []
            for plate in ["A", "B", "C"] {
                let car = try context.insertObject(forEntityName: "Car")
                car["plate"] = plate
                cars.append(car)
            }
            for (name, count) in [("Ana", 3), ("Bo", 1), ("Cy", 0)] {
                let person = try context.insertObject(forEntityName: "Person")
                person["name"] = name
                for car in cars.prefix(count) { person.addObject(car, forKey: "cars") }
            }
            try context.save()
        }
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let people = try container.viewContext.fetch(FetchRequest(entityName: "Person", sortDescriptors: [SortKey("name")]))
        #expect(people.map { $0.value(forKey: "carCount", as: Int32.self) } == [3, 1, 0])
        #expect(try cars(container) == ["Ana": ["A", "B", "C"], "Bo": ["A"], "Cy": []])
    }
}
