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

extension Catalog {
    /// Applies `edit` to `book` and saves it, as the Core Data sample's edit screen does:
    /// `canonicalTitle` is derived again on save and `publishMonthID` follows the date.
    ///
    /// The save uses optimistic locking under the `.error` merge policy: if another process
    /// saved the book after it was read here, nothing is saved (the other change is kept)
    /// and the edit throws ``BookEditConflictError``. An ISBN another book has is refused.
    /// On any failure the context is rolled back and the store is as it was.
    ///
    /// - Throws: `CatalogInputError` for an ISBN another book has (exit 65);
    ///   ``BookEditConflictError``; `ValidationError` if the model refuses a value.
    public func edit(_ book: Book, with edit: BookEdit.Checked) throws {
        if case .some(.some(let isbn)) = edit.isbn, let other = try bookWithISBN(isbn), other.uuid != book.uuid {
            throw CatalogInputError(
                field: "isbn", value: isbn, reason: "the book \(other.uuid.uuidString) already has this ISBN")
        }
        if let title = edit.title { book.title = title }
        if let name = edit.author, book.author?.name != name {
            var authors: [String: Author] = [:]
            if let existing = try existingAuthor(named: name) { authors[name] = existing }
            book.author = author(named: name, in: &authors)
        }
        if let date = edit.date {
            book.publishDate = date.day
            book.datePrecision = date.precision.rawValue
        }
        if let price = edit.price { book.price = price }
        if let color = edit.color { book.color = color }
        if let isbn = edit.isbn { book.isbn = isbn }
        if let rating = edit.rating { book.rating = rating }
        if let status = edit.status { book.status = status?.rawValue }
        if let notes = edit.notes { book.notes = notes }
        if !edit.tags.isEmpty {
            var tags = try tagsByCanonicalName()
            for change in edit.tags {
                if change.add {
                    addTag(change.name, to: book, tags: &tags)
                } else {
                    removeTag(named: change.name, from: book, tags: &tags)
                }
            }
        }

        let policy = context.mergePolicy
        context.mergePolicy = .error
        defer { context.mergePolicy = policy }
        do { try context.save() } catch {
            context.rollback()
            if error is MergeConflictError { throw BookEditConflictError(uuid: book.uuid) }
            throw error
        }
    }

    /// The book with this ISBN (normalised, ISBN-13), if any.
    public func bookWithISBN(_ isbn: String) throws -> Book? {
        var request = FetchRequest(entityName: "Book", predicate: try FetchPredicate("isbn == %@", isbn))
        request.fetchLimit = 1
        return try context.fetch(request).first as? Book
    }
}
