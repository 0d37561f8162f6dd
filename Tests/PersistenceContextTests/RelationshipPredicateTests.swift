import Foundation
import PersistenceTestSupport
import Testing
import Persistence

@Suite struct RelationshipPredicateTests {
    /// Books tagged: Dune {scifi, classic}, Emma {classic}, Solaris {scifi, polish, classic},
    /// Blank {}; Dune is related to Emma and Solaris; songs in two playlists.
    private func fixture() throws -> (TemporaryStore, ManagedObjectContext) {
        let store = TemporaryStore()
        do {
            let context = try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext
            var tags: [String: ManagedObject] = [:]
            for name in ["scifi", "classic", "polish", "unused"] { tags[name] = try context.make("Tag", name) }
            var books: [String: ManagedObject] = [:]
            for (title, names) in [("Dune", ["scifi", "classic"]), ("Emma", ["classic"]), ("Solaris", ["scifi", "polish", "classic"]), ("Blank", [])] {
                let book = try context.make("Book", title)
                for name in names { book.addObject(tags[name]!, forKey: "tags") }
                books[title] = book
            }
            books["Dune"]!.addObject(books["Emma"]!, forKey: "related")
            books["Dune"]!.addObject(books["Solaris"]!, forKey: "related")
            let mix = try context.make("Playlist", "mix")
            let calm = try context.make("Playlist", "calm")
            for name in ["a", "b", "c"] { mix.addObject(try context.make("Song", name), forKey: "songs") }
            calm.addObject(try context.named("Song", "c"), forKey: "songs")
            try context.save()
        }
        return (store, try PersistentContainer(model: relationshipModel(), storeURL: store.url).viewContext)
    }

    static let cases: [(entity: String, format: String, expected: [String])] = [
        ("Book", "ANY tags.name == 'scifi'", ["Dune", "Solaris"]),
        ("Book", "ANY tags.name == 'nothing'", []),
        ("Book", "tags.@count > 2", ["Solaris"]),
        ("Book", "tags.@count == 0", ["Blank"]),
        ("Book", "ALL tags.name != 'scifi'", ["Blank", "Emma"]),
        ("Book", "NONE tags.name == 'classic'", ["Blank"]),
        ("Book", "ALL tags.name IN {'scifi', 'classic'}", ["Blank", "Dune", "Emma"]),
        ("Book", "ANY tags.name BEGINSWITH[c] 'POL' AND tags.@count >= 3", ["Solaris"]),
        ("Book", "ANY related.title == 'Emma'", ["Dune"]),
        ("Book", "related.@count == 0", ["Blank", "Emma", "Solaris"]),
        ("Tag", "ANY books.title == 'Emma'", ["classic"]),
        ("Tag", "books.@count == 0", ["unused"]),
        ("Tag", "books.@count >= 2", ["classic", "scifi"]),
        ("Tag", "NOT (ANY books.title ENDSWITH 'a')", ["polish", "scifi", "unused"]),
        ("Playlist", "songs.@count == 3", ["mix"]),
        ("Playlist", "ANY songs.name == 'c'", ["calm", "mix"]),
        ("Song", "playlists.@count == 2", ["c"]),
        ("Song", "ANY playlists.name == 'calm'", ["c"]),
    ]

    @Test func sqlThroughJoinTablesAgreesWithTheEvaluator() throws {
        let (store, context) = try fixture()
        defer { withExtendedLifetime(store) {} }
        for (entity, format, expected) in Self.cases {
            let predicate = try FetchPredicate(format)
            let sql = names(try context.fetch(FetchRequest(entityName: entity, predicate: predicate))).sorted()
            let all = try context.fetch(FetchRequest(entityName: entity))
            let memory = names(try all.filter { try predicate.evaluate(with: $0) }).sorted()
            #expect(sql == expected, "\(format)")
            #expect(memory == expected, "\(format) in memory")
        }
    }

    @Test func unsavedLinksCountInFetches() throws {
        let (store, context) = try fixture()
        defer { withExtendedLifetime(store) {} }
        try context.named("Book", "Blank").addObject(try context.named("Tag", "polish"), forKey: "tags")
        let found = try context.fetch(FetchRequest(entityName: "Book", predicate: try FetchPredicate("ANY tags.name == 'polish'")))
        #expect(names(found).sorted() == ["Blank", "Solaris"])
    }

    @Test func aTransientToManyIsRefused() throws {
        let model = ManagedObjectModel {
            Entity("A") { Relationship("bs", to: "B", toMany: true, transient: true) }
            Entity("B") { Attribute("x", .integer64) }
        }
        let context = try PersistentContainer(model: model, storeURL: nil).viewContext
        let error = try #require(throws: FetchError.self) {
            try context.fetch(FetchRequest(entityName: "A", predicate: try FetchPredicate("bs.@count > 0")))
        }
        #expect(error.description.contains("bs is transient"))
    }
}
