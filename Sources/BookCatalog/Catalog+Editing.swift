import Foundation
import Persistence

extension Catalog {
    /// Adds a book from text as typed, checking every field first: nothing is written
    /// unless all are valid.
    ///
    /// - Throws: `CatalogInputError` naming the field (exit 65 at the command line);
    ///   `ValidationError` if the model refuses a value.
    public func add(title: String, author: String, date: String, price: String, color: String?) throws -> Book {
        let title = try BookInput.title(title)
        let authorName = try BookInput.author(author)
        let day = try BookInput.day(date)
        let price = try BookInput.price(price)
        let color = try color.map { try Color(hex: $0) }
        var authors: [String: Author] = [:]
        if let existing = try existingAuthor(named: authorName) { authors[authorName] = existing }
        let book = try context.insert(Book.self)
        apply(
            SeedBook(uuid: UUID(), title: title, author: authorName, publishDate: day, price: price, color: color),
            to: book, authors: &authors)
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
        return book
    }

    /// Deletes the book with this UUID; false when there is none.
    public func delete(uuid: UUID) throws -> Bool {
        guard let book = try existingBook(uuid: uuid) else { return false }
        context.delete(book)
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
        return true
    }

    /// The author with this exact name, if any.
    public func existingAuthor(named name: String) throws -> Author? {
        var request = FetchRequest(entityName: "Author", predicate: try FetchPredicate("name == %@", name))
        request.fetchLimit = 1
        return try context.fetch(request).first as? Author
    }
}
