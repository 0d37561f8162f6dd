import Foundation
import Persistence
import PersistenceModel
import PersistenceStore
import Testing

/// `forEachDestinationRow` and `destinationIDs`: a to-many's destinations, in the
/// relationship's order.
@Suite struct RelationshipConformanceTests {
    /// To-many reads: an unordered to-many read through its inverse to-one gives the objects
    /// that name the source, in insertion order, sub-entities as their own entity.
    @Test(arguments: StoreFactories.all)
    func toManyThroughItsInverseInInsertionOrder(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let books = try relationship("Author", "books", in: library)
        for author in library.objects.authors {
            let expected = library.objects.books
                .filter { $0.object(forKey: "author") === author }.map(\.objectID)
            #expect(
                try library.store.destinationIDs(of: books, from: author.objectID) == expected,
                "\(author.serial)")
            let rows = try destinationRows(of: books, from: author.objectID, in: library.store)
            #expect(rows.map(\.objectID) == expected)
            #expect(
                rows.map(\.schema.name) == expected.map(\.entityName),
                "each row is of its own entity")
            let ids = try library.store.destinationIDs(of: books, from: author.objectID)
            #expect(
                ids.map(\.entityName) == expected.map(\.entityName),
                "each ID names its object's own entity")
        }
    }

    /// To-many reads: a many-to-many gives, from either side, the objects linked to the
    /// source; `forEachDestinationRow` and `destinationIDs` agree on the order.
    @Test(arguments: StoreFactories.all)
    func manyToManyFromEitherSide(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let tagBooks = try relationship("Tag", "books", in: library)
        let bookTags = try relationship("Book", "tags", in: library)
        for (t, tag) in library.objects.tags.enumerated() {
            let expected = Set(
                library.objects.books.indices.filter { t < 3 && ($0 + t) % 3 == 0 }
                    .map { library.objects.books[$0].objectID })
            let ids = try library.store.destinationIDs(of: tagBooks, from: tag.objectID)
            #expect(Set(ids) == expected && ids.count == expected.count, "\(Library.tagNames[t])")
            #expect(
                try destinationRows(of: tagBooks, from: tag.objectID, in: library.store).map(
                    \.objectID) == ids)
        }
        for book in library.objects.books {
            let n = Int(book.serial)
            let expected = Set(
                (0..<3).filter { (n + $0) % 3 == 0 }.map { library.objects.tags[$0].objectID })
            let ids = try library.store.destinationIDs(of: bookTags, from: book.objectID)
            #expect(Set(ids) == expected && ids.count == expected.count, "book \(n)")
            #expect(
                try destinationRows(of: bookTags, from: book.objectID, in: library.store).map(
                    \.objectID) == ids)
        }
    }

    /// To-many reads: an ordered to-many gives its destinations in the stored order, which
    /// need not be insertion or key order.
    @Test(arguments: StoreFactories.all)
    func orderedToManyInItsStoredOrder(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let books = try relationship("Shelf", "books", in: library)
        for shelf in library.objects.shelves {
            let expected = shelf.objects(forKey: "books").map(\.objectID)
            #expect(!expected.isEmpty)
            #expect(try library.store.destinationIDs(of: books, from: shelf.objectID) == expected)
            #expect(
                try destinationRows(of: books, from: shelf.objectID, in: library.store).map(
                    \.objectID) == expected)
        }
        let favourites = library.objects.shelves[0].objects(forKey: "books").map(\.serial)
        #expect(
            favourites == Array(stride(from: 36, through: 0, by: -4)), "each book was put first")
    }

    /// To-many reads: the store stops as soon as `body` returns false; a source without
    /// destinations gives none.
    @Test(arguments: StoreFactories.all)
    func destinationRowsStopWhenBodyReturnsFalse(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let books = try relationship("Shelf", "books", in: library)
        let shelf = library.objects.shelves[0]
        var seen = 0
        try library.store.forEachDestinationRow(of: books, from: shelf.objectID) { _ in
            seen += 1
            return seen < 2
        }
        #expect(seen == 2)
        let unused = library.objects.tags[3]
        let tagBooks = try relationship("Tag", "books", in: library)
        #expect(try library.store.destinationIDs(of: tagBooks, from: unused.objectID).isEmpty)
        #expect(try destinationRows(of: tagBooks, from: unused.objectID, in: library.store).isEmpty)
    }

    /// To-many reads: the stored order of an ordered to-many, and a many-to-many's links,
    /// are what a store opened again reads.
    @Test(arguments: StoreFactories.reopenable)
    func destinationsSurviveReopening(_ factory: StoreFactory) throws {
        let library = try StoredLibrary(factory)
        let shelf = library.objects.shelves[0].objectID
        let tag = library.objects.tags[1].objectID
        let shelfBooks = try relationship("Shelf", "books", in: library)
        let tagBooks = try relationship("Tag", "books", in: library)
        let ordered = try library.store.destinationIDs(of: shelfBooks, from: shelf)
        let linked = try library.store.destinationIDs(of: tagBooks, from: tag)
        try library.subject.reopen()
        let store = library.subject.store
        let reopenedShelf = try #require(try store.row(for: shelf)).objectID
        #expect(try store.destinationIDs(of: shelfBooks, from: reopenedShelf) == ordered)
        #expect(Set(try store.destinationIDs(of: tagBooks, from: tag)) == Set(linked))
    }

    // MARK: - Helpers

    private func relationship(_ entity: String, _ name: String, in library: StoredLibrary) throws
        -> RelationshipDescription
    {
        try #require(library.store.model.entity(named: entity)?.relationship(named: name))
    }

    private func destinationRows(
        of relationship: RelationshipDescription, from source: ObjectID,
        in store: any PersistentStore
    ) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        try store.forEachDestinationRow(of: relationship, from: source) { row in
            rows.append(row)
            return true
        }
        return rows
    }
}
