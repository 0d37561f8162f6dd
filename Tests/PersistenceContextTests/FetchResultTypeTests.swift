import Foundation
import Testing

import Persistence

@testable import PersistenceContext

/// Dictionary, ID and count results: they read only what they return and make no object,
/// and unsaved changes count in them as in a fetch of objects.
@Suite struct FetchResultTypeTests {
    /// The dictionaries a fetch of objects gives, read from the objects themselves.
    private static func fromObjects(_ context: ManagedObjectContext, _ request: FetchRequest, _ keys: [String]) throws
        -> [[String: String]]
    {
        // An unsaved object of another entity does not count; an unsaved tag does not
        // change the books, but it sends the fetch through its objects.
        try context.fetch(request).map { book in
            var row: [String: String] = [:]
            for key in keys {
                let components = key.split(separator: ".").map(String.init)
                var value: Any? = book
                for component in components { value = (value as? ManagedObject)?[component] }
                if let object = value as? ManagedObject { value = object.objectID }
                if let value { row[key] = "\(value)" }
            }
            return row
        }
    }

    private static func described(_ rows: [[String: Any]]) -> [[String: String]] {
        rows.map { $0.mapValues { "\($0)" } }
    }

    @Test func dictionariesReadOnlyTheirColumnsAndMakeNoObject() throws {
        let (store, context) = try LargeFetchFixture.make(count: 40)
        var request = LargeFetchFixture.byTitle
        request.predicate = try FetchPredicate("pages > 150")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["title", "price", "pages", "cover", "author", "author.name"]
        guard case .dictionaries(let rows) = try context.execute(request) else {
            Issue.record("not dictionaries")
            return
        }
        #expect(store.reads == ["forEachValues": 1])
        #expect(context.registry.isEmpty)
        #expect(!rows.isEmpty)
        #expect(rows[0]["price"] is Decimal && rows[0]["pages"] is Int64 && rows[0]["author"] is ObjectID)
        // A book without an author has neither its ID nor its name.
        #expect(rows.contains { $0["author"] == nil && $0["author.name"] == nil && $0["title"] != nil })
        #expect(rows.contains { $0["cover"] is Data })
        request.resultType = .managedObjectResultType
        #expect(Self.described(rows) == (try Self.fromObjects(context, request, request.propertiesToFetch)))
    }

    @Test func fetchDictionariesNamesItsPropertiesOrTakesEveryAttribute() throws {
        let (store, context) = try LargeFetchFixture.make(count: 10)
        let named = try context.fetchDictionaries(LargeFetchFixture.byTitle, properties: ["title"])
        #expect(named.map { $0["title"] as? String } == (0..<10).map { String(format: "Book %03d", $0) })
        #expect(named.allSatisfy { $0.count == 1 })
        let authors = try context.fetchDictionaries(FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")]))
        #expect(authors.first?["name"] as? String == "Author 0")
        #expect(store.reads == ["forEachValues": 2])
        #expect(context.registry.isEmpty)
        // Every attribute of a book includes a transient, which only an object has: the
        // objects are read, as before.
        let books = try context.fetchDictionaries(LargeFetchFixture.byTitle)
        #expect(books.count == 10 && books[0]["title"] as? String == "Book 000")
        #expect(store["forEachRow"] == 1)
    }

    @Test func unsavedChangesCountInDictionaries() throws {
        let (store, context) = try LargeFetchFixture.make(count: 20)
        var request = LargeFetchFixture.byTitle
        request.predicate = try FetchPredicate("pages > 150")
        request.propertiesToFetch = ["title", "author"]
        let before = try context.fetchDictionaries(request)
        let added = try context.insertObject(forEntityName: "Book")
        added["title"] = "Book 000a"
        added["pages"] = Int64(500)
        let after = try context.fetchDictionaries(request)
        #expect(after.count == before.count + 1)
        #expect(after.map { $0["title"] as? String }.contains("Book 000a"))
        #expect(Self.described(after) == (try Self.fromObjects(context, request, request.propertiesToFetch)))
        #expect(store["forEachValues"] == 1)
    }

    /// `forEachDictionary` hands over what `fetchDictionaries` returns, one row at a time,
    /// from the store's columns or, with unsaved changes, from the objects; and stops when
    /// its body says so.
    @Test func forEachDictionaryStreamsTheSameRowsAndStops() throws {
        let (store, context) = try LargeFetchFixture.make(count: 20)
        var request = LargeFetchFixture.byTitle
        request.propertiesToFetch = ["title", "price", "author"]
        var streamed: [[String: Any]] = []
        try context.forEachDictionary(request) { row in
            streamed.append(row)
            return true
        }
        #expect(Self.described(streamed) == Self.described(try context.fetchDictionaries(request)))
        #expect(store.reads == ["forEachValues": 2])
        #expect(context.registry.isEmpty)
        var seen = 0
        try context.forEachDictionary(request, properties: ["title"]) { _ in
            seen += 1
            return seen < 3
        }
        #expect(seen == 3)
        let added = try context.insertObject(forEntityName: "Book")
        added["title"] = "Book 000a"
        var titles: [String] = []
        try context.forEachDictionary(request, properties: ["title"]) { row in
            titles.append(row["title"] as? String ?? "")
            return true
        }
        #expect(titles.count == 21 && titles.contains("Book 000a"))
        #expect(store["forEachRow"] == 1)
    }

    @Test func aKeyPathTheStoreDoesNotHoldIsReadFromTheObjectsAsBefore() throws {
        let (store, context) = try LargeFetchFixture.make(count: 3)
        for key in ["nope", "author.nope", "title.length"] {
            #expect(throws: (any Error).self) { try context.fetchDictionaries(LargeFetchFixture.byTitle, properties: [key]) }
        }
        // A to-many gives its destinations' values.
        let tags = try context.fetchDictionaries(LargeFetchFixture.byTitle, properties: ["tags.name"])
        #expect(tags.first?["tags.name"] as? [String?] == ["Tag 0", "Tag 1"])
        #expect(store["forEachValues"] == 0)
    }

    @Test func objectIDResultsReadKeysOnly() throws {
        let (store, context) = try LargeFetchFixture.make(count: 30)
        var request = LargeFetchFixture.byTitle
        request.resultType = .managedObjectIDResultType
        guard case .objectIDs(let ids) = try context.execute(request) else {
            Issue.record("not IDs")
            return
        }
        #expect(ids.count == 30)
        #expect(store.reads == ["objectIDs(for:)": 1])
        #expect(context.registry.isEmpty)
        request.resultType = .managedObjectResultType
        #expect(try context.fetch(request).map(\.objectID) == ids)
    }

    @Test func countsMakeNoObjectEvenWithUnsavedChanges() throws {
        let (store, context) = try LargeFetchFixture.make(count: 30)
        var request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("pages >= 200"))
        request.resultType = .countResultType
        guard case .count(let stored) = try context.execute(request) else {
            Issue.record("not a count")
            return
        }
        #expect(store.reads == ["count(for:)": 1])
        #expect(context.registry.isEmpty)
        // Three unsaved changes: an insert that matches, a deletion of a match, a change that
        // makes a match fail; the count reads IDs and checks only those objects.
        var objects = request
        objects.resultType = .managedObjectResultType
        let matches = try context.fetch(objects)
        #expect(matches.count == stored)
        let added = try context.insertObject(forEntityName: "Book")
        added["pages"] = Int64(250)
        context.delete(matches[0])
        matches[1]["pages"] = Int64(10)
        let expected = try context.fetch(objects).count
        #expect(expected == stored - 1)
        let registered = context.registry.count
        store.resetCounts()
        #expect(try context.count(for: request) == expected)
        #expect(store.reads == ["objectIDs(for:)": 1])
        #expect(context.registry.count == registered)
        // A fresh context sees the same count once saved.
        try context.save()
        context.reset()
        #expect(try context.count(for: request) == expected)
    }

    @Test func fetchRefusesAnotherResultType() throws {
        let (_, context) = try LargeFetchFixture.make(count: 1)
        var request = LargeFetchFixture.byTitle
        request.resultType = .countResultType
        #expect(throws: FetchError.self) { try context.fetch(request) }
    }

    @Test func defaultStoreReadsGiveTheSameDictionaries() throws {
        let (_, fast) = try LargeFetchFixture.make(count: 25)
        let (_, plain) = try LargeFetchFixture.make(count: 25, usesDefaultReads: true)
        var request = LargeFetchFixture.byTitle
        request.propertiesToFetch = ["title", "price", "cover", "author.name"]
        #expect(Self.described(try fast.fetchDictionaries(request)) == Self.described(try plain.fetchDictionaries(request)))
        request.propertiesToFetch = ["title", "pages"]
        #expect(Self.described(try fast.fetchDictionaries(request)) == Self.described(try plain.fetchDictionaries(request)))
    }
}
