import Foundation
import Persistence
import PersistenceModel

/// The conformance model's edge samples, with authors, books (some of them ebooks) and a
/// many-to-many of tags beside them: the library the fetch compiler tests ask to-many
/// predicates of (`SQLiteFetchCompilerTests`, `PostgreSQLFetchCompilerTests`).
enum ToManyLibrary {
    /// Seeds and saves the library; `withDecimalNaN` gives every eighth book a NaN price.
    static func seed(_ context: ManagedObjectContext, withDecimalNaN: Bool = false) throws {
        try EdgeSamples.seed(context)
        let authors = try context.fetch(FetchRequest(entityName: "Author"))
        var tags: [ManagedObject] = []
        for (n, name) in ["poetry", "Prose", nil, "épopée"].enumerated() {
            let tag = try context.insertObject(forEntityName: "Tag")
            tag["n"] = Int64(n)
            tag["name"] = name
            tags.append(tag)
        }
        for n in 0..<12 {
            let book = try context.insertObject(forEntityName: n % 4 == 3 ? "Ebook" : "Book")
            book["n"] = Int64(n)
            book["title"] = n % 5 == 4 ? nil : "Title \(n)"
            book["year"] = Int64(1900 + n * 10)
            book["rating"] = n % 6 == 5 ? Double.nan : Double(n) / 2
            book["price"] = withDecimalNaN && n % 8 == 7 ? Decimal.nan : Decimal(n) / 4
            if n % 7 != 6 { book.setObject(authors[n % authors.count], forKey: "author") }
            for (index, tag) in tags.enumerated() where (n + index) % 3 == 0 { book.addObject(tag, forKey: "tags") }
        }
        try context.save()
    }
}
