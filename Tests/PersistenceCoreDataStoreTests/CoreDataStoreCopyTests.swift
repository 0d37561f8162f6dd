import Foundation
import Persistence
import PersistenceContext
import PersistenceCoreDataStore
import PersistenceModel
import PersistenceSQLite
import PersistenceStore
import Testing

/// `StoreCopier`, what `persistence-tool store convert` runs: a Persistence store copied into
/// Core Data's layout and back a page at a time (pages of three rows here, so that every
/// entity spans several) keeps every object, its key, its values, its to-ones (to a
/// sub-entity too), the order of ordered to-manys (kept through the inverse's column and in a
/// join table) and the links of many-to-manys, exactly.
@Suite struct CoreDataStoreCopyTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Person") {
                Attribute("name", .string)
                Attribute("born", .date)
                Attribute("height", .double)
                Attribute("photo", .binaryData)
                Relationship("cars", to: "Car", inverse: "owner", toMany: true, ordered: true)
                Relationship("favorite", to: "Car", inverse: "fans")
                Relationship("books", to: "Book", inverse: "authors", toMany: true)
            }
            Entity("Car") {
                Attribute("plate", .string)
                Attribute("price", .decimal)
                Relationship("owner", to: "Person", inverse: "cars")
                Relationship("fans", to: "Person", inverse: "favorite", toMany: true)
                Relationship("tags", to: "Tag", inverse: "cars", toMany: true)
            }
            Entity("SportCar", parent: "Car") {
                Attribute("topSpeed", .integer32)
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("authors", to: "Person", inverse: "books", toMany: true, ordered: true)
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("cars", to: "Car", inverse: "tags", toMany: true)
            }
        }
    }

    /// A folder of its own, removed by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A Persistence store of 7 people, 14 cars (every third a sports car), 9 books and 4
    /// tags, with orders that are not key order and a few objects deleted (so keys have gaps).
    static func filledStore(at url: URL, model: ManagedObjectModel) throws {
        let container = try PersistentContainer(model: model, storeURL: url)
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        var people: [ManagedObject] = []
        for n in 0..<7 {
            let person = try context.insertObject(forEntityName: "Person")
            try person.setValue("person \(n)", forKey: "name")
            try person.setValue(Date(timeIntervalSinceReferenceDate: Double(n) * 86_400.5), forKey: "born")
            try person.setValue(1.5 + Double(n) / 10, forKey: "height")
            if n % 2 == 0 { try person.setValue(Data([UInt8(n), 0, 255]), forKey: "photo") }
            people.append(person)
        }
        var tags: [ManagedObject] = []
        for n in 0..<4 {
            let tag = try context.insertObject(forEntityName: "Tag")
            try tag.setValue("tag \(n)", forKey: "name")
            tags.append(tag)
        }
        var cars: [ManagedObject] = []
        for n in 0..<14 {
            let car = try context.insertObject(forEntityName: n % 3 == 0 ? "SportCar" : "Car")
            try car.setValue("CAR-\(n)", forKey: "plate")
            try car.setValue(Decimal(string: "\(n)0.25"), forKey: "price")
            if n % 3 == 0 { try car.setValue(Int64(200 + n), forKey: "topSpeed") }
            // Each owner's list newest first: not key order.
            if n != 13 { try people[n % 4].insertObject(car, at: 0, forKey: "cars") }
            for (index, tag) in tags.enumerated() where (n + index) % 3 == 0 { car.addObject(tag, forKey: "tags") }
            cars.append(car)
        }
        for (n, person) in people.enumerated() where n != 6 {
            person.setObject(cars[(n * 5) % 14], forKey: "favorite")
        }
        for n in 0..<9 {
            let book = try context.insertObject(forEntityName: "Book")
            try book.setValue("book \(n)", forKey: "title")
            // Authors in an order of their own: the last person first.
            for index in stride(from: n % 4, through: 0, by: -1) {
                book.addObject(people[(n + index) % 7], forKey: "authors")
            }
        }
        try context.save()
        // Gaps in the keys.
        context.delete(cars[4])
        let dropped = try context.insertObject(forEntityName: "Book")
        try dropped.setValue("dropped", forKey: "title")
        try context.save()
        context.delete(dropped)
        try context.save()
    }

    /// Every object of the store as a line: its entity and key, its values, its to-ones'
    /// destinations and its to-manys' (in order for an ordered one), by their entity and key.
    static func snapshot(_ url: URL, model: ManagedObjectModel) throws -> [String] {
        let container = try PersistentContainer(model: model, storeURL: url, readOnly: true)
        defer { try? container.persistentStoreCoordinator.close() }
        let context = container.viewContext
        func name(_ object: ManagedObject?) -> String {
            object.map { "\($0.entityName)/\($0.objectID.primaryKey ?? -1)" } ?? "nil"
        }
        var lines: [String] = []
        for entity in model.entities.map(\.name).sorted() {
            var request = FetchRequest(entityName: entity)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                var fields = [name(object)]
                let schema = try #require(model.schema(for: entity))
                for property in schema.properties {
                    switch property {
                    case .attribute(let attribute):
                        fields.append("\(attribute.name)=\(object.value(forKey: attribute.name).map { "\($0)" } ?? "nil")")
                    case .relationship(let relationship) where relationship.isToMany:
                        var names = object.objects(forKey: relationship.name).map(name)
                        if !relationship.isOrdered { names.sort() }
                        fields.append("\(relationship.name)=[\(names.joined(separator: ","))]")
                    case .relationship(let relationship):
                        fields.append("\(relationship.name)=\(name(object.object(forKey: relationship.name)))")
                    }
                }
                lines.append(fields.joined(separator: " "))
            }
        }
        return lines.sorted()
    }

    /// Copies `from` into the new store `to` in pages of three.
    static func copy(_ from: URL, into to: URL, model: ManagedObjectModel) throws -> Int {
        let source = try PersistentContainer(model: model, storeURL: from, readOnly: true)
        defer { try? source.persistentStoreCoordinator.close() }
        let destination = try PersistentContainer(model: model, storeURL: to)
        defer { try? destination.persistentStoreCoordinator.close() }
        var copier = StoreCopier(from: source.persistentStoreCoordinator, to: destination.persistentStoreCoordinator)
        copier.pageSize = 3
        return try copier.copy()
    }

    @Test func aCopyIntoCoreDataLayoutAndBackKeepsEveryObjectKeyAndLinkExactly() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = Self.model()
        let original = folder.appendingPathComponent("original.sqlite")
        try Self.filledStore(at: original, model: model)
        let expected = try Self.snapshot(original, model: model)
        #expect(expected.count == 7 + 13 + 9 + 4)
        #expect(expected.contains { $0.hasPrefix("Person/") && $0.contains("cars=[") && !$0.contains("cars=[]") })

        let coreData = folder.appendingPathComponent("CoreData.sqlite")
        try CoreDataStore.create(model: model, at: coreData)
        #expect(try Self.copy(original, into: coreData, model: model) == expected.count)
        #expect(CoreDataStore.isCoreDataStore(at: coreData))
        #expect(try Self.snapshot(coreData, model: model) == expected)
        // Z_MAX is the largest key copied, so that a new object never takes a copied key.
        let database = try Database(path: coreData.path, mode: .readOnly)
        let maxima = try database.query("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_NAME")
        try database.close()
        #expect(maxima.map { "\($0[0].stringValue ?? "") \($0[1].int64Value ?? -1)" } == ["Book 9", "Car 14", "Person 7", "Tag 4"])

        let back = folder.appendingPathComponent("back.sqlite")
        #expect(try Self.copy(coreData, into: back, model: model) == expected.count)
        #expect(!CoreDataStore.isCoreDataStore(at: back))
        #expect(try Self.snapshot(back, model: model) == expected)

        // A save into the copy gives a new key, after every copied one.
        let container = try PersistentContainer(model: model, storeURL: coreData)
        let car = try container.viewContext.insertObject(forEntityName: "Car")
        try container.viewContext.save()
        #expect(car.objectID.primaryKey == 15)
        try container.persistentStoreCoordinator.close()
    }

    @Test func aCopyIntoAStoreThatHoldsObjectsIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = Self.model()
        let original = folder.appendingPathComponent("original.sqlite")
        try Self.filledStore(at: original, model: model)
        let coreData = folder.appendingPathComponent("CoreData.sqlite")
        try CoreDataStore.create(model: model, at: coreData)
        _ = try Self.copy(original, into: coreData, model: model)
        #expect(throws: StoreCopyError.self) { try Self.copy(original, into: coreData, model: model) }
    }
}
