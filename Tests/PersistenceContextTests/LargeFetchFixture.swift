import Foundation
import Persistence

@testable import PersistenceContext

/// A library for the fetch-tool suites: `count` books (titles "Book 000" on, prices and page
/// counts varying) by `authors` authors, each book with two tags of four (a many-to-many
/// through a join table) and three chapters (an ordered to-many), saved, then the context
/// reset so that nothing is registered; the store's read counts start at zero.
enum LargeFetchFixture {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("price", .decimal)
                Attribute("pages", .integer64)
                Attribute("cover", .binaryData)
                Attribute("shelfLabel", .string, transient: true)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("tags", to: "Tag", inverse: "books", toMany: true)
                Relationship("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true)
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "tags", toMany: true)
            }
            Entity("Chapter") {
                Attribute("name", .string)
                Relationship("book", to: "Book", inverse: "chapters")
            }
        }
    }

    static func make(count: Int = 100, authors: Int = 10, usesDefaultReads: Bool = false) throws
        -> (ReadCountingStore, ManagedObjectContext)
    {
        let (store, context) = try ReadCountingStore.context(model(), usesDefaultReads: usesDefaultReads)
        let people = try (0..<authors).map { number in
            let author = try context.insertObject(forEntityName: "Author")
            author["name"] = "Author \(number)"
            return author
        }
        let tags = try (0..<4).map { number in
            let tag = try context.insertObject(forEntityName: "Tag")
            tag["name"] = "Tag \(number)"
            return tag
        }
        for number in 0..<count {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = String(format: "Book %03d", number)
            book["price"] = Decimal(number % 17) + Decimal(string: "0.99")!
            book["pages"] = Int64(100 + number * 7 % 300)
            if number % 3 == 0 { book["cover"] = Data([UInt8(number % 256), 1, 2]) }
            if number % 10 != 9 { book.setObject(people[number % authors], forKey: "author") }
            book.addObject(tags[number % 4], forKey: "tags")
            book.addObject(tags[(number + 1) % 4], forKey: "tags")
            for part in 0..<3 {
                let chapter = try context.insertObject(forEntityName: "Chapter")
                chapter["name"] = "\(number)-\(2 - part)"
                book.addObject(chapter, forKey: "chapters")
            }
        }
        try context.save()
        context.reset()
        store.resetCounts()
        return (store, context)
    }

    /// The books by title.
    static var byTitle: FetchRequest { FetchRequest(entityName: "Book", sortDescriptors: [SortKey("title")]) }
}
