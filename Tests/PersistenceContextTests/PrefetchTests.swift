import Foundation
import Testing

import Persistence

@testable import PersistenceContext

/// `relationshipKeyPathsForPrefetching`: one store read per key path loads the named
/// relationships of every fetched object, which then use them without reading, and see
/// exactly what loading them one object at a time sees.
@Suite struct PrefetchTests {
    /// What each book's relationships hold, loaded one object at a time in a context of its own.
    private static func loadedOneByOne(_ context: ManagedObjectContext) throws -> [String] {
        context.reset()
        return try context.fetch(LargeFetchFixture.byTitle).map(Self.describe)
    }

    private static func describe(_ book: ManagedObject) -> String {
        let author = (book.object(forKey: "author")?["name"] as? String) ?? "-"
        let tags = book.objects(forKey: "tags").compactMap { $0["name"] as? String }.sorted()
        let chapters = book.objects(forKey: "chapters").compactMap { $0["name"] as? String }
        return "\(author) \(tags) \(chapters)"
    }

    @Test func aToOneLoadsForEveryObjectInOneRead() throws {
        let (store, context) = try LargeFetchFixture.make(count: 60, authors: 12)
        var request = LargeFetchFixture.byTitle
        request.relationshipKeyPathsForPrefetching = ["author"]
        let books = try context.fetch(request)
        #expect(store.reads == ["forEachRow": 1, "rows(for:)": 1])
        let names = books.map { $0.object(forKey: "author")?["name"] as? String }
        #expect(store.reads == ["forEachRow": 1, "rows(for:)": 1])
        #expect(names.compactMap { $0 }.count == 54)
        #expect(Set(names.compactMap { $0 }).count == 12)
    }

    @Test func toManysLoadForEveryObjectInOneReadEach() throws {
        let (store, context) = try LargeFetchFixture.make(count: 30)
        var request = LargeFetchFixture.byTitle
        // Through the inverse's column (author.books is its inverse), a join table (tags),
        // and an ordered join table (chapters).
        request.relationshipKeyPathsForPrefetching = ["tags", "chapters", "author"]
        let books = try context.fetch(request)
        #expect(store.reads == ["forEachRow": 1, "destinationRows": 2, "rows(for:)": 1])
        let seen = books.map(Self.describe)
        #expect(store.reads == ["forEachRow": 1, "destinationRows": 2, "rows(for:)": 1])
        #expect(seen == (try Self.loadedOneByOne(context)))
        #expect(store["forEachDestinationRow"] == 60)
    }

    @Test func aDottedPathPrefetchesEachStepFromTheLast() throws {
        let (store, context) = try LargeFetchFixture.make(count: 40, authors: 4)
        var request = FetchRequest(entityName: "Chapter", sortDescriptors: [SortKey("name")])
        request.relationshipKeyPathsForPrefetching = ["book.author.books"]
        let chapters = try context.fetch(request)
        #expect(store.reads == ["forEachRow": 1, "rows(for:)": 2, "destinationRows": 1])
        let counts = chapters.map { $0.object(forKey: "book")?.object(forKey: "author")?.objects(forKey: "books").count ?? 0 }
        #expect(store.reads == ["forEachRow": 1, "rows(for:)": 2, "destinationRows": 1])
        // Authors 0 and 2 wrote ten books, 1 and 3 eight; four books have no author.
        #expect(counts.filter { $0 == 10 }.count == 60 && counts.filter { $0 == 8 }.count == 48)
        #expect(counts.filter { $0 == 0 }.count == 12)
    }

    @Test func unsavedEditsOfAToManyAreKept() throws {
        let (_, context) = try LargeFetchFixture.make(count: 10, authors: 2)
        let author = try context.fetch(FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")]))[0]
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "New"
        book.setObject(author, forKey: "author")
        var request = FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")])
        request.relationshipKeyPathsForPrefetching = ["books"]
        let authors = try context.fetch(request)
        #expect(authors[0] === author)
        let titles = author.objects(forKey: "books").compactMap { $0["title"] as? String }
        #expect(titles.count == 6 && titles.last == "New")
    }

    @Test func aKeyPathThatIsNotARelationshipFailsBeforeAnythingIsPrefetched() throws {
        let (store, context) = try LargeFetchFixture.make(count: 5)
        for keyPath in ["title", "nope", "author.name", "author.books.nope"] {
            var request = LargeFetchFixture.byTitle
            request.relationshipKeyPathsForPrefetching = [keyPath]
            #expect(throws: FetchError.self) { try context.fetch(request) }
        }
        #expect(store.totalReads == 0)
    }

    @Test func defaultStoreReadsPrefetchTheSame() throws {
        let (store, context) = try LargeFetchFixture.make(count: 20, usesDefaultReads: true)
        var request = LargeFetchFixture.byTitle
        request.relationshipKeyPathsForPrefetching = ["tags", "chapters", "author"]
        let seen = try context.fetch(request).map(Self.describe)
        let reads = store.totalReads
        #expect(seen == (try Self.loadedOneByOne(context)))
        #expect(reads > 20)
    }
}
