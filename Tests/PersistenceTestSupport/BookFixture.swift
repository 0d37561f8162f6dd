import Foundation
import Persistence

/// A small Book/Author store shared by the SQL predicate and fetch tests.
package enum BookFixture {
    package static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [
            EntityDescription(
                name: "Book",
                attributes: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "price", type: .decimal),
                    AttributeDescription(name: "publishDate", type: .date),
                    AttributeDescription(name: "pages", type: .integer64),
                    AttributeDescription(name: "rating", type: .double),
                    AttributeDescription(name: "available", type: .boolean),
                    AttributeDescription(name: "uuid", type: .uuid),
                    AttributeDescription(name: "monthID", type: .string, isTransient: true),
                ],
                relationships: [RelationshipDescription(name: "author", destination: "Author", inverse: "books")]),
            EntityDescription(
                name: "Author", attributes: [AttributeDescription(name: "name", type: .string)],
                relationships: [
                    RelationshipDescription(name: "books", destination: "Book", inverse: "author", isToMany: true)
                ]),
        ])
    }

    package static let titles: [String?] = [
        "Cien años de soledad", "Łódź Stories", "The Hobbit", "ÉTÉ", "été", "Dvořák: Slovanské tance",
        "a_b%c", "star*wars?", nil, "Zebra", "apple", "Ørsted",
    ]
    package static let prices: [String?] = ["9.5", "10.25", "19.99", nil, "0", "100", "9.50", "12.99", "10.25", "3", "7.5", nil]

    /// Twelve books by three authors (one author has none) plus a book without author.
    package static func make() throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try PersistentContainer(model: model(), storeURL: nil)
        let context = container.viewContext
        var authors: [ManagedObject] = []
        for name in ["Gabriel García Márquez", "J. R. R. Tolkien", "Nobody"] {
            let author = try context.insertObject(forEntityName: "Author")
            author["name"] = name
            authors.append(author)
        }
        for i in 0..<titles.count {
            let book = try context.insertObject(forEntityName: "Book")
            book["title"] = titles[i]
            if let p = prices[i] { try book.setValue(try DecimalText.parse(p), forKey: "price") }
            if i != 3 { book["publishDate"] = Date(timeIntervalSince1970: Double(i) * 86_400 * 40) }
            if i != 5 { book["pages"] = Int64((i * 37) % 500) }
            book["rating"] = i == 7 ? Double.nan : (i == 8 ? nil : Double(i) / 2)
            book["available"] = i % 3 != 0
            book["uuid"] = UUID(uuidString: String(format: "%08X-0000-0000-0000-000000000000", i * 7919))
            if i != 11 { book.setObject(authors[i % 2], forKey: "author") }
        }
        try context.save()
        return (container, context)
    }

    /// Titles matched by `predicate` through SQL (after save) and in memory; both sorted.
    package static func both(_ context: ManagedObjectContext, _ predicate: FetchPredicate) throws -> (sql: [String], memory: [String]) {
        let request = FetchRequest(entityName: "Book", predicate: predicate)
        let sql = try context.fetch(request).map(\.debugTitle).sorted()
        let all = try context.fetch(FetchRequest(entityName: "Book"))
        let memory = try all.filter { try predicate.evaluate(with: $0) }.map(\.debugTitle).sorted()
        return (sql, memory)
    }
}

extension ManagedObject {
    /// A book's title, or its key when it has none, for messages of failed expectations.
    package var debugTitle: String { (self["title"] as? String) ?? "<nil>#\(objectID.primaryKey ?? -1)" }
}
