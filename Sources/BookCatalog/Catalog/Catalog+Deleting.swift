import Foundation
import Persistence

extension Catalog {
    /// Deletes `books` in one save, with the tags no other book has; on failure nothing is
    /// deleted and the context is as it was.
    ///
    /// - Throws: the save's errors.
    public func delete(_ books: [Book]) throws {
        let deleted = Set(books.map { ObjectIdentifier($0) })
        // All at once: what the delete rules walk (every book's tags) is read in one query,
        // not one a book; the books keep their tags until the save.
        context.delete(books)
        var tags: [ObjectIdentifier: Tag] = [:]
        for book in books {
            for tag in book.tags { tags[ObjectIdentifier(tag)] = tag }
        }
        for tag in tags.values where tag.books.allSatisfy({ deleted.contains(ObjectIdentifier($0)) }) {
            context.delete(tag)
        }
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
    }

    /// The books `predicate` matches, in listing order.
    ///
    /// - Throws: `FetchError` for a predicate the model cannot answer; the store's errors.
    public func books(matching predicate: FetchPredicate) throws -> [Book] {
        var books: [Book] = []
        try forEachBook(matching: predicate) { books.append($0) }
        return books
    }
}
