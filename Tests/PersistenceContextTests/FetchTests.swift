import Foundation
import PersistenceTestSupport
import Testing

import Persistence

@Suite struct FetchTests {
    @Test func unsavedInsertsUpdatesAndDeletesAreReflected() throws {
        let (_, context) = try BookFixture.make()
        let request = FetchRequest(
            entityName: "Book", predicate: try FetchPredicate("pages > 100"), sortDescriptors: [.init("pages")])
        let before = try context.fetch(request)
        #expect(before.count == 8)
        let inserted = try context.insertObject(forEntityName: "Book")
        inserted["title"] = "New"
        inserted["pages"] = Int64(999)
        let dropped = before[0]
        dropped["pages"] = Int64(1)
        let deleted = before[1]
        context.delete(deleted)
        let joiner = try context.fetch(FetchRequest(entityName: "Book", predicate: try FetchPredicate("pages == 0")))[0]
        joiner["pages"] = Int64(101)
        let after = try context.fetch(request)
        #expect(after.count == 8)
        #expect(after.last === inserted)
        #expect(after.first === joiner)
        #expect(!after.contains { $0 === dropped || $0 === deleted })
        #expect(try context.count(for: request) == after.count)
        #expect(try context.fetchObjectIDs(request) == after.map(\.objectID))
        var limited = request
        limited.fetchLimit = 2
        limited.fetchOffset = 1
        #expect(try context.fetch(limited).map(ObjectIdentifier.init) == after[1...2].map(ObjectIdentifier.init))
        try context.save()
        #expect(try context.fetch(request).map(ObjectIdentifier.init) == after.map(ObjectIdentifier.init))
    }

    @Test func sortsDecimalsNumericallyAndDatesInBothPaths() throws {
        let (_, context) = try BookFixture.make()
        let request = FetchRequest(
            entityName: "Book", predicate: try FetchPredicate("price != nil"), sortDescriptors: [.init("price")])
        let prices = try context.fetch(request).map { ($0["price"] as? Decimal)?.description ?? "nil" }
        #expect(prices == ["0", "3", "7.5", "9.5", "9.5", "10.25", "10.25", "12.99", "19.99", "100"])
        // With an unsaved change the merge sorts in memory, in the same order.
        let extra = try context.insertObject(forEntityName: "Book")
        try extra.setValue(Decimal(string: "9.75"), forKey: "price")
        let merged = try context.fetch(request).map { ($0["price"] as? Decimal)?.description ?? "nil" }
        #expect(merged == ["0", "3", "7.5", "9.5", "9.5", "9.75", "10.25", "10.25", "12.99", "19.99", "100"])
        context.rollback()
        let byDate = FetchRequest(entityName: "Book", sortDescriptors: [.init("publishDate", ascending: false)])
        let dates = try context.fetch(byDate).map { $0["publishDate"] as? Date }
        #expect(dates.last! == nil)
        let present = dates.compactMap { $0 }
        #expect(present == present.sorted(by: >))
        var dated = byDate
        dated.predicate = try FetchPredicate("publishDate != nil")
        let sqlOrder = try context.fetch(dated).map(\.objectID)
        _ = try context.insertObject(forEntityName: "Book")
        let memoryOrder = try context.fetch(dated).map(\.objectID)
        #expect(sqlOrder == memoryOrder)
    }

    @Test func limitOffsetAndCountAgree() throws {
        let (_, context) = try BookFixture.make()
        var request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("pages != nil"), sortDescriptors: [.init("pages")])
        let all = try context.fetch(request)
        #expect(try context.count(for: request) == all.count)
        request.fetchOffset = 3
        request.fetchLimit = 4
        let window = try context.fetch(request)
        #expect(window.map(ObjectIdentifier.init) == all[3..<7].map(ObjectIdentifier.init))
        #expect(try context.fetchObjectIDs(request) == window.map(\.objectID))
    }

    @Test func sectionsGroupByTransientAndStoredKeys() throws {
        let (_, context) = try BookFixture.make()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [.init("author.name"), .init("title")])
        let sections = try context.fetchSections(request, sectionKeyPath: "author.name")
        #expect(sections.map(\.name) == ["", "Gabriel García Márquez", "J. R. R. Tolkien"])
        #expect(sections.map(\.count) == [1, 6, 5])
        for book in try context.fetch(FetchRequest(entityName: "Book")) {
            try book.setValue((book["pages"] as? Int64 ?? 0) > 200 ? "long" : "short", forKey: "monthID")
        }
        let byLength = try context.fetchSections(FetchRequest(entityName: "Book", sortDescriptors: [.init("pages")]), sectionKeyPath: "monthID")
        #expect(byLength.map(\.name) == ["short", "long"])
        #expect(byLength.reduce(0) { $0 + $1.count } == 12)
    }

    /// A sorted fetch kept whole makes room in the registry for all its rows before the first
    /// object: objects registered before it, by a smaller fetch, are the ones it returns, and
    /// a second fetch returns the same objects again.
    @Test func aFetchKeptWholeReturnsTheObjectsAlreadyRegistered() throws {
        let (_, context) = try BookFixture.make()
        let sorted = FetchRequest(entityName: "Book", sortDescriptors: [.init("title", ascending: false)])
        var one = sorted
        one.fetchLimit = 1
        let first = try #require(try context.fetch(one).first)
        let all = try context.fetch(sorted)
        #expect(all.count == 12)
        #expect(all.first === first)
        #expect(Set(all.map(ObjectIdentifier.init)).count == all.count)
        #expect(try context.fetch(sorted).map(ObjectIdentifier.init) == all.map(ObjectIdentifier.init))
        #expect(try context.fetchSections(sorted, sectionKeyPath: "title").flatMap(\.objects).map(ObjectIdentifier.init)
            == all.map(ObjectIdentifier.init))
    }

    /// Whatever order the section names come in — growing, shrinking, turning back to a name
    /// seen sections ago, spelled in another Unicode form — each name gets one section, in
    /// the order of its first object, holding its objects in the fetch's order.
    @Test func sectionsGatherANameWhereverItReturns() throws {
        let (_, context) = try BookFixture.make()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [.init("title")])
        let books = try context.fetch(request)
        let spellings = ["b", "a", "c", "Caf\u{E9}", "Cafe\u{301}", "", "d"]
        var generator = SystemRandomNumberGenerator()
        let orders: [[String]] = [
            ["a", "a", "b", "c", "c", "d"], ["d", "c", "c", "b", "a", ""], ["a", "b", "a", "c", "b", "a"],
            ["c", "b", "d", "a", "d", "c"], ["Caf\u{E9}", "b", "Cafe\u{301}", "a", "Caf\u{E9}", "b"],
        ] + (0..<40).map { _ in (0..<books.count).map { _ in spellings.randomElement(using: &generator)! } }
        for order in orders {
            for (position, book) in books.enumerated() {
                try book.setValue(order[position % order.count], forKey: "monthID")
            }
            let sections = try context.fetchSections(request, sectionKeyPath: "monthID")
            var expected: [(name: String, objects: [ObjectIdentifier])] = []
            for (position, book) in books.enumerated() {
                let name = order[position % order.count]
                if let section = expected.firstIndex(where: { $0.name == name }) {
                    expected[section].objects.append(ObjectIdentifier(book))
                } else {
                    expected.append((name, [ObjectIdentifier(book)]))
                }
            }
            #expect(sections.map(\.name) == expected.map(\.name), "\(order)")
            #expect(sections.map { $0.objects.map(ObjectIdentifier.init) } == expected.map(\.objects), "\(order)")
        }
    }

    /// Sections hold exactly what `fetch(_:)` returns, in order, whether their objects are
    /// grouped as they are made or after a fetch with the large-fetch tools: unsaved inserts
    /// counted, deletions left out, a key path through a relationship read during the fetch.
    @Test func sectionsHoldWhatTheFetchReturns() throws {
        let (_, context) = try BookFixture.make()
        let inserted = try context.insertObject(forEntityName: "Book")
        try inserted.setValue("Unsaved", forKey: "title")
        let deleted = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        context.delete(deleted)
        var request = FetchRequest(entityName: "Book", sortDescriptors: [.init("author.name"), .init("title")])
        for batchSize in [0, 2] {
            request.fetchBatchSize = batchSize
            let sections = try context.fetchSections(request, sectionKeyPath: "author.name")
            let fetched = try context.fetch(request)
            #expect(sections.flatMap(\.objects).map(ObjectIdentifier.init) == fetched.map(ObjectIdentifier.init))
            #expect(sections.map(\.name) == ["", "Gabriel García Márquez", "J. R. R. Tolkien"])
            #expect(!sections.flatMap(\.objects).contains { $0 === deleted })
            #expect(sections[0].objects.contains { $0 === inserted })
        }
        context.rollback()
        request.fetchBatchSize = 0
        let saved = try context.fetchSections(request, sectionKeyPath: "author.name")
        #expect(saved.flatMap(\.objects).map(ObjectIdentifier.init) == (try context.fetch(request)).map(ObjectIdentifier.init))
        #expect(saved.map(\.count) == [1, 6, 5])
    }

    /// Sections are objects: a request for dictionaries or IDs is refused, as `fetch(_:)`
    /// refuses it, not streamed as objects.
    @Test func sectionsRefuseARequestForAnotherResultType() throws {
        let (_, context) = try BookFixture.make()
        for resultType in [FetchRequestResultType.dictionaryResultType, .managedObjectIDResultType, .countResultType] {
            var request = FetchRequest(entityName: "Book", sortDescriptors: [.init("title")])
            request.resultType = resultType
            #expect(throws: FetchError.self) { _ = try context.fetchSections(request, sectionKeyPath: "title") }
        }
    }

    @Test func dictionariesHoldRequestedKeys() throws {
        let (_, context) = try BookFixture.make()
        let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == 'The Hobbit'"))
        let rows = try context.fetchDictionaries(request, properties: ["title", "author.name", "price"])
        #expect(rows.count == 1)
        #expect(rows[0]["title"] as? String == "The Hobbit")
        #expect(rows[0]["author.name"] as? String == "Gabriel García Márquez")
        #expect(rows[0]["price"] as? Decimal == Decimal(string: "19.99"))
    }

    @Test func streamingStopsWhenBodyReturnsFalse() throws {
        let (_, context) = try BookFixture.make()
        var seen = 0
        try context.forEach(FetchRequest(entityName: "Book", predicate: try FetchPredicate("title != nil"))) { _ in
            seen += 1
            return seen < 3
        }
        #expect(seen == 3)
    }

    /// A stream over many rows, stopped anywhere, hands over the fetch's objects in the
    /// fetch's order and ends where the body says.
    @Test func streamingManyRowsStopsWhereBodySaysInTheFetchsOrder() throws {
        let (_, context) = try BookFixture.make()
        for number in 0..<40 {
            let book = try context.insertObject(forEntityName: "Book")
            try book.setValue(String(format: "Book %02d", 39 - number), forKey: "title")
        }
        try context.save()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [.init("title", ascending: false)])
        let all = try context.fetch(request)
        #expect(all.count == 52)
        for stop in [1, 15, 16, 17, 21, 52] {
            var streamed: [ManagedObject] = []
            try context.forEach(request) { object in
                streamed.append(object)
                return streamed.count < stop
            }
            #expect(streamed.map(ObjectIdentifier.init) == all.prefix(stop).map(ObjectIdentifier.init))
        }
    }
}
