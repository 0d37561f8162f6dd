import Foundation
import Persistence

// Hand-written classes of the conformance model's library, each declaring the key paths of
// its properties (`PropertyKeyPathNaming`), for the typed fetch tests: `#Predicate` and
// `SortDescriptor` need Swift properties to name.

/// An author of the conformance library.
final class TypedAuthor: ManagedObject, PropertyKeyPathNaming {
    var n: Int64 { value(forKey: "n", default: -1) }
    var name: String? { value(forKey: "name") }
    var books: Set<TypedBook> { Set(objects(forKey: "books").compactMap { $0 as? TypedBook }) }

    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [\TypedAuthor.n: "n", \TypedAuthor.name: "name", \TypedAuthor.books: "books"]
    }
}

/// A book of the conformance library; its table lists the sub-entity's key paths too, since
/// `TypedEbook` inherits the conformance.
class TypedBook: ManagedObject, PropertyKeyPathNaming {
    var n: Int64 { value(forKey: "n", default: -1) }
    var title: String? { value(forKey: "title") }
    var year: Int32? { value(forKey: "year") }
    var price: Decimal? { value(forKey: "price") }
    var rating: Double? { value(forKey: "rating") }
    var author: TypedAuthor? { object(forKey: "author") as? TypedAuthor }
    var tags: Set<TypedTag> { Set(objects(forKey: "tags").compactMap { $0 as? TypedTag }) }
    var shelves: [TypedShelf] { objects(forKey: "shelves").compactMap { $0 as? TypedShelf } }

    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [
            \TypedBook.n: "n", \TypedBook.title: "title", \TypedBook.year: "year",
            \TypedBook.price: "price", \TypedBook.rating: "rating", \TypedBook.author: "author",
            \TypedBook.tags: "tags", \TypedBook.shelves: "shelves",
            \TypedEbook.n: "n", \TypedEbook.title: "title", \TypedEbook.year: "year",
            \TypedEbook.megabytes: "megabytes",
        ]
    }
}

/// An ebook: a sub-entity of book.
final class TypedEbook: TypedBook {
    var megabytes: Double? { value(forKey: "megabytes") }
}

/// A tag of the conformance library.
final class TypedTag: ManagedObject, PropertyKeyPathNaming {
    var n: Int64 { value(forKey: "n", default: -1) }
    var name: String? { value(forKey: "name") }
    var books: Set<TypedBook> { Set(objects(forKey: "books").compactMap { $0 as? TypedBook }) }

    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [\TypedTag.n: "n", \TypedTag.name: "name", \TypedTag.books: "books"]
    }
}

/// A shelf of the conformance library.
final class TypedShelf: ManagedObject, PropertyKeyPathNaming {
    var n: Int64 { value(forKey: "n", default: -1) }
    var name: String? { value(forKey: "name") }

    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [\TypedShelf.n: "n", \TypedShelf.name: "name"]
    }
}

/// The classes, by entity name.
let typedLibraryClasses: [String: ManagedObject.Type] = [
    "Author": TypedAuthor.self, "Book": TypedBook.self, "Ebook": TypedEbook.self,
    "Tag": TypedTag.self, "Shelf": TypedShelf.self,
]
