import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// A limited search of a common term reads only the rows that can be its answer
/// (`RankedSearchPlanner`); its answer must be the plain plan's, row for row.
@Suite struct RankedSearchTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string, optional: false, indexed: true)
                Attribute("canonicalTitle", .string, derived: "canonical:(title)", indexedBySpotlight: true)
                Attribute("year", .integer64)
                Attribute("code", .string)
                Relationship("author", to: "Author", inverse: "books")
            }
            Entity("Author") {
                Attribute("name", .string, optional: false)
                Attribute("canonicalName", .string, derived: "canonical:(name)", indexedBySpotlight: true)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
        }
    }

    /// Words that make every tier common somewhere: pieces inside words ("ight"), at word
    /// starts ("ligh"), whole words ("light"), after punctuation and other scripts.
    static let words = [
        "Light", "Night", "Twilight", "L'ight", "(Light)", "ωight", "Ight", "Lightning", "Ligh", "Ligh-t",
        "Stone", "River", "Délight", "Mirror", "Harbor", "Sïlence", "Garden", "Ombre", "Nacht", "Licht",
    ]
    static let authors = ["Ana Light", "Bo Stone", "Cy Nightingale", "Di River", "Ed Smith", "Łukasz Mirror"]

    /// `count` books from a fixed seed; titles repeat (ties broken by year, then by key).
    static func make(count: Int) throws -> ManagedObjectContext {
        let context = try PersistentContainer(model: model(), storeURL: nil).viewContext
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let authors = try authors.map { name -> ManagedObject in
            let author = try context.insertObject(forEntityName: "Author")
            author["name"] = name
            return author
        }
        for i in 0..<count {
            let book = try context.insertObject(forEntityName: "Book")
            let title = (0..<(1 + next(3))).map { _ in words[next(words.count)] }.joined(separator: " ")
            // One title in four repeats a few fixed ones, so ties are common.
            book["title"] = next(4) == 0 ? ["Light", "Stone River", "Twilight"][next(3)] : title + " \(next(40))"
            book["year"] = Int64(1900 + next(5))
            book["code"] = "b\(i)"
            if next(5) > 0 { book.setObject(authors[next(authors.count)], forKey: "author") }
        }
        try context.save()
        return context
    }

    static func request(
        _ text: String, sort: [SortKey], limit: Int?, offset: Int = 0, predicate: FetchPredicate? = nil
    ) -> FetchRequest {
        var request = FetchRequest(entityName: "Book", predicate: predicate, sortDescriptors: sort, fetchLimit: limit)
        request.fetchOffset = offset
        request.searchText = text
        request.searchKeyPaths = ["canonicalTitle", "author.canonicalName"]
        return request
    }

    /// The plain plan's answer: every match ranked and sorted (no limit), then the window.
    static func plain(_ context: ManagedObjectContext, _ request: FetchRequest) throws -> [ObjectID] {
        var all = request
        all.fetchLimit = nil
        all.fetchOffset = 0
        let ids = try context.fetch(all).map(\.objectID)
        let start = min(request.fetchOffset, ids.count)
        return Array(ids[start..<min(ids.count, start + (request.fetchLimit ?? ids.count))])
    }

    static let terms = [
        "ight", "ligh", "light", "igh", "l'ight", "ight ligh", "night light", "stone", "ωight", "ight)", "-t",
        "light river", "smith", "ana", "ombre nacht", "zzzz", "b1", "li",
    ]

    @Test func limitedSearchesAnswerAsThePlainPlanForEveryTermLimitAndOrder() throws {
        let context = try Self.make(count: 3_000)
        let orders: [[SortKey]] = [
            [SortKey("title"), SortKey("year", ascending: false)], [SortKey("title", ascending: false)], [],
            [SortKey("year")],
        ]
        var narrowed = 0
        for text in Self.terms {
            for sort in orders {
                for (limit, offset) in [(1, 0), (50, 0), (5, 3), (200, 0)] {
                    let request = Self.request(text, sort: sort, limit: limit, offset: offset)
                    let expected = try Self.plain(context, request)
                    #expect(try context.fetch(request).map(\.objectID) == expected, "\(text) \(sort) \(limit) \(offset)")
                    if try RankedSearchPlanner(store: context.sqliteStore).narrowedQuery(for: request) != nil { narrowed += 1 }
                }
            }
        }
        // The plan must have answered most of them, or this test proves nothing.
        #expect(narrowed > Self.terms.count * 4)
    }

    @Test func commonTermsInEveryTierAreNarrowedAndKeepTheirOrder() throws {
        let context = try Self.make(count: 3_000)
        let sort = [SortKey("title"), SortKey("year", ascending: false)]
        for text in ["ight", "ligh", "light", "night light"] {
            let request = Self.request(text, sort: sort, limit: 50)
            #expect(try RankedSearchPlanner(store: context.sqliteStore).narrowedQuery(for: request) != nil, "\(text)")
            let found = try context.fetch(request)
            #expect(found.count == 50)
            #expect(found.map(\.objectID) == (try Self.plain(context, request)), "\(text)")
        }
        // Whole words first: "light" as a word, then at a word start ("lightning").
        let light = try context.fetch(Self.request("light", sort: sort, limit: 50))
        let first = try #require(light.first?["canonicalTitle"] as? String)
        #expect(SearchText("light").rank([first, ""]) == 0)
    }

    @Test func aPredicateAndTheUnlimitedSearchKeepThePlainAnswer() throws {
        let context = try Self.make(count: 2_000)
        let sort = [SortKey("title"), SortKey("year", ascending: false)]
        let recent = try FetchPredicate("year >= %@", 1903)
        for text in ["ight", "ligh", "light", "stone"] {
            for limit in [1, 50] {
                let request = Self.request(text, sort: sort, limit: limit, predicate: recent)
                #expect(try context.fetch(request).map(\.objectID) == (try Self.plain(context, request)), "\(text)")
            }
            let unlimited = Self.request(text, sort: sort, limit: nil)
            #expect(try RankedSearchPlanner(store: context.sqliteStore).narrowedQuery(for: unlimited) == nil)
        }
    }

    @Test func rareTermsAndUnindexedSortKeysTakeThePlainPlan() throws {
        let context = try Self.make(count: 2_000)
        let planner = RankedSearchPlanner(store: context.sqliteStore)
        // 1 of 2,000 books: too sparse to walk for 50.
        let rare = try context.fetch(Self.request("b1", sort: [SortKey("title")], limit: 50))
        #expect(try planner.narrowedQuery(for: Self.request("lightning ombre nacht mirror", sort: [SortKey("title")], limit: 50)) == nil)
        #expect(rare.isEmpty)
        // `year` has no index: the walk would sort the table.
        #expect(try planner.narrowedQuery(for: Self.request("ight", sort: [SortKey("year")], limit: 50)) == nil)
        #expect(try planner.narrowedQuery(for: Self.request("ight", sort: [SortKey("author.name")], limit: 50)) == nil)
    }

    @Test func unsavedChangesSearchInMemoryWithTheSameAnswer() throws {
        let context = try Self.make(count: 1_000)
        let sort = [SortKey("title"), SortKey("year", ascending: false)]
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "A light unsaved"
        book["year"] = Int64(1901)
        book["code"] = "new"
        let codes = { try context.fetch(Self.request("light", sort: sort, limit: 50)).map { $0["code"] as? String } }
        let unsaved = try codes()
        #expect(unsaved.contains("new"))
        try context.save()
        #expect(try codes() == unsaved)
    }

    @Test func aBadSearchKeyPathIsStillRefusedByName() throws {
        let context = try Self.make(count: 10)
        var request = Self.request("ight", sort: [SortKey("title")], limit: 50)
        request.searchKeyPaths = ["code"]
        #expect {
            try context.fetch(request)
        } throws: { error in
            "\(error)".contains("Book.code is not indexed for search")
        }
    }

    @Test func aStoreMadeBeforeTheSortIndexGetsItOnItsNextWritableOpen() throws {
        let store = TemporaryStore()
        let unindexed = ManagedObjectModel(entities: Self.model().entities.map { entity in
            var entity = entity
            entity.attributes = entity.attributes.map { attribute in
                var attribute = attribute
                attribute.isIndexed = false
                return attribute
            }
            return entity
        })
        var context = try PersistentContainer(model: unindexed, storeURL: store.url).viewContext
        try context.closeStore()
        let index = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'Book_title_index'"
        #expect(try store.rows(index) == [[.integer(0)]])
        context = try PersistentContainer(model: Self.model(), storeURL: store.url).viewContext
        #expect(try store.rows(index) == [[.integer(1)]])
        try context.closeStore()
    }

    @Test func theIndexHoldsEachValuePaddedAndMarkedWhenItHasOtherCharacters() throws {
        let context = try Self.make(count: 0)
        for title in ["Light", "L'ight x", "ωight", "Délight 3", "(Light)"] {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
        }
        try context.save()
        let rows = try context.storeConnection.query(
            "SELECT b.canonicalTitle, c.canonicalTitle FROM Book AS b JOIN _search_Book_content AS c ON c._id = b._id")
        #expect(rows.count == 5)
        for row in rows {
            let canonical = try #require(row[0].textValue)
            #expect(row[1].textValue == SearchIndexMapping.indexedForm(canonical), "\(canonical)")
        }
        #expect(SearchIndexMapping.indexedForm("delight 3") == " delight 3 ")
        #expect(SearchIndexMapping.indexedForm("l'ight x") == " l'ight x \u{1}\u{1}\u{1}")
        try context.checkSearchIndexes()
        // The marker is never a match for a search word.
        #expect(try context.fetch(Self.request("\u{1}\u{1}\u{1}", sort: [], limit: 5)).isEmpty)
    }
}
