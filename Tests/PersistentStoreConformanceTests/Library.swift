import Foundation
import Persistence
import PersistenceModel

/// The authors, books, tags and shelves the fetch and relationship tests store: ties in every
/// sort key, nil values, NaN and infinities, diacritics and case pairs, books without an
/// author, and every fifth book an `Ebook`.
enum Library {
    /// One book's values, by its serial number `n` (its index in `books`).
    struct BookSpec {
        var title: String?
        var year: Int64?
        var price: Decimal?
        var rating: Double?
        /// The author's index in `authorNames`, or nil for none.
        var author: Int?
        /// The megabytes of an `Ebook`; nil for a plain `Book`.
        var megabytes: Double?
    }

    static let authorNames = [
        "Gabriel García Márquez", "Stanisław Lem", "Ana Light", "ana light", "Bo Stone",
        "Émile Zola",
        "Olga Tokarczuk", "Zadie Smith",
    ]
    static let tagNames = ["classic", "sf", "poetry", "unused"]
    static let shelfNames = ["favourites", "to read"]

    static let books: [BookSpec] = {
        let titles: [String?] = [
            "Solaris", "Cien años de soledad", "Light", "Twilight", "Stone River", "Ringworld",
            "The Lord of the Rings", "Boring Ring", "ÉCOLE", "école", "Zebra", "apple", "Apple",
            nil,
            "Light", "Solaris",
        ]
        let years: [Int64?] = [1961, 1967, nil, 1999, 1961, 1950, nil]
        let prices = [
            "10.5", "9.99", "10.50", nil, "100", "-0.01", "12345678901234567890.123456789",
        ]
        let ratings: [Double?] = [4.5, nil, 3, 4.5, .infinity, -.infinity, .nan, 0, -0.0]
        return (0..<40).map { i in
            BookSpec(
                title: titles[i % titles.count], year: years[i % years.count],
                price: try! prices[i % prices.count].map { try DecimalText.parse($0) },
                rating: ratings[i % ratings.count],
                author: i % 9 == 8 ? nil : i % authorNames.count,
                megabytes: i % 5 == 4 ? Double(i % 3) + 0.5 : nil)
        }
    }()

    /// The objects of one insertion, by serial number.
    struct Objects {
        var authors: [ManagedObject] = []
        var books: [ManagedObject] = []
        var tags: [ManagedObject] = []
        var shelves: [ManagedObject] = []
    }

    /// Inserts the library into `context`, without saving.
    ///
    /// Tag `t` holds the books whose `(n + t) % 3 == 0`; the favourites shelf holds every
    /// fourth book in reverse order of insertion (each put first), the other shelf every fifth
    /// from the second, appended.
    @discardableResult
    static func insert(into context: ManagedObjectContext) throws -> Objects {
        var objects = Objects()
        for (n, name) in authorNames.enumerated() {
            objects.authors.append(try insert("Author", n: n, ["name": name], into: context))
        }
        for (n, name) in tagNames.enumerated() {
            objects.tags.append(try insert("Tag", n: n, ["name": name], into: context))
        }
        for (n, name) in shelfNames.enumerated() {
            objects.shelves.append(try insert("Shelf", n: n, ["name": name], into: context))
        }
        for n in books.indices {
            let spec = books[n]
            let book = try insert(
                spec.megabytes == nil ? "Book" : "Ebook", n: n,
                [
                    "title": spec.title, "year": spec.year, "price": spec.price,
                    "rating": spec.rating,
                ], into: context)
            if let megabytes = spec.megabytes { try book.setValue(megabytes, forKey: "megabytes") }
            if let author = spec.author {
                book.setObject(objects.authors[author], forKey: "author")
            }
            for t in 0..<3 where (n + t) % 3 == 0 {
                book.addObject(objects.tags[t], forKey: "tags")
            }
            if n % 4 == 0 { try objects.shelves[0].insertObject(book, at: 0, forKey: "books") }
            if n % 5 == 1 { objects.shelves[1].addObject(book, forKey: "books") }
            objects.books.append(book)
        }
        return objects
    }

    private static func insert(
        _ entity: String, n: Int, _ values: [String: Any?], into context: ManagedObjectContext
    ) throws -> ManagedObject {
        let object = try context.insertObject(forEntityName: entity)
        try object.setValue(Int64(n), forKey: "n")
        for (key, value) in values { try object.setValue(value, forKey: key) }
        return object
    }
}
