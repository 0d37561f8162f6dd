import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// The contract's **Fetches** clause: `forEachRow`, `count(for:)` and `objectIDs(for:)`
/// answer a `FetchRequest` as `PredicateEvaluator` and `FetchSorter` answer it in memory.
@Suite struct FetchConformanceTests {
    /// Requests over the library that touch each part of a fetch: sub-entities in and out,
    /// sort keys of each type with ties, nil, NaN and infinities, folding, decimals, key
    /// paths through to-one and to-many relationships, and windows.
    static func requests() throws -> [(name: String, request: FetchRequest)] {
        func request(
            _ entity: String = "Book", where format: String? = nil, sort: [SortKey] = [],
            limit: Int? = nil, offset: Int = 0, subentities: Bool = true
        ) throws -> FetchRequest {
            var request = FetchRequest(
                entityName: entity, predicate: try format.map { try FetchPredicate($0) },
                sortDescriptors: sort, fetchLimit: limit)
            request.fetchOffset = offset
            request.includesSubentities = subentities
            return request
        }
        return [
            ("every book, sub-entities in", try request()),
            ("books without sub-entities", try request(subentities: false)),
            ("the sub-entity alone", try request("Ebook")),
            ("by title, ties in key order", try request(sort: [SortKey("title")])),
            ("by year descending", try request(sort: [SortKey("year", ascending: false)])),
            (
                "by price, then title descending",
                try request(sort: [SortKey("price"), SortKey("title", ascending: false)])
            ),
            ("by rating with NaN and infinities", try request(sort: [SortKey("rating")])),
            (
                "by author's name",
                try request(sort: [SortKey("author.name"), SortKey("n", ascending: false)])
            ),
            ("year at least 1961", try request(where: "year >= 1961", sort: [SortKey("title")])),
            (
                "a range of years, sorted by year descending",
                try request(where: "year BETWEEN {1950, 1970}", sort: [SortKey("year", ascending: false)])
            ),
            (
                "by price descending past an offset, no limit",
                try request(sort: [SortKey("price", ascending: false), SortKey("title")], offset: 2)
            ),
            ("NOT year below 1961 keeps nil", try request(where: "NOT (year < 1961)")),
            ("year between", try request(where: "year BETWEEN {1950, 1962}")),
            ("decimal greater", try request(where: "price > 10.5")),
            ("decimal equal across scales", try request(where: "price == 10.5")),
            ("title CONTAINS[cd]", try request(where: "title CONTAINS[cd] 'ecole'")),
            (
                "title BEGINSWITH[c]",
                try request(where: "title BEGINSWITH[c] 'a'", sort: [SortKey("title")])
            ),
            ("title IN a list", try request(where: "title IN {'Light', 'Solaris'}")),
            ("title MATCHES", try request(where: "title MATCHES '.*[Rr]ing.*'")),
            ("title nil", try request(where: "title == nil")),
            ("rating above 4, NaN unordered", try request(where: "rating > 4")),
            ("rating not equal", try request(where: "rating != 4.5")),
            (
                "through a to-one",
                try request(
                    where: "author.name BEGINSWITH 'A'", sort: [SortKey("n", ascending: false)])
            ),
            ("no author", try request(where: "author == nil")),
            ("ANY through a many-to-many", try request(where: "ANY tags.name == 'sf'")),
            ("to-many count", try request(where: "tags.@count >= 1 AND shelves.@count == 0")),
            (
                "sub-entity's own attribute",
                try request("Ebook", where: "megabytes > 1", sort: [SortKey("megabytes")])
            ),
            ("a window", try request(sort: [SortKey("year")], limit: 5, offset: 3)),
            (
                "a window over a predicate",
                try request(where: "year != nil", sort: [SortKey("title")], limit: 4, offset: 2)
            ),
            ("an offset past the end", try request(sort: [SortKey("title")], offset: 1000)),
            ("a limit of zero", try request(limit: 0)),
            ("authors by name", try request("Author", sort: [SortKey("name")])),
            ("authors with books", try request("Author", where: "books.@count > 4")),
        ]
    }

    /// Fetches: rows come in the order, and are the objects, that `PredicateEvaluator` and
    /// `FetchSorter` give in memory over the same objects, ties in key order.
    @Test(arguments: StoreFactories.all)
    func rowsAreTheInMemoryAnswer(_ factory: StoreFactory) throws {
        try Self.expectInMemoryAnswers(from: StoredLibrary(factory))
    }

    /// Fetches: once updates and deletes are saved, rows are still the in-memory answer over
    /// the changed objects.
    @Test(arguments: StoreFactories.all)
    func rowsFollowSavedUpdatesAndDeletes(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        try library.change(Self.someChanges)
        try Self.expectInMemoryAnswers(from: library)
    }

    /// Fetches: a store closed and opened again answers as it did.
    @Test(arguments: StoreFactories.reopenable)
    func rowsAreTheInMemoryAnswerAfterReopening(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        try library.change(Self.someChanges)
        try library.subject.reopen()
        try Self.expectInMemoryAnswers(from: library)
    }

    /// Changes that move books between the answers of the requests: a title, a year and a
    /// price changed, an author's book deleted.
    static func someChanges(_ context: ManagedObjectContext, _ objects: Library.Objects) throws {
        try objects.books[3].setValue("Night Light", forKey: "title")
        try objects.books[5].setValue(nil, forKey: "year")
        try objects.books[6].setValue(try DecimalText.parse("10.500"), forKey: "price")
        context.delete(objects.books[7])
    }

    static func expectInMemoryAnswers(
        from library: StoredLibrary, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        for (name, request) in try requests() {
            let stored = try library.storedObjects(request)
            #expect(
                stored == (try library.expectedObjects(request)), "\(name)",
                sourceLocation: sourceLocation)
        }
    }

    /// `count(for:)`: the number of rows the request fetches, its limit and offset applied.
    @Test(arguments: StoreFactories.all)
    func countIsTheNumberOfRowsFetched(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        for (name, request) in try Self.requests() {
            #expect(
                try library.store.count(for: request) == library.expectedSerials(request).count,
                "\(name)")
        }
    }

    /// `objectIDs(for:)`: the IDs of the rows the request fetches, in the same order.
    @Test(arguments: StoreFactories.all)
    func objectIDsAreTheFetchedRowsIDs(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        for (name, request) in try Self.requests() {
            var rowIDs: [ObjectID] = []
            try library.store.forEachRow(request) { row in
                rowIDs.append(row.objectID)
                return true
            }
            let ids = try library.store.objectIDs(for: request)
            #expect(ids == rowIDs, "\(name)")
            #expect(
                ids.map(\.entityName) == rowIDs.map(\.entityName),
                "\(name): each ID names its row's own entity")
        }
    }

    /// `forEachRow`: the store stops as soon as `body` returns false.
    @Test(arguments: StoreFactories.all)
    func forEachRowStopsWhenBodyReturnsFalse(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        var seen: [Int64] = []
        try library.store.forEachRow(
            FetchRequest(entityName: "Book", sortDescriptors: [SortKey("n")])
        ) { row in
            seen.append(row.serial)
            return seen.count < 3
        }
        #expect(seen == [0, 1, 2])
    }

    /// Reads are consistent: the rows one call reads while another connection saves are
    /// wholly from before that save; the next call sees it.
    @Test(arguments: StoreFactories.reopenable)
    func oneReadIsOneSnapshot(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let writer = try library.subject.openAnotherConnection()
        var serials: [Int64] = []
        try library.store.forEachRow(FetchRequest(entityName: "Book")) { row in
            if serials.isEmpty {
                let last = try writer.context.fetch(
                    FetchRequest(entityName: "Book", predicate: try FetchPredicate("n == 39")))
                writer.context.delete(try #require(last.first))
                try writer.context.insertObject(forEntityName: "Book").setValue(
                    Int64(100), forKey: "n")
                try writer.context.save()
            }
            serials.append(row.serial)
            return true
        }
        #expect(serials == Array(0..<40), "the read saw only the rows from before the save")
        #expect(
            try library.storedSerials(FetchRequest(entityName: "Book")) == Array(0..<39) + [100])
        try writer.store.close()
    }

    /// Fetches: a request that cannot run (unknown entity or key, a transient key, a search
    /// of an attribute not indexed for search) throws `FetchError` before any row is read.
    @Test(arguments: StoreFactories.all)
    func aRequestThatCannotRunThrowsFetchErrorBeforeReading(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        var unknownSearchPath = FetchRequest(entityName: "Book")
        unknownSearchPath.searchText = "light"
        unknownSearchPath.searchKeyPaths = ["year"]
        let refused: [(String, FetchRequest)] = [
            ("unknown entity", FetchRequest(entityName: "Nowhere")),
            (
                "unknown key",
                FetchRequest(entityName: "Book", predicate: try FetchPredicate("subtitle == 'x'"))
            ),
            (
                "unknown key path",
                FetchRequest(entityName: "Book", predicate: try FetchPredicate("author.age > 3"))
            ),
            (
                "unknown sort key",
                FetchRequest(entityName: "Book", sortDescriptors: [SortKey("subtitle")])
            ),
            (
                "transient key",
                FetchRequest(entityName: "Sample", predicate: try FetchPredicate("scratch == 'x'"))
            ),
            ("search of an attribute not indexed for search", unknownSearchPath),
        ]
        for (name, request) in refused {
            var rowsRead = 0
            #expect(throws: FetchError.self, "\(name)") {
                try library.store.forEachRow(request) { _ in
                    rowsRead += 1
                    return true
                }
            }
            #expect(rowsRead == 0, "\(name)")
            #expect(throws: FetchError.self, "\(name)") { try library.store.count(for: request) }
            #expect(throws: FetchError.self, "\(name)") {
                try library.store.objectIDs(for: request)
            }
        }
    }
}
