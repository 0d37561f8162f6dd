import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct StoreOpeningTests {
    private func model(extraAttribute: String? = nil, transformer: String? = nil) -> ManagedObjectModel {
        var attributes = [AttributeDescription(name: "key", type: .string)]
        if let extraAttribute { attributes.append(AttributeDescription(name: extraAttribute, type: .string)) }
        if let transformer {
            attributes.append(AttributeDescription(name: "color", type: .transformable, valueTransformerName: transformer))
        }
        return ManagedObjectModel(entities: [
            EntityDescription(name: "Thing", attributes: attributes, uniquenessConstraints: [["key"]])
        ])
    }

    @Test func aModelNamingAnUnregisteredTransformerFailsAtOpen() throws {
        let store = TemporaryStore()
        let error = try #require(throws: StoreError.self) {
            try PersistentContainer(model: model(transformer: "NoSuchTransformer"), storeURL: store.url)
        }
        #expect("\(error)".contains("'NoSuchTransformer'"))
        #expect("\(error)".contains("Thing.color"))
        #expect(!FileManager.default.fileExists(atPath: store.url.path), "nothing is created")
    }

    @Test func aStoreWrittenWithAnotherModelIsRefusedUntouched() throws {
        let store = TemporaryStore()
        do {
            let container = try PersistentContainer(model: model(), storeURL: store.url)
            try container.viewContext.insertObject(forEntityName: "Thing")["key"] = "a"
            try container.viewContext.save()
        }
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: StoreError.self) {
            try PersistentContainer(model: model(extraAttribute: "added"), storeURL: store.url)
        }
        #expect("\(error)".contains("entity Thing changed"))
        #expect("\(error)".contains(store.url.path))
        #expect(try Data(contentsOf: store.url) == before)
        // The original model still opens it.
        let again = try PersistentContainer(model: model(), storeURL: store.url)
        #expect(try again.viewContext.count(for: FetchRequest(entityName: "Thing")) == 1)
    }

    @Test func aMissingDirectoryIsNamedAndNothingIsCreated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        let error = try #require(throws: StoreError.self) {
            try PersistentContainer(model: model(), storeURL: directory.appendingPathComponent("s.sqlite"))
        }
        #expect("\(error)" == "The directory \(directory.path) does not exist")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func objectTrumpNeverAdoptsARowForANilUniqueValue() throws {
        let container = try PersistentContainer(model: model(), storeURL: nil)
        let context = container.viewContext
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.insertObject(forEntityName: "Thing")
        try context.save()
        try context.insertObject(forEntityName: "Thing")
        try context.save()
        // A UNIQUE index treats NULLs as distinct: two rows, not one upserted row.
        #expect(try context.count(for: FetchRequest(entityName: "Thing")) == 2)
    }
}
