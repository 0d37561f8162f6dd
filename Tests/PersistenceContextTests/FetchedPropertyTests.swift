import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Fetched properties: a lazily evaluated fetch request with `$FETCH_SOURCE`, read through
/// `value(forKey:)`, kept until the object is refreshed (Core Data's semantics).
@Suite struct FetchedPropertyTests {
    /// A shelf with two thin books and one thick one, saved, and a book on no shelf.
    static func shelf() throws -> (container: PersistentContainer, shelf: ManagedObject) {
        let container = try SeedRulesModel.container()
        let context = container.viewContext
        let shelf = try context.insertObject(forEntityName: "Shelf")
        var books: [ManagedObject] = []
        for (title, pages) in [("Thin", 50), ("Thinner", 20), ("Thick", 900)] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
            book["pages"] = Int32(pages)
            books.append(book)
        }
        try shelf.setValue(Array(books.prefix(3)), forKey: "books")
        let elsewhere = try context.insertObject(forEntityName: "Book")
        elsewhere["title"] = "Loose"
        elsewhere["pages"] = Int32(10)
        try context.save()
        return (container, shelf)
    }

    static func titles(_ value: Any?) -> [String] {
        ((value as? [ManagedObject]) ?? []).compactMap { $0["title"] as? String }.sorted()
    }

    @Test func aFetchedPropertyIsEvaluatedOnAccessWithItsSource() throws {
        let (container, shelf) = try Self.shelf()
        #expect(Self.titles(shelf.value(forKey: "thinBooks")) == ["Thin", "Thinner"])
        #expect(try shelf.fetchedObjects(forKey: "thinBooks").count == 2)
        withExtendedLifetime(container) {}
    }

    @Test func theResultIsKeptUntilTheObjectIsRefreshed() throws {
        let (container, shelf) = try Self.shelf()
        let context = container.viewContext
        #expect(Self.titles(shelf["thinBooks"]) == ["Thin", "Thinner"])
        let thick = try #require(try context.fetch(FetchRequest(entityName: "Book", predicate: FetchPredicate("title == 'Thick'"))).first)
        thick["pages"] = Int32(30)
        try context.save()
        // Not kept current: the same result until the shelf is refreshed.
        #expect(Self.titles(shelf["thinBooks"]) == ["Thin", "Thinner"])
        context.refresh(shelf, mergeChanges: true)
        #expect(Self.titles(shelf["thinBooks"]) == ["Thick", "Thin", "Thinner"])
    }

    @Test func anUnknownFetchedPropertyThrowsAndReadsNil() throws {
        let (container, shelf) = try Self.shelf()
        defer { withExtendedLifetime(container) {} }
        #expect(shelf.value(forKey: "fatBooks") == nil)
        let error = try #require(throws: ObjectAccessError.self) { try shelf.fetchedObjects(forKey: "fatBooks") }
        #expect("\(error)".contains("Shelf has no fetched property named 'fatBooks'"))
    }

    @Test func aPredicateWithoutVariablesRunsInTheStore() throws {
        let model = ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book", attributes: [AttributeDescription(name: "pages", type: .integer32)],
                fetchedProperties: [FetchedPropertyDescription(name: "longBooks", entityName: "Book", predicateString: "pages > 100")])
        ])
        let container = try PersistentContainer(model: model, storeURL: nil)
        let context = container.viewContext
        let short = try context.insertObject(forEntityName: "Book")
        short["pages"] = Int32(10)
        let long = try context.insertObject(forEntityName: "Book")
        long["pages"] = Int32(500)
        try context.save()
        #expect((short["longBooks"] as? [ManagedObject])?.map(\.objectID) == [long.objectID])
    }
}
