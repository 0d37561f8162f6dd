import BookCatalog
import Foundation
import Persistence
import Testing

/// The catalogue's generated classes carry their key-path tables (written by the build
/// plugin), so that typed fetches of books, authors and tags run in the store.
@Suite struct CatalogTypedFetchTests {
    @Test func generatedTablesNameEveryStoredPropertyOfTheCatalogueEntities() throws {
        let model = try Catalog.loadModel()
        let tables: [String: [AnyKeyPath: String]] = [
            "Book": Book.propertyNamesByKeyPath, "Author": Author.propertyNamesByKeyPath,
            "Tag": Tag.propertyNamesByKeyPath,
        ]
        for (entityName, table) in tables {
            let entity = try #require(model.entity(named: entityName))
            let names = entity.attributes.filter { $0.type != .objectID }.map(\.name) + entity.relationships.map(\.name)
            #expect(Set(table.values) == Set(names), "\(entityName)")
        }
        #expect(Book.propertyNamesByKeyPath[\Book.title] == "title")
        #expect(Book.propertyNamesByKeyPath[\Book.authors] == "authors")
        #expect(Author.propertyNamesByKeyPath[\Author.name] == "name")
    }

    @Test func typedFetchesOfTheCatalogueMatchTheirPredicateStrings() throws {
        let catalog = try Catalog(storeURL: nil)
        _ = try catalog.seed(try Catalog.bundledSeedBooks())
        let context = catalog.context
        let typed = try context.fetch(
            FetchDescriptor<Book>(
                predicate: #Predicate { $0.authors.contains(where: { $0.name.starts(with: "G") }) && $0.price != nil },
                sortBy: [SortDescriptor(\.title), SortDescriptor(\.uuid)]))
        let strings = try context.fetch(
            FetchRequest(
                entityName: "Book", predicate: try FetchPredicate("ANY authors.name BEGINSWITH 'G' AND price != nil"),
                sortDescriptors: [SortKey("title"), SortKey("uuid")]))
        #expect(!typed.isEmpty)
        #expect(typed.map(\.objectID) == strings.map(\.objectID))
        let first = try #require(typed.first)
        #expect(try catalog.existingBook(uuid: first.uuid) === first)
    }
}
