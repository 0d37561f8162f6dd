import Foundation
import Testing

import Persistence

/// A Book/Author model whose canonical attributes are indexed for search, plus a Note whose
/// raw `text` is indexed (so its index folds through a view).
enum SearchFixture {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Book") {
                Attribute("title", .string, optional: false)
                Attribute("canonicalTitle", .string, derived: "canonical:(title)", indexedBySpotlight: true)
                Attribute("code", .string)
                Relationship("author", to: "Author", inverse: "books")
                UniquenessConstraint("code")
            }
            Entity("Author") {
                Attribute("name", .string, optional: false)
                Attribute("canonicalName", .string, derived: "canonical:(name)", indexedBySpotlight: true)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Note") {
                Attribute("text", .string, indexedBySpotlight: true)
            }
        }
    }

    /// An in-memory store holding one book per title, by author "Nobody" unless given.
    static func make(_ titles: [String], authors: [String?]? = nil) throws -> ManagedObjectContext {
        let context = try PersistentContainer(model: model(), storeURL: nil).viewContext
        var byName: [String: ManagedObject] = [:]
        for (i, title) in titles.enumerated() {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = title
            book["code"] = "c\(i)"
            if let name = authors?[i] {
                let author = try byName[name] ?? context.insertObject(forEntityName: "Author")
                author["name"] = name
                byName[name] = author
                book.setObject(author, forKey: "author")
            }
        }
        try context.save()
        return context
    }

    static func titles(
        _ context: ManagedObjectContext, _ text: String, keyPaths: [String] = [], limit: Int? = nil
    ) throws -> [String] {
        var request = FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")], fetchLimit: limit)
        request.searchText = text
        request.searchKeyPaths = keyPaths
        return try context.fetch(request).map { $0["title"] as? String ?? "" }
    }
}

@Suite struct SearchIndexTests {
    static let pairs: [(query: String, title: String)] = [
        ("lodz", "Łódź"), ("strasse", "Straße"), ("aero", "Ærø"), ("oeuvre", "Œuvre"), ("cafe", "CAFÉ"),
        ("anos", "Cien años de soledad"), ("istanbul", "İstanbul"), ("abc", "ＡＢＣ"),
        ("tieng viet", "Tiếng Việt"), ("αθηναι", "Ἀθῆναι"), ("елка", "Ёлка"),
    ]

    @Test func everyPairOfTheIssueIsFoundThroughTheIndex() throws {
        let context = try SearchFixture.make(Self.pairs.map(\.title))
        for (query, title) in Self.pairs {
            #expect(try SearchFixture.titles(context, query) == [title], "\(query)")
            // The folded title itself, typed in capitals, finds it too.
            #expect(try SearchFixture.titles(context, title.uppercased()) == [title], "\(title)")
        }
        try context.checkSearchIndexes()
    }

    @Test(arguments: ["lodzz", "strase", "aeroe", "oeuvres", "cafes", "istambul", "abcd", "tieng vietn", "αθηνε", "елки", "łódźx", "zzz"])
    func queriesThatMustFindNothing(query: String) throws {
        let context = try SearchFixture.make(Self.pairs.map(\.title))
        #expect(try SearchFixture.titles(context, query).isEmpty)
    }

    @Test func specialCharactersAndQueryKeywordsAreLiteralText() throws {
        let titles = [
            "Say \"Hello\"", "It's 50% off", "a_b and c", "star*wars", "x-ray vision", "NEAR the OR gate",
            "Rock AND Roll", "NOT this", "plain title", "(paren) {brace} [bracket] ^caret: col",
        ]
        let context = try SearchFixture.make(titles)
        let queries = [
            "\"hello\"", "\"", "'s 5", "50%", "%", "_", "a_b", "*", "star*", "-ray", "x-", "near", "or",
            "and", "not", "NEAR/2", "\"near\" OR \"plain\"", "title NOT", "^caret", "col:", "{brace}",
            "(paren)", "%_%", "'", "it's", "and roll",
        ]
        for query in queries {
            let words = SearchText(query).words
            let expected = titles.filter { title in
                let folded = CanonicalText.fold(title)
                return words.allSatisfy { folded.contains($0) }
            }.sorted()
            #expect(try SearchFixture.titles(context, query).sorted() == expected, "\(query)")
        }
        #expect(try SearchFixture.titles(context, "\"near\" OR \"plain\"").isEmpty)
        #expect(try SearchFixture.titles(context, "near or") == ["NEAR the OR gate"])
    }

    @Test func shortWordsScanTheCanonicalColumnAndCombineWithIndexedOnes() throws {
        let titles = ["The Hobbit", "Été", "A b", "東京物語", "Le Petit Prince", "ab"]
        let context = try SearchFixture.make(titles)
        #expect(try SearchFixture.titles(context, "é") == ["Été", "Le Petit Prince", "The Hobbit"])
        #expect(try SearchFixture.titles(context, "ab") == ["ab"])
        #expect(try SearchFixture.titles(context, "東京") == ["東京物語"])
        #expect(try SearchFixture.titles(context, "le prince") == ["Le Petit Prince"])
        #expect(try SearchFixture.titles(context, "b hob") == ["The Hobbit"])
        #expect(try SearchFixture.titles(context, "  ").isEmpty)
        #expect(try SearchFixture.titles(context, "").isEmpty)
        let request = { (text: String) -> FetchRequest in
            var request = FetchRequest(entityName: "Book")
            request.searchText = text
            return request
        }
        #expect(try context.count(for: request("b hob")) == 1)
        #expect(try context.count(for: request("e")) == 3)
        #expect(try context.count(for: request("")) == 0)
        // Many words: repeated ones count once; past SQLite's compound limit they scan.
        let many = (0..<250).map { "w\($0)x" }
        #expect(try context.count(for: request(Array(repeating: "hobbit", count: 600).joined(separator: " "))) == 1)
        #expect(try context.count(for: request((["hobbit"] + many).joined(separator: " "))) == 0)
        let both = ["canonicalTitle", "author.canonicalName"]
        #expect(try SearchFixture.titles(context, (many + ["hobbit"]).joined(separator: " "), keyPaths: both).isEmpty)
        #expect(try SearchFixture.titles(context, (many.prefix(239) + ["hobbit"]).joined(separator: " "), keyPaths: both).isEmpty)
        #expect(try SearchFixture.titles(context, Array(repeating: "hob b", count: 300).joined(separator: " "), keyPaths: both) == ["The Hobbit"])
        #expect(throws: FetchError.self) { try context.count(for: request((many + many.map { $0 + "y" }).joined(separator: " "))) }
    }

    @Test func aBookIsFoundByItsAuthorsIndexedNameThroughTheToOne() throws {
        let context = try SearchFixture.make(
            ["Cien años de soledad", "El amor en los tiempos del cólera", "The Hobbit", "Solaris"],
            authors: ["Gabriel García Márquez", "Gabriel García Márquez", "J. R. R. Tolkien", nil])
        let both = ["canonicalTitle", "author.canonicalName"]
        #expect(try SearchFixture.titles(context, "marquez cien", keyPaths: both) == ["Cien años de soledad"])
        #expect(
            try SearchFixture.titles(context, "garcia", keyPaths: both)
                == ["Cien años de soledad", "El amor en los tiempos del cólera"])
        #expect(try SearchFixture.titles(context, "tolkien hob", keyPaths: both) == ["The Hobbit"])
        #expect(try SearchFixture.titles(context, "garcia").isEmpty)
        #expect(try SearchFixture.titles(context, "r. j.", keyPaths: both) == ["The Hobbit"])
        #expect(try SearchFixture.titles(context, "r", keyPaths: both).count == 4)
        // Authors search their own index.
        var authors = FetchRequest(entityName: "Author", sortDescriptors: [SortKey("name")])
        authors.searchText = "tolk"
        #expect(try context.fetch(authors).map { $0["name"] as? String } == ["J. R. R. Tolkien"])
    }

    @Test func wholeWordsComeFirstThenPrefixesThenEveryWordThenTheRestByTitle() throws {
        let titles = [
            "Winter Garden", "Garden in Winter", "Wintergarden", "Nightwinter garden", "A garden", "Gardenwinter",
            "The Ring", "Ringworld", "Boring", "Rings", "ring",
        ]
        let context = try SearchFixture.make(titles)
        #expect(
            try SearchFixture.titles(context, "winter garden")
                == ["Winter Garden", "Garden in Winter", "Gardenwinter", "Nightwinter garden", "Wintergarden"])
        #expect(
            try SearchFixture.titles(context, "garden")
                == ["A garden", "Garden in Winter", "Nightwinter garden", "Winter Garden", "Gardenwinter", "Wintergarden"])
        #expect(try SearchFixture.titles(context, "RING") == ["The Ring", "ring", "Rings", "Ringworld", "Boring"])
        #expect(try SearchFixture.titles(context, "ring", limit: 2) == ["The Ring", "ring"])
        #expect(try SearchFixture.titles(context, "inter") == ["Garden in Winter", "Gardenwinter", "Nightwinter garden", "Winter Garden", "Wintergarden"])
        let search = SearchText("winter garden")
        #expect(search.rank(["winter garden"]) == 0)
        #expect(search.rank(["x", "winter gardens"]) == 1)
        #expect(search.rank(["garden in winter"]) == 2)
        #expect(search.rank(["garden", "winter"]) == 2)
        #expect(search.rank(["nightwinter garden"]) == 3)
        #expect(SearchText("lodz").rank(["x", CanonicalText.fold("(Łódź)")]) == 0)
        #expect(SearchText("ka").rank(["ёлка"]) == 3)
        #expect(SearchText("ел").rank(["1ёлка", "ёлка-ель"]) == 1)
        #expect(SearchText("ель").rank(["ёлка-ель"]) == 0)
        #expect(SearchText("2").rank(["12", "a2b"]) == 3)
    }

    @Test func unsavedChangesAreSearchedInMemoryWithTheSameAnswer() throws {
        let context = try SearchFixture.make(["Winter Garden", "Garden in Winter", "Summer"])
        let sqlAnswer = try SearchFixture.titles(context, "garden wint")
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]))
        let inserted = try context.insertObject(forEntityName: "Book")
        inserted["title"] = "Unsaved Gärden of winter"
        inserted["code"] = "new"
        books[2]["title"] = "Summer garden, winter"
        books[1]["title"] = "Gone"
        let memoryAnswer = try SearchFixture.titles(context, "garden wint")
        #expect(memoryAnswer == ["Garden in Winter", "Summer garden, winter", "Unsaved Gärden of winter"])
        #expect(sqlAnswer == ["Garden in Winter", "Winter Garden"])
        try context.save()
        #expect(try SearchFixture.titles(context, "garden wint") == memoryAnswer)
    }

    @Test func rawIndexedAttributesAreFoldedThroughAView() throws {
        let context = try PersistentContainer(model: SearchFixture.model(), storeURL: nil).viewContext
        for text in ["Łódź by night", "Straße", nil] {
            let note = try context.insertObject(forEntityName: "Note")
            note["text"] = text
        }
        try context.save()
        var request = FetchRequest(entityName: "Note")
        request.searchText = "LODZ"
        #expect(try context.fetch(request).map { $0["text"] as? String } == ["Łódź by night"])
        request.searchText = "ss"
        #expect(try context.fetch(request).map { $0["text"] as? String } == ["Straße"])
        let notes = try context.fetch(FetchRequest(entityName: "Note"))
        let byText = { (text: String) in notes.first { $0["text"] as? String == text } }
        try #require(byText("Łódź by night"))["text"] = "Kraków"
        context.delete(try #require(byText("Straße")))
        try context.save()
        request.searchText = "krakow"
        #expect(try context.fetch(request).count == 1)
        request.searchText = "lodz"
        #expect(try context.fetch(request).isEmpty)
        try context.checkSearchIndexes()
    }

    @Test func searchKeyPathsThatCannotBeSearchedAreRefusedByName() throws {
        let context = try SearchFixture.make(["Solaris"])
        func failure(_ entity: String, _ keyPaths: [String]) -> String {
            var request = FetchRequest(entityName: entity)
            request.searchText = "sol"
            request.searchKeyPaths = keyPaths
            do {
                _ = try context.fetch(request)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(failure("Book", ["title"]).contains("Book.title is not indexed for search"))
        #expect(failure("Book", ["author.name"]).contains("Author.name is not indexed for search"))
        #expect(failure("Book", ["isbn"]).contains("Book has no property named 'isbn'"))
        #expect(failure("Book", ["author"]).contains("ends at the relationship author"))
        #expect(failure("Author", ["books.canonicalTitle"]).contains("not a stored to-one relationship"))
        #expect(failure("Book", ["canonicalTitle.x"]).contains("continues past the attribute canonicalTitle"))
        #expect(failure("Book", ["canonicalTitle"]) == "no error")
        let model = ManagedObjectModel { Entity("Plain") { Attribute("x", .string) } }
        let plain = try PersistentContainer(model: model, storeURL: nil).viewContext
        var request = FetchRequest(entityName: "Plain")
        request.searchText = "abc"
        #expect(throws: FetchError.self) { try plain.fetch(request) }
        #expect(String(describing: (try? plain.fetch(request)) as Any) == "nil")
    }
}
