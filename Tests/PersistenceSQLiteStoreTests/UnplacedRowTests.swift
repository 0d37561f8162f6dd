import Foundation
import PersistenceTestSupport
import Persistence
import PersistenceSQLite
import Testing

/// A row of a hierarchy's table whose `_entity` was edited by hand to name no entity of the
/// hierarchy: every fetch that reaches the table refuses it, naming the row, rather than
/// passing over it (a fetch of one entity would otherwise just be one row short).
@Suite struct UnplacedRowTests {
    static let model = ManagedObjectModel {
        Entity("Media") { Attribute("name", .string) }
        Entity("Photo", parent: "Media") { Attribute("width", .integer32) }
        Entity("Recording", parent: "Media") { Attribute("seconds", .integer32) }
    }

    @Test(arguments: ["Boat", "Person"])
    func everyFetchReachingTheTableRefusesTheRow(_ entity: String) throws {
        let folder = try ExternalStorageFolder()
        do {
            let context = try folder.open(model: Self.model).viewContext
            for name in ["a", "b", "c"] {
                let photo = try context.insertObject(forEntityName: "Photo")
                photo["name"] = name
            }
            let recording = try context.insertObject(forEntityName: "Recording")
            recording["name"] = "r"
            try context.save()
        }
        do {
            let database = try Database(path: folder.storeURL.path, mode: .mustExist)
            defer { try? database.close() }
            try database.execute("UPDATE Media SET _entity = '\(entity)' WHERE _id = 2")
        }
        let context = try folder.open(readOnly: true, model: Self.model).viewContext
        for request in [
            FetchRequest(entityName: "Media"), FetchRequest(entityName: "Photo"),
            FetchRequest(entityName: "Recording"),
        ] {
            let error = try #require(throws: StoreError.self) { try context.fetch(request) }
            #expect(
                error.description.hasPrefix("Row Media/p2 has _entity '\(entity)', which names no entity of Media's hierarchy"),
                "\(request.entityName): \(error)")
            // A count of the whole table counts the row; one of some entities cannot tell.
            if request.entityName != "Media" {
                #expect(throws: StoreError.self) { try context.count(for: request) }
            }
        }
    }
}
