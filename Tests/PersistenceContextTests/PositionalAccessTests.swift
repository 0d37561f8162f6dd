import Foundation
import PersistenceTestSupport
import Testing

import Persistence

/// Getters by position (`value(at:forKey:default:)`), as generated code reads attributes.
@Suite struct PositionalAccessTests {
    @Test func aPositionReadsTheSameValueAsTheName() throws {
        let (_, context) = try BookFixture.make()
        context.reset()
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [.init("uuid")]))
        let schema = try #require(context.model.schema(for: "Book"))
        for book in books {
            for key in ["title", "pages", "rating", "publishDate"] {
                let position = try #require(schema.propertyIndex[key])
                #expect(book.attributeValue(at: position, forKey: key) == book.attributeValue(forKey: key))
            }
            #expect(book.value(at: schema.propertyIndex["title"]!, forKey: "title", as: String.self) == book["title"] as? String)
        }
        // A fault fires when read by position.
        let hobbit = try #require(books.first { $0["title"] as? String == "The Hobbit" })
        context.refresh(hobbit, mergeChanges: false)
        #expect(hobbit.isFault)
        #expect(hobbit.value(at: schema.propertyIndex["pages"]!, forKey: "pages", default: Int64(0)) == 74)
        #expect(!hobbit.isFault)
    }

    @Test func aWrongPositionFallsBackToTheName() throws {
        let (_, context) = try BookFixture.make()
        let book = try context.insertObject(forEntityName: "Book")
        book["title"] = "Dune"
        book["pages"] = Int64(412)
        // Positions of another model version, out of range, or negative: found by name.
        #expect(book.value(at: 3, forKey: "title", default: "") == "Dune")
        #expect(book.value(at: 999, forKey: "pages", default: Int64(0)) == 412)
        #expect(book.value(at: -1, forKey: "pages", as: Int64.self) == 412)
        // An unknown key reads the default, or nil.
        #expect(book.value(at: 0, forKey: "nothing", default: "none") == "none")
        #expect(book.value(at: 0, forKey: "nothing", as: String.self) == nil)
        #expect(book.transformedValue(at: 0, forKey: "title", as: String.self) == nil)
    }

    @Test func relationshipsReadByPositionOrByName() throws {
        let (_, context) = try BookFixture.make()
        context.reset()
        let request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("title == 'The Hobbit'"))
        let hobbit = try #require(try context.fetch(request).first)
        let schema = try #require(context.model.schema(for: "Book"))
        let author = try #require(schema.propertyIndex["author"])
        let byPosition = try #require(hobbit.object(at: author, forKey: "author"))
        #expect(byPosition === hobbit.object(forKey: "author"))
        #expect(hobbit.object(at: 0, forKey: "author") === byPosition)
        #expect(hobbit.object(at: author, forKey: "nothing") == nil)
        let books = try #require(byPosition.schema.propertyIndex["books"])
        #expect(byPosition.objects(at: books, forKey: "books").contains { $0 === hobbit })
        #expect(byPosition.objects(at: 99, forKey: "books").count == byPosition.objects(forKey: "books").count)
        #expect(byPosition.objects(at: books, forKey: "nothing").isEmpty)
    }
}
