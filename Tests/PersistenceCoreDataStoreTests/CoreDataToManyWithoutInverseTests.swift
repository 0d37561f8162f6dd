import Foundation
import Persistence
import PersistenceCoreDataStore
import PersistenceSQLite
import Testing

/// A to-many without an inverse, which Core Data keeps in a column of the destination's table
/// named `Z`, the source entity's number and the relationship's name, checked on a store Core
/// Data wrote: CartKit's `CartStorage_v1.sqlite` (in the corpus, `Tests/Fixtures/CoreDataStores/`),
/// where `CDCartItem.modifiers` is `ZCDCARTITEMMODIFIER.Z2MODIFIERS`. Opened here with a model
/// of the entities' properties these tests need; the corpus tests open it with its own.
@Suite struct CoreDataToManyWithoutInverseTests {
    static let store = CoreDataCorpus.folder.appendingPathComponent("CartKit-CartStorage_v1.sqlite")
    static let item = "FEAA2483-308A-4FFC-84F0-67CECDE471D0"

    /// CartKit's entities, with the properties these tests need.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("CDCart") {
                Attribute("id", .string)
                Relationship("items", to: "CDCartItem", inverse: "cart", toMany: true)
            }
            Entity("CDCartItem") {
                Attribute("id", .string)
                Relationship("cart", to: "CDCart", inverse: "items")
                Relationship("modifiers", to: "CDCartItemModifier", toMany: true)
            }
            Entity("CDCartItemModifier") {
                Attribute("id", .string)
                Attribute("name", .string)
            }
        }
    }

    /// A copy of the store in a folder of its own.
    static func copy() throws -> (folder: URL, url: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cartkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("CartStorage_v1.sqlite")
        try FileManager.default.copyItem(at: store, to: url)
        return (folder, url)
    }

    static func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        let database = try Database(path: url.path, mode: .readOnly)
        defer { try? database.close() }
        return try database.query(query)
    }

    /// Its own compiled model has an attribute named `context`, which Core Data allows (it is
    /// no member of `NSManagedObject`, nor of `ManagedObject`): it is read, the file as it was.
    @Test func itsCompiledModelWithAnAttributeNamedContextOpens() throws {
        let (folder, url) = try Self.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: url)
        let model = try CoreDataStore.storedModel(at: url)
        #expect(model.entities.contains { entity in entity.attributes.contains { $0.name == "context" } })
        #expect(try Data(contentsOf: url) == before)
    }

    /// The store opens (no join table is looked for), modifiers added to the item are written
    /// to their rows' `Z2MODIFIERS`, read back after reopening, and one removed is unlinked;
    /// deleting the item unlinks the rest.
    @Test func aToManyWithoutAnInverseIsKeptInItsDestinationsColumn() throws {
        let (folder, url) = try Self.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        var container = try PersistentContainer(model: Self.model(), storeURL: url)
        var context = container.viewContext
        let item = try #require(try context.fetch(FetchRequest(entityName: "CDCartItem", predicate: try FetchPredicate("id == '\(Self.item)'"))).first)
        #expect(item.objects(forKey: "modifiers").isEmpty)
        #expect(item.object(forKey: "cart") != nil)
        for name in ["extra cheese", "no onions"] {
            let modifier = try context.insertObject(forEntityName: "CDCartItemModifier")
            try modifier.setValue(name, forKey: "name")
            item.addObject(modifier, forKey: "modifiers")
        }
        try context.save()
        let itemKey = try #require(item.objectID.primaryKey)
        #expect(try Self.sql(url, "SELECT ZNAME, Z2MODIFIERS FROM ZCDCARTITEMMODIFIER ORDER BY Z_PK") == [
            [.text("extra cheese"), .integer(itemKey)], [.text("no onions"), .integer(itemKey)],
        ])
        #expect(try Self.sql(url, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Z\\_2%' ESCAPE '\\'") == [[.integer(0)]])
        try container.persistentStoreCoordinator.close()

        container = try PersistentContainer(model: Self.model(), storeURL: url)
        context = container.viewContext
        let reread = try context.existingObject(with: item.objectID)
        let modifiers = reread.objects(forKey: "modifiers")
        #expect(Set(modifiers.compactMap { $0.value(forKey: "name") as? String }) == ["extra cheese", "no onions"])
        let onions = try #require(modifiers.first { $0.value(forKey: "name") as? String == "no onions" })
        reread.removeObject(onions, forKey: "modifiers")
        try context.save()
        #expect(try Self.sql(url, "SELECT ZNAME, Z2MODIFIERS FROM ZCDCARTITEMMODIFIER ORDER BY Z_PK") == [
            [.text("extra cheese"), .integer(itemKey)], [.text("no onions"), .null],
        ])
        context.delete(reread)
        try context.save()
        #expect(try Self.sql(url, "SELECT Z2MODIFIERS FROM ZCDCARTITEMMODIFIER WHERE Z2MODIFIERS IS NOT NULL").isEmpty)
        #expect(try Self.sql(url, "SELECT count(*) FROM ZCDCARTITEM") == [[.integer(0)]])
        try container.persistentStoreCoordinator.close()
    }
}
