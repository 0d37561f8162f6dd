import Foundation
import Testing

import Persistence

/// A uniqueness constraint ignores objects whose constrained value is nil, in memory as in
/// the store's UNIQUE index (SQLite treats NULLs as distinct).
@Suite struct UniqueNilTests {
    static func context() throws -> ManagedObjectContext {
        let model = ManagedObjectModel {
            Entity("Item") {
                Attribute("code", .string)
                Attribute("name", .string)
                UniquenessConstraint("code")
            }
        }
        return try PersistentContainer(model: model, storeURL: nil).viewContext
    }

    @Test func objectsWithoutAUniqueValueSaveTogetherAndAfterOthers() throws {
        let context = try Self.context()
        for _ in 0..<3 { _ = try context.insertObject(forEntityName: "Item") }
        try context.save()
        for _ in 0..<2 { _ = try context.insertObject(forEntityName: "Item") }
        try context.save()
        #expect(try context.count(for: FetchRequest(entityName: "Item")) == 5)
    }

    @Test func equalValuesStillConflict() throws {
        let context = try Self.context()
        for _ in 0..<2 {
            let item = try context.insertObject(forEntityName: "Item")
            item["code"] = "A"
        }
        #expect(throws: ConstraintConflictError.self) { try context.save() }
        context.rollback()
        let stored = try context.insertObject(forEntityName: "Item")
        stored["code"] = "B"
        try context.save()
        let duplicate = try context.insertObject(forEntityName: "Item")
        duplicate["code"] = "B"
        #expect(throws: ConstraintConflictError.self) { try context.save() }
    }
}
