import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Lightweight migration, one kind of change per test: a store is filled under one model
/// version, opened with the next, and every value checked.
@Suite struct MigrationTests {
    // MARK: - Attributes

    @Test func addedOptionalAndDefaultedAttributesKeepEveryValue() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string, optional: false)
                Attribute("pages", .integer32)
                Attribute("price", .decimal)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string, optional: false)
                Attribute("pages", .integer32)
                Attribute("price", .decimal)
                Attribute("subtitle", .string)
                Attribute("rating", .integer16, optional: false, default: "3")
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, [["title": "Ficciones", "pages": 174, "price": Decimal(string: "19.99")!], ["title": "Aura", "pages": nil, "price": nil]])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1, v2])
        let books = try sorted(container, "Book", by: "title")
        #expect(books.map { $0["title"] as? String } == ["Aura", "Ficciones"])
        #expect(books[1].value(forKey: "pages", as: Int32.self) == 174)
        #expect(books[1].value(forKey: "price", as: Decimal.self) == Decimal(string: "19.99"))
        #expect(books[0]["pages"] == nil && books[0]["price"] == nil)
        #expect(books.allSatisfy { $0["subtitle"] == nil })
        #expect(books.map { $0.value(forKey: "rating", as: Int16.self) } == [3, 3])
        #expect(FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
        // The store now records v2's hashes: a plain open with v2 works, one with v1 is refused.
        _ = try PersistentContainer(model: v2.copy(), storeURL: store.url)
        #expect(throws: StoreError.self) { try PersistentContainer(model: v1.copy(), storeURL: store.url) }
    }

    @Test func aRemovedAttributeIsReportedAsDataLossAndTheRestIsKept() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("notes", .string)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("title", .string) } }
        let store = TemporaryStore()
        try fill(store, v1, [["title": "A", "notes": "n"]])
        let plans = try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans()
        #expect(plans.count == 1 && plans[0].losesData)
        #expect(plans[0].steps.map(\.description) == ["DATA LOSS: Book.notes: attribute removed: its values will be deleted"])
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        let columns = try store.rows("SELECT name FROM pragma_table_info('Book')").compactMap { $0[0].textValue }
        #expect(columns == ["_id", "_opt", "title"])
        #expect(try sorted(PersistentContainer(model: v2, storeURL: store.url), "Book", by: "title").map { $0["title"] as? String } == ["A"])
    }

    @Test func aRenameWithoutIdentifierIsRemovePlusAddAndWithOneEveryValueIsKept() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("name", .string) } }
        let plain = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("title", .string) } }
        let renamed = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") { Attribute("title", .string, renamingIdentifier: "name") }
        }
        let store = TemporaryStore()
        try fill(store, v1, [["name": "Rayuela"], ["name": "Pedro Páramo"]])
        let lossy = try StoreMigrator(storeURL: store.url, destination: plain, versions: [v1]).plans()
        #expect(lossy[0].losesData)
        #expect(lossy[0].steps.map(\.kind) == [.addAttribute, .removeAttribute])
        #expect(lossy[0].description.contains(
            "DATA LOSS: Book.name: attribute removed: its values will be deleted (if it was renamed to title, "
                + "give title the renaming identifier 'name' to keep them)"))
        let kept = try StoreMigrator(storeURL: store.url, destination: renamed, versions: [v1]).plans()
        #expect(!kept[0].losesData)
        #expect(kept[0].steps.map(\.description) == ["Book.title: renamed from name (values kept)"])
        let container = try PersistentContainer(model: renamed, storeURL: store.url, migratingFrom: [v1])
        #expect(try sorted(container, "Book", by: "title").map { $0["title"] as? String } == ["Pedro Páramo", "Rayuela"])
    }

    @Test func optionalBecomesRequiredWithItsDefaultAndRequiredBecomesOptional() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") {
            Entity("Book") {
                Attribute("title", .string, optional: false)
                Attribute("language", .string)
            }
        }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("language", .string, optional: false, default: "und")
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, [["title": "A", "language": "es"], ["title": "B", "language": nil]])
        let plan = try #require(try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans().first)
        #expect(Set(plan.steps.map(\.kind)) == [.makeRequired, .makeOptional])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        #expect(try sorted(container, "Book", by: "title").map { $0["language"] as? String } == ["es", "und"])
    }

    @Test func integersWidenAndKeepTheirValues() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("pages", .integer16) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("pages", .integer64) } }
        let store = TemporaryStore()
        try fill(store, v1, [["pages": Int16.max]])
        let container = try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        #expect(try container.viewContext.fetch(FetchRequest(entityName: "Book")).first?.value(forKey: "pages", as: Int64.self) == 32767)
    }

    // MARK: - Refusals

    @Test(arguments: [
        ("a type change", Attribute("pages", .string), "Book.pages", "its type changes from Integer 32 to String"),
        ("a new required attribute without default", Attribute("isbn", .string, optional: false), "Book.isbn",
         "the new attribute is required but has no default value"),
    ])
    func whatCannotBeInferredIsRefusedBeforeTheStoreIsTouched(
        _ change: String, _ attribute: Attribute, _ subject: String, _ reason: String
    ) throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("pages", .integer32) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                if attribute.attributeDescription.name != "pages" { Attribute("pages", .integer32) }
                attribute
            }
        }
        let store = TemporaryStore()
        try fill(store, v1, [["pages": 10], ["pages": nil]])
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: MigrationError.self, "\(change)") {
            try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [v1])
        }
        #expect(error.kind == .cannotInfer)
        #expect(error.description.contains("(\(subject))"), "\(error)")
        #expect(error.description.contains(reason), "\(error)")
        #expect(error.description.contains(store.url.path))
        #expect(try Data(contentsOf: store.url) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreMigrator.backupURL(for: store.url).path))
    }

    /// The migrator names an unknown version; opening refuses the store as another model's,
    /// with or without versions to migrate from, and leaves it untouched.
    @Test func aStoreFromAnUnknownVersionIsRefusedUntouched() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("pages", .integer32) } }
        let other = ManagedObjectModel(versionIdentifier: "x") { Entity("Book") { Attribute("pages", .integer64) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("title", .string) } }
        let store = TemporaryStore()
        try fill(store, v1, [["pages": 1]])
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: MigrationError.self) {
            try StoreMigrator(storeURL: store.url, destination: v2, versions: [other]).migrate()
        }
        #expect(error.kind == .unknownSourceModel)
        #expect(error.description.contains("match none of the 1 model versions given (x)"))
        #expect(throws: StoreError.self) { try PersistentContainer(model: v2, storeURL: store.url, migratingFrom: [other]) }
        #expect(throws: StoreError.self) { try PersistentContainer(model: v2.copy(), storeURL: store.url) }
        #expect(try Data(contentsOf: store.url) == before)
    }

    // MARK: - Helpers

    /// Creates a store with `model` and inserts one `Book` per dictionary.
    func fill(_ store: TemporaryStore, _ model: ManagedObjectModel, entity: String = "Book", _ rows: [[String: Any?]]) throws {
        let container = try PersistentContainer(model: model, storeURL: store.url)
        for row in rows {
            let object = try container.viewContext.insertObject(forEntityName: entity)
            for (key, value) in row { object[key] = value }
        }
        try container.viewContext.save()
    }

    func sorted(_ container: PersistentContainer, _ entity: String, by key: String) throws -> [ManagedObject] {
        try container.viewContext.fetch(FetchRequest(entityName: entity, sortDescriptors: [SortKey(key)]))
    }
}

extension MigrationTests {
    @Test func aStoreAnotherConnectionHoldsOpenIsNotCopiedHalfWay() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") { Entity("Book") { Attribute("heading", .string, renamingIdentifier: "title") } }
        let store = TemporaryStore()
        try fill(store, v1, [["title": "A"]])
        // A reader in the middle of a read transaction keeps the WAL from being truncated.
        let reader = try store.file.connection(mode: .mustExist)
        let writer = try PersistentContainer(model: v1.copy(), storeURL: store.url)
        let book = try writer.viewContext.insertObject(forEntityName: "Book")
        book["title"] = "B"
        try writer.viewContext.save()
        try reader.execute("BEGIN")
        _ = try reader.query("SELECT count(*) FROM Book")
        var migrator = StoreMigrator(storeURL: store.url, destination: v2, versions: [v1])
        migrator.busyTimeout = 0.05
        let error = try #require(throws: MigrationError.self) { try migrator.migrate() }
        #expect(error.kind == .backupFailed)
        #expect(error.description.contains("another connection is using it"), "\(error)")
        try reader.execute("COMMIT")
        try reader.close()
        try writer.viewContext.closeStore()
        try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).migrate()
        #expect(try store.strings(["heading"], of: "Book", v2.copy()) == [["A"], ["B"]])
    }
}

extension MigrationTests {
    /// Plans are inferred before the write lock: a migrator whose store another connection
    /// migrated meanwhile must not run them again (it would take the values written since
    /// for new, empty columns).
    @Test func plansInferredBeforeAnotherConnectionMigratedAreNotRunAgain() throws {
        let v1 = ManagedObjectModel(versionIdentifier: "1") { Entity("Book") { Attribute("title", .string) } }
        let v2 = ManagedObjectModel(versionIdentifier: "2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("note", .string)
            }
        }
        let v3 = ManagedObjectModel(versionIdentifier: "3") { Entity("Book") { Attribute("heading", .string) } }
        let store = TemporaryStore()
        try fill(store, v1, [["title": "A"]])
        let stale = try StoreMigrator(storeURL: store.url, destination: v2, versions: [v1]).plans()
        let container = try PersistentContainer(model: v2.copy(), storeURL: store.url, migratingFrom: [v1.copy()])
        let book = try #require(try container.viewContext.fetch(FetchRequest(entityName: "Book")).first)
        book["note"] = "written after the migration"
        try container.viewContext.save()
        try container.viewContext.closeStore()

        let database = try store.file.connection(mode: .mustExist)
        try StoreMigrator.run(stale, on: database)
        #expect(try database.query("SELECT note FROM Book") == [[.text("written after the migration")]])
        // A store at neither end of the plans is refused.
        let other = try StoreMigrator.plans(
            from: v3.entityVersionHashesByName.mapValues(\.hexString), to: v1.copy(), versions: [v3])
        let error = try #require(throws: MigrationError.self) { try StoreMigrator.run(other, on: database) }
        #expect(error.description.contains("its version hashes changed while the migration waited for it"))
        try database.close()
    }
}
