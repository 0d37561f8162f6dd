import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// An attribute made required, as Core Data's lightweight migration does it: with a default,
/// objects without a value get it; without one, the migration goes through when every object
/// has a value and is refused, naming how many and which objects, when some have none.
@Suite struct MigrationRequiredValueTests {
    static var v1: ManagedObjectModel {
        ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("isbn", .string)
            }
        }
    }
    static var v2: ManagedObjectModel {
        ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("isbn", .string, optional: false)
            }
        }
    }

    @Test func optionalBecomesRequiredWithoutDefaultWhenEveryObjectHasAValue() throws {
        let store = TemporaryStore()
        try fill(store, Self.v1, "Book", [["title": "Aura", "isbn": "968-411-007-6"], ["title": "Ficciones", "isbn": "84-206-1188-9"]])
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: Self.v2, versions: [Self.v1]).plans().first)
        #expect(plan.steps.map(\.description) == ["Book.isbn: becomes required (no default value: refused if an object has no value)"])
        let container = try PersistentContainer(model: Self.v2, storeURL: store.url, migratingFrom: [Self.v1])
        let books = try container.viewContext.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]))
        #expect(books.map { $0["isbn"] as? String } == ["968-411-007-6", "84-206-1188-9"])
        #expect(try store.rows("SELECT value FROM _metadata WHERE key = 'modelVersion'")[0][0].textValue == "2")
    }

    @Test func objectsWithoutAValueRefuseTheMigrationNamingHowManyAndWhich() throws {
        let store = TemporaryStore()
        var rows: [[String: Any?]] = [["title": "Aura", "isbn": "968-411-007-6"]]
        for index in 1...6 { rows.append(["title": "Untitled \(index)", "isbn": nil]) }
        try fill(store, Self.v1, "Book", rows)
        let before = try Data(contentsOf: store.url)
        for attempt in [true, false] {
            let migrator = StoreMigrator(storeURL: store.url, destination: Self.v2, versions: [Self.v1])
            let error = try #require(throws: MigrationError.self) {
                if attempt { _ = try migrator.dryRun() } else { try migrator.migrate() }
            }
            #expect(error.kind == .invalidData)
            #expect(error.entity == "Book" && error.property == "isbn")
            #expect(error.description == "The store \(store.url.path) can't be migrated (Book.isbn): it becomes "
                + "required and has no default value, but 6 Book objects have no value (2 (title = 'Untitled 1'), "
                + "3 (title = 'Untitled 2'), 4 (title = 'Untitled 3'), 5 (title = 'Untitled 4'), "
                + "6 (title = 'Untitled 5'), …); give it a default value in the new model, or give those objects a "
                + "value before migrating; the migration was rolled back and the store is as it was")
            #expect(try Data(contentsOf: store.url) == before)
            #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
        }
        // Opening with migration refuses too, and the old model still reads every book.
        #expect(throws: MigrationError.self) {
            try PersistentContainer(model: Self.v2, storeURL: store.url, migratingFrom: [Self.v1])
        }
        #expect(try Data(contentsOf: store.url) == before)
        #expect(try PersistentContainer(model: Self.v1.copy(), storeURL: store.url).viewContext
            .fetch(FetchRequest(entityName: "Book")).count == 7)
    }

    @Test func oneObjectWithoutAValueIsNamedByKeyWhenNothingIdentifiesIt() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Reading") { Attribute("pages", .integer32) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Reading") { Attribute("pages", .integer32, optional: false) }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Reading", [["pages": 10], ["pages": nil], ["pages": 30]])
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        }
        #expect(error.description.contains("(Reading.pages): it becomes required and has no default value, but "
            + "1 Reading object has no value (2);"), "\(error)")
    }

    /// Single-table inheritance: the rows of other entities in the table have no column
    /// value for a sub-entity's attribute, and do not count.
    @Test func onlyTheEntitysOwnObjectsAreChecked() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("RaceCar", parent: "Car") { Attribute("team", .string) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("RaceCar", parent: "Car") { Attribute("team", .string, optional: false) }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Car", [["plate": "C1"], ["plate": "C2"]])
        try fill(store, v1, "RaceCar", [["plate": "R1", "team": "Ferrari"]])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let cars = try container.viewContext.fetch(FetchRequest(entityName: "RaceCar"))
        #expect(cars.map { $0["team"] as? String } == ["Ferrari"])

        let other = TemporaryStore()
        try fill(other, v1, "Car", [["plate": "C1"]])
        try fill(other, v1, "RaceCar", [["plate": "R1", "team": nil]])
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: other.url, destination: v2, versions: [v1]).migrate()
        }
        #expect(error.description.contains("1 RaceCar object has no value (2 (plate = 'R1'))"), "\(error)")
    }

    /// With a default value, objects without a value get it: an optional attribute made
    /// required, and a required attribute that gains a default while its table is rebuilt
    /// (a NULL written behind the model's back, by the `sqlite3` shell).
    @Test func aDefaultValueFillsEveryMissingValue() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("language", .string)
                Attribute("edition", .integer16, optional: false)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("language", .string, optional: false, default: "und")
                Attribute("edition", .integer16, optional: false, default: "1")
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Book", [
            ["title": "A", "language": "es", "edition": Int16(2)], ["title": "B", "language": nil, "edition": Int16(3)],
        ])
        let database = try store.file.connection(mode: .mustExist)
        try database.execute("UPDATE Book SET edition = NULL WHERE title = 'B'")
        try database.close()
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.map(\.description) == ["Book.language: becomes required; objects without a value get the default und"])
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        #expect(try store.strings(["title", "language"], of: "Book", v2.copy()) == [["A", "es"], ["B", "und"]])
        #expect(try store.values("edition", as: Int16.self, of: "Book", v2.copy(), sortedBy: "title") == [2, 1])
    }

    /// A to-one made required: as for an attribute, refused only when an object has no
    /// destination (a reference to an object that is gone counts as none).
    @Test func aToOneMadeRequiredIsRefusedOnlyWhenAnObjectHasNoDestination() throws {
        func model(_ version: String, optional: Bool) -> ManagedObjectModel {
            ManagedObjectModel(versionIdentifier: version) {
                Entity("Author") {
                    Attribute("name", .string)
                    Relationship("books", to: "Book", inverse: "author", toMany: true)
                }
                Entity("Book") {
                    Attribute("title", .string)
                    Relationship("author", to: "Author", inverse: "books", optional: optional)
                }
            }
        }
        let v1 = model("1", optional: true), v2 = model("2", optional: false)
        let plan = try MigrationPlan.infer(from: v1, to: v2)
        #expect(plan.steps.map(\.description) == ["Book.author: becomes required (refused if an object has no destination)"])
        #expect(try MigrationPlan.infer(from: v2.copy(), to: v1.copy()).steps.map(\.kind) == [.makeOptional])

        for orphans in [0, 1] {
            let store = TemporaryStore()
            let context = try PersistentContainer(model: v1.copy(), storeURL: store.url).viewContext
            let author = try context.make("Author", "Borges")
            for title in ["Ficciones", "El Aleph"] { try context.make("Book", title).setObject(author, forKey: "author") }
            if orphans > 0 { _ = try context.make("Book", "Anonymous") }
            try context.save()
            try context.closeStore()
            let before = try Data(contentsOf: store.url)
            let migrator = StoreMigrator(storeURL: store.url, destination: v2.copy(), versions: [v1.copy()])
            if orphans == 0 {
                try migrator.migrate()
                #expect(try store.count("Book", v2.copy(), where: "author != nil") == 2)
            } else {
                let error = try #require(throws: MigrationError.self) { try migrator.migrate() }
                #expect(error.kind == .invalidData)
                #expect(error.description.contains("(Book.author): the relationship becomes required, but 1 Book "
                    + "object has no destination (3 (title = 'Anonymous')); give those objects a destination"), "\(error)")
                #expect(try Data(contentsOf: store.url) == before)
            }
        }
    }

    // MARK: - Helpers

    func fill(_ store: TemporaryStore, _ model: ManagedObjectModel, _ entity: String, _ rows: [[String: Any?]]) throws {
        let container = try PersistentContainer(model: model.copy(), storeURL: store.url)
        for row in rows {
            let object = try container.viewContext.insertObject(forEntityName: entity)
            for (key, value) in row { object[key] = value }
        }
        try container.viewContext.save()
    }
}
