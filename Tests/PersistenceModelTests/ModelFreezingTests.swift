import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct ModelFreezingTests {
    @Test func openingAStoreFreezesTheModel() throws {
        let model = everyTypeModel()
        #expect(!model.isFrozen)
        _ = try PersistentContainer(model: model, storeURL: nil)
        #expect(model.isFrozen)
    }

    @Test func aCopyOfAFrozenModelIsEditableAndLeavesTheOriginalAlone() throws {
        let model = everyTypeModel()
        try model.freeze()
        let copy = model.copy()
        #expect(!copy.isFrozen)
        copy.modifyEntity(named: "Book") { $0.attributes.append(AttributeDescription(name: "pages", type: .integer32)) }
        #expect(copy.entity(named: "Book")?.attribute(named: "pages") != nil)
        #expect(model.entity(named: "Book")?.attribute(named: "pages") == nil)
        #expect(copy != model)
    }

    @Test func freezingAnInvalidModelThrowsAndLeavesItEditable() throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                relationships: [RelationshipDescription(name: "author", destination: "Nobody")])
        ])
        #expect(throws: ModelError.self) { try model.freeze() }
        #expect(!model.isFrozen)
        model.entities = []
        try model.freeze()
        #expect(model.isFrozen)
    }

    @Test func frozenModelsResolveInheritedPropertiesToFixedPositions() throws {
        let model = everyTypeModel()
        try model.freeze()
        let ebook = try #require(model.schema(for: "Ebook"))
        #expect(ebook.rootName == "Book")
        #expect(ebook.properties.map(\.name) == ["title", "price", "authorName", "isbn", "author", "megabytes"])
        #expect(model.schema(for: "Book")?.hierarchyNames == ["Book", "Ebook"])
    }
}
