import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Lightweight migration of entities, hierarchies, hash modifiers, indexes, uniqueness
/// constraints, derived attributes, and progressive migration through several versions.
@Suite struct MigrationEntityTests {
    @Test func entitiesAddedRemovedAndRenamedThroughTheirIdentifier() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Writer") { Attribute("name", .string) }
            Entity("Scratch") { Attribute("note", .string) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Author", renamingIdentifier: "Writer") { Attribute("name", .string) }
            Entity("Publisher") { Attribute("name", .string) }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Writer", [["name": "Borges"], ["name": "Cortázar"]])
        try fill(store, v1, "Scratch", [["note": "x"]])
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.map(\.description) == [
            "Author: renamed from Writer (objects kept)",
            "Publisher: new entity; it starts with no objects",
            "DATA LOSS: Scratch: entity removed: its objects and their values will be deleted",
        ])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let authors = try container.viewContext.fetch(FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")]))
        #expect(authors.map { $0["name"] as? String } == ["Borges", "Cortázar"])
        let tables = try store.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0[0].textValue }
        #expect(tables == ["Author", "Publisher", "_metadata", "_primarykey"])
        // New objects get keys after the old ones: the key counter followed the rename.
        let author = try container.viewContext.insertObject(forEntityName: "Author")
        author["name"] = "Onetti"
        try container.viewContext.save()
        #expect(try store.rows("SELECT max(_id) FROM Author")[0][0].int64Value == 3)
    }

    @Test func subEntitiesKeepTheirRowsThroughARenameAndANewSibling() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("SportCar", parent: "Car") { Attribute("topSpeed", .integer32) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("RaceCar", parent: "Car", renamingIdentifier: "SportCar") {
                Attribute("topSpeed", .integer32)
                Attribute("team", .string, default: "none")
            }
            Entity("Van", parent: "Car") { Attribute("seats", .integer16, default: "9") }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Car", [["plate": "C1"]])
        try fill(store, v1, "SportCar", [["plate": "S1", "topSpeed": 300]])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let cars = try container.viewContext.fetch(FetchRequest(entityName: "Car", sortDescriptors: [SortKey("plate")]))
        #expect(cars.map(\.entity.name) == ["Car", "RaceCar"])
        #expect(cars[1].value(forKey: "topSpeed", as: Int32.self) == 300)
        #expect(cars[1]["team"] as? String == "none")
        #expect(try store.rows("SELECT team, seats FROM Car WHERE plate = 'C1'")[0] == [.null, .null])
    }

    @Test func anEntityMovingInItsHierarchyIsRefused() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("Truck") { Attribute("plate", .string) }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Car") { Attribute("plate", .string) }
            Entity("Truck", parent: "Car")
        }
        let error = try #require(throws: MigrationError.self) { try MigrationPlan.infer(from: v1, to: v2) }
        #expect(error.description.contains("(entity Truck): it was a root entity and is now under Car"))
    }

    @Test func aHashModifierAloneChangesOnlyTheRecordedHashes() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book", versionHashModifier: "2") { Attribute("title", .string) }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Book", [["title": "A"]])
        let schemaBefore = try store.rows("SELECT sql FROM sqlite_master ORDER BY name")
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(plan.steps.map(\.description) == ["Book: version hash modifier changed (no schema change)"])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        #expect(try container.viewContext.fetch(FetchRequest(entityName: "Book")).first?["title"] as? String == "A")
        #expect(try store.rows("SELECT sql FROM sqlite_master ORDER BY name") == schemaBefore)
        #expect(try store.rows("SELECT value FROM _metadata WHERE key = 'versionHash.Book'")[0][0].textValue
            == v2.entityVersionHashesByName["Book"]?.hexString)
        #expect(try store.rows("SELECT value FROM _metadata WHERE key = 'modelVersion'")[0][0].textValue == "2")
    }

    @Test func indexesAndUniqueConstraintsAreAddedAndRemoved() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("isbn", .string)
                Attribute("title", .string, indexed: true)
                UniquenessConstraint("title")
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("isbn", .string)
                Attribute("title", .string)
                UniquenessConstraint("isbn")
                FetchIndex("byTitle", "title", "isbn")
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Book", [["isbn": "1", "title": "A"], ["isbn": "2", "title": "B"], ["isbn": nil, "title": "C"]])
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(Set(plan.steps.map(\.kind)) == [.addUniqueConstraint, .removeUniqueConstraint, .addIndex, .removeIndex])
        _ = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let indexes = try store.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            .compactMap { $0[0].textValue }
        #expect(indexes == ["Book_byTitle", "Book_unique_isbn"])
    }

    @Test func aNewConstraintThatExistingObjectsViolateIsRefusedNamingThem() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("isbn", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("isbn", .string)
                UniquenessConstraint("isbn")
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Book", [["isbn": "9780"], ["isbn": "9780"], ["isbn": "1"], ["isbn": nil], ["isbn": nil]])
        try checkpoint(store)
        let before = try Data(contentsOf: store.url)
        let dryRun = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).dryRun()
        }
        #expect(dryRun.kind == .constraintViolated)
        let ids = try store.rows("SELECT group_concat(_id, ', ') FROM (SELECT _id FROM Book WHERE isbn = '9780' ORDER BY _id)")[0][0]
        #expect(dryRun.description.contains(
            "(entity Book): existing objects violate the uniqueness constraint (isbn): objects \(ids.textValue ?? "") share isbn = '9780'"),
            "\(dryRun)")
        #expect(throws: MigrationError.self) { try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1]) }
        #expect(try Data(contentsOf: store.url) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
    }

    @Test func derivedValuesAreRecomputedFromTheirSources() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("price", .decimal)
                Relationship("author", to: "Author", inverse: "books")
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Author") {
                Attribute("name", .string)
                Attribute("canonicalName", .string, derived: "canonical:(name)")
                Attribute("bookCount", .integer64, derived: "books.@count")
                Attribute("total", .decimal, derived: "books.@sum.price")
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("price", .decimal)
                Attribute("upperTitle", .string, derived: "uppercase:(title)")
                Attribute("authorName", .string, derived: "author.name")
                Relationship("author", to: "Author", inverse: "books")
            }
        }
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: v1, storeURL: store.url)
            let context = container.viewContext
            let author = try context.insertObject(forEntityName: "Author")
            author["name"] = "Gabriel García Márquez"
            for (title, price) in [("Cien años", "10.10"), ("El otoño", "0.01")] {
                let book = try context.insertObject(forEntityName: "Book")
                book["title"] = title
                book["price"] = Decimal(string: price)
                book.setObject(author, forKey: "author")
            }
            try context.save()
        }
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        let author = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Author")).first)
        #expect(author["canonicalName"] as? String == CanonicalText.fold("Gabriel García Márquez"))
        #expect(author.value(forKey: "bookCount", as: Int64.self) == 2)
        #expect(author.value(forKey: "total", as: Decimal.self) == Decimal(string: "10.11"))
        let books = try container.viewContext.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]))
        #expect(books.map { $0["upperTitle"] as? String } == ["CIEN AÑOS", "EL OTOÑO"])
        #expect(books.map { $0["authorName"] as? String } == ["Gabriel García Márquez", "Gabriel García Márquez"])
    }

    @Test func progressiveMigrationFollowsRenamesThroughEveryVersion() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("name", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") { Attribute("title", .string, renamingIdentifier: "name") }
        }
        let v3 = ManagedObjectModel(versionIdentifier: "3") {
            Entity("Work", renamingIdentifier: "Book") {
                Attribute("heading", .string, renamingIdentifier: "title")
                Attribute("year", .integer16, default: "0")
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, "Book", [["name": "Rayuela"]])
        let plans = try StoreMigrator(storeURL: store.url, destination: v3, versions: [v1, v2, v3]).plans()
        #expect(plans.map { "\($0.sourceVersionName)→\($0.destinationVersionName)" } == ["1→2", "2→3"])
        #expect(!plans.contains { $0.losesData })
        let container = try PersistentContainer(model: v3, storeURL: store.url, migratingFrom: [v1, v2, v3])
        let work = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Work")).first)
        #expect(work["heading"] as? String == "Rayuela")
        #expect(work.value(forKey: "year", as: Int16.self) == 0)
        // Opening again with the current model is a plain open: nothing to migrate.
        #expect(try StoreMigrator(storeURL: store.url, destination: v3, versions: [v1, v2, v3]).plans().isEmpty)
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

    func checkpoint(_ store: TemporaryStore) throws {
        let database = try store.file.connection(mode: .mustExist)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try database.close()
    }
}

extension MigrationEntityTests {
    @Test func anIndexAddedOrRemovedAloneIsSyncedThoughTheHashesAreEqual() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("year", .integer16, indexed: true)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string, indexed: true)
                Attribute("year", .integer16)
            }
        }
        #expect(v1.entityVersionHashesByName == v2.entityVersionHashesByName)
        let store = TemporaryStore()
        try fill(store, v1, "Book", [["title": "A", "year": 1963]])
        let plans = try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).plans()
        #expect(plans.flatMap(\.steps).map(\.description) == [
            "Book: index Book_title_index added", "Book: index Book_year_index removed",
        ])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1, v2])
        #expect(try container.viewContext.fetch(FetchRequest(entityName: "Book")).first?["title"] as? String == "A")
        let indexes = try store.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        #expect(indexes.compactMap { $0[0].textValue } == ["Book_title_index"])
        #expect(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1, v2]).plans().isEmpty)
    }
}
